import Glibc

/// A `sockaddr_un`, either a file-system path or a Linux abstract name (written "@name" by
/// systemd). Built once and validated up front so that a path over the kernel's limit is a clear
/// error instead of a silently truncated address.
public struct UnixSocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// `sun_path` holds 108 bytes; a path needs one of them for its terminating NUL.
    public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Why an address could not be built.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case containsNUL(String)
        case tooLong(String, bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .empty:
                return "the socket path is empty"
            case .containsNUL(let path):
                return "the socket path \(path.debugDescription) contains a NUL byte"
            case .tooLong(let path, let bytes, let limit):
                return "the socket path \(path) is \(bytes) bytes long, but Unix sockets allow at most \(limit); "
                    + "choose a shorter path (for example with --socket or NARRATOR_SOCKET)"
            }
        }
    }

    /// The bytes of `sun_path` (for an abstract name: a leading NUL then the name, no terminator).
    let pathBytes: [UInt8]
    /// True for an abstract-namespace address.
    public let isAbstract: Bool

    /// A file-system socket path.
    public init(path: String) throws(Failure) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw .empty }
        guard !bytes.contains(0) else { throw .containsNUL(path) }
        guard bytes.count <= Self.maximumPathBytes else {
            throw .tooLong(path, bytes: bytes.count, limit: Self.maximumPathBytes)
        }
        pathBytes = bytes
        isAbstract = false
    }

    /// An abstract-namespace name (without the leading '@' or NUL).
    public init(abstractName: String) throws(Failure) {
        let bytes = Array(abstractName.utf8)
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count + 1 <= Self.maximumPathBytes + 1 else {
            throw .tooLong("@" + abstractName, bytes: bytes.count + 1, limit: Self.maximumPathBytes + 1)
        }
        pathBytes = [0] + bytes
        isAbstract = true
    }

    /// systemd's notation: "@name" is abstract, anything else a path.
    public init(systemdNotation text: String) throws(Failure) {
        if text.hasPrefix("@") {
            try self.init(abstractName: String(text.dropFirst()))
        } else {
            try self.init(path: text)
        }
    }

    public var description: String {
        if isAbstract {
            return "@" + String(decoding: pathBytes.dropFirst(), as: UTF8.self)
        }
        return String(decoding: pathBytes, as: UTF8.self)
    }

    /// Calls `body` with a pointer to the filled-in `sockaddr_un` and its exact length.
    func withSockaddr<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        // A path is NUL-terminated (the zeroed struct supplies it); an abstract name is not.
        let length = pathOffset + pathBytes.count + (isAbstract ? 0 : 1)
        return try withUnsafePointer(to: &address) { (pointer) throws(Failure) -> Result in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (generic) throws(Failure) -> Result in
                try body(generic, socklen_t(length))
            }
        }
    }
}
