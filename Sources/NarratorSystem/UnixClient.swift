import Glibc
import NarratorBase

/// A blocking line client for narratorctl (and benchmarks): connect, send a line, read lines.
/// Not shared between threads; it closes its socket when released.
public final class UnixClient {
    public let path: String
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    private let maximumLineLength: Int

    /// Connects to the socket at `path`, telling apart the ways a daemon can be unreachable.
    public init(connectingTo path: String, maximumLineLength: Int = 16 << 20) throws(UnixClientError) {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw .invalidPath(error)
        }
        let fd: Int32
        do {
            fd = try Syscall.unixSocket(type: Syscall.stream)
        } catch {
            throw .io(path, error)
        }
        do {
            try Syscall.connect(fd, to: address)
        } catch {
            try? Syscall.close(fd)
            switch error.code {
            case ENOENT, ENOTDIR: throw .noSocket(path)
            case ECONNREFUSED: throw .connectionRefused(path)
            case EACCES, EPERM: throw .permissionDenied(path)
            default: throw .io(path, error)
            }
        }
        self.path = path
        self.fd = fd
        self.maximumLineLength = maximumLineLength
    }

    deinit {
        if !closed { try? Syscall.close(fd) }
    }

    /// Sends `line` followed by a newline, blocking until the kernel took all of it.
    public func send(line: String) throws(UnixClientError) {
        // One memchr and one copy: a tree document can be megabytes, and a byte-by-byte check of
        // the String's UTF-8 view cost more than the daemon's whole parse.
        var line = line
        let bytes = line.withUTF8 { text -> [UInt8]? in
            if firstNewline(in: UnsafeRawBufferPointer(text)) != nil { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count + 1)
            bytes.append(contentsOf: text)
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        }
        guard let bytes else { throw .lineContainsNewline }
        try sendAll(bytes)
    }

    /// Sends raw bytes as they are (tests use it for partial or over-long lines).
    public func send(bytes: [UInt8]) throws(UnixClientError) {
        try sendAll(bytes)
    }

    private func sendAll(_ bytes: [UInt8]) throws(UnixClientError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) -> Int in
                    try Syscall.send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
                }
            }
            switch result {
            case .success(let count): offset += count
            case .failure(let error): throw .io(path, error)
            }
        }
    }

    /// The next line without its newline, or nil at end of file. With a `timeout`, throws
    /// `.timedOut` when no complete line arrived in time.
    public func readLine(timeout: Duration? = nil) throws(UnixClientError) -> String? {
        let deadline = timeout.map { MonotonicClock.now() + $0 }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard buffer.count <= maximumLineLength else { throw .lineTooLong(limit: maximumLineLength) }
            if let deadline {
                let remaining = deadline - MonotonicClock.now()
                guard remaining > .zero else { throw .timedOut(timeout ?? .zero) }
                let (seconds, attoseconds) = remaining.components
                let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
                do {
                    if try Syscall.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: milliseconds) == 0 { continue }
                } catch {
                    throw .io(path, error)
                }
            }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let result = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try Syscall.read(fd, into: raw) }
            }
            switch result {
            case .success(0):
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return line
            case .success(let count):
                buffer.append(contentsOf: chunk[..<count])
            case .failure(let error):
                throw .io(path, error)
            }
        }
    }

    /// Tells the daemon this client will send nothing more; replies can still be read.
    public func finishSending() throws(UnixClientError) {
        do {
            try Syscall.shutdown(fd, writing: true, reading: false)
        } catch {
            throw .io(path, error)
        }
    }

    /// Closes the connection; further calls fail.
    public func close() {
        guard !closed else { return }
        closed = true
        try? Syscall.close(fd)
    }
}

/// Why narratorctl could not talk to the daemon; each case carries the socket it tried.
public enum UnixClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No socket file: the daemon is not running (or listens elsewhere).
    case noSocket(String)
    /// The socket file exists but nobody listens: a daemon died and left it behind.
    case connectionRefused(String)
    /// The socket or its directory belongs to another user.
    case permissionDenied(String)
    case invalidPath(UnixSocketAddress.Failure)
    case timedOut(Duration)
    case lineTooLong(limit: Int)
    case lineContainsNewline
    case io(String, Errno)

    /// True for the errors that mean "the daemon is not reachable" (narratorctl exits 3).
    public var isUnreachable: Bool {
        switch self {
        case .noSocket, .connectionRefused, .permissionDenied, .invalidPath: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .noSocket(let path):
            return "no daemon socket at \(path): narratord is not running (start it with `narratord` "
                + "or `systemctl --user start narratord`), or it listens elsewhere (--socket / NARRATOR_SOCKET)"
        case .connectionRefused(let path):
            return "nothing is listening on \(path): narratord probably exited and left a stale socket; start it again"
        case .permissionDenied(let path):
            return "permission denied on \(path): the daemon belongs to another user; start your own narratord"
        case .invalidPath(let failure):
            return failure.description
        case .timedOut(let timeout):
            return "the daemon did not answer within \(timeout)"
        case .lineTooLong(let limit):
            return "the daemon sent a line longer than \(limit) bytes"
        case .lineContainsNewline:
            return "a message must not contain a newline"
        case .io(let path, let error):
            return "\(path): \(error)"
        }
    }
}
