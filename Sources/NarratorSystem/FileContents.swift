import Glibc

/// Whole files read and written with plain system calls: the daemon's settings, its
/// configuration, the log's header check and WAV captions, without Foundation.
extension Syscall {
    /// open(2) with O_CLOEXEC added, so no spawned child inherits the descriptor.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try retryingInterrupts("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// Every byte of the file at `path` (a regular file, or a character device such as /dev/null,
    /// which reads as empty), up to `limit` bytes.
    public static func readFile(_ path: String, limit: Int = .max) throws(Errno) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { try? close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            // The buffer closures rethrow untyped errors, so the result comes out as a Result.
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])) }
            }.get()
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Writes all of `bytes` to `fd`, however many calls it takes.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Replaces the file at `path` with `bytes` so that a reader (or a crash) sees the old file or
    /// the new one, never half of one: the bytes go to a temporary file beside it, which is then
    /// renamed over it. The temporary file is removed when anything fails.
    public static func writeFileAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws(Errno) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = try open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
        do throws(Errno) {
            try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(fd, buffer) } }.get()
            try close(fd)
        } catch {
            try? close(fd)
            try? unlink(temporary)
            throw error
        }
        do throws(Errno) { try rename(temporary, to: path) } catch {
            try? unlink(temporary)
            throw error
        }
    }
}
