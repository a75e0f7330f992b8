import Glibc

/// A failed system call: the `errno` value together with the call that produced it, so that a
/// message like "connect: Connection refused" tells the user what was attempted, not only what failed.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value (compare with Glibc's `EAGAIN`, `ENOENT`, ...).
    public let code: Int32
    /// The system call that failed, for example `"bind"`.
    public let syscall: String

    public init(code: Int32, syscall: String) {
        self.code = code
        self.syscall = syscall
    }

    /// The `errno` left by the call that just failed on this thread.
    static func current(_ syscall: String) -> Errno {
        Errno(code: errno, syscall: syscall)
    }

    /// strerror_r's text for the code ("No such file or directory"); thread-safe unlike strerror.
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let result = strerror_r(code, &buffer, buffer.count)
        guard result == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(syscall): \(message) (errno \(code))" }

    /// The call would have blocked on a non-blocking descriptor: try again when poll says so.
    public var isWouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

/// Runs `call` until it returns something other than -1 with EINTR. A signal arriving while a
/// call is blocked must not look like a failure to the caller; only calls that are safe to
/// repeat use this (not `close`, whose descriptor is gone after EINTR on Linux).
@inline(__always)
func retryingInterrupts<Result: FixedWidthInteger>(
    _ syscall: String, _ call: () -> Result
) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw Errno(code: code, syscall: syscall) }
    }
}
