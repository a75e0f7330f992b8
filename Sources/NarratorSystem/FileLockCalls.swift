import Glibc

/// Who holds a lock that was refused: fcntl's F_GETLK answer.
public struct LockHolder: Hashable, Sendable {
    public let pid: pid_t
}

extension Syscall {
    /// open(2) with O_CLOEXEC, so that no child of the daemon inherits (and could drop) a lock.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) throws(Errno) -> Int32 {
        try retryingInterrupts("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// ftruncate(2).
    public static func truncate(_ fd: Int32, to length: Int) throws(Errno) {
        _ = try retryingInterrupts("ftruncate") { ftruncate(fd, off_t(length)) }
    }

    /// fcntl(F_SETLK): a write lock on the whole file, refused at once (EAGAIN or EACCES) when
    /// another process holds one. The lock lasts while this process keeps any descriptor of the
    /// file open (POSIX record locks go with the process, not the descriptor).
    public static func lockForWriting(_ fd: Int32) throws(Errno) {
        var lock = wholeFileWriteLock()
        _ = try retryingInterrupts("fcntl(F_SETLK)") { fcntl(fd, F_SETLK, &lock) }
    }

    /// fcntl(F_GETLK): the process that holds a lock conflicting with a write lock on the whole
    /// file, or nil when nothing does.
    public static func writeLockHolder(_ fd: Int32) throws(Errno) -> LockHolder? {
        var lock = wholeFileWriteLock()
        _ = try retryingInterrupts("fcntl(F_GETLK)") { fcntl(fd, F_GETLK, &lock) }
        return lock.l_type == Int16(F_UNLCK) ? nil : LockHolder(pid: lock.l_pid)
    }

    /// A write lock from the first byte to the end of the file, however long it grows.
    private static func wholeFileWriteLock() -> flock {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }
}
