import CNarratorSystem
import Glibc

extension Syscall {
    /// read(2) into `buffer`; 0 means end of file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// write(2) from `bytes`; may write fewer bytes than given.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts("write") { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// close(2). Not retried: on Linux the descriptor is released even when close reports EINTR,
    /// and a retry could close a descriptor another thread has just been given.
    public static func close(_ fd: Int32) throws(Errno) {
        if Glibc.close(fd) == -1 {
            let code = errno
            if code != EINTR { throw Errno(code: code, syscall: "close") }
        }
    }

    /// poll(2) on a single descriptor; returns its `revents` (0 on timeout).
    public static func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) throws(Errno) -> Int16 {
        var entries = [pollfd(fd: fd, events: events, revents: 0)]
        _ = try poll(&entries, timeoutMilliseconds: timeoutMilliseconds)
        return entries[0].revents
    }

    /// poll(2) on many descriptors; returns how many have events. An interrupted poll returns 0
    /// so that the caller recomputes its timeout instead of sleeping for the old one again.
    public static func poll(_ entries: inout [pollfd], timeoutMilliseconds: Int32) throws(Errno) -> Int {
        let result = entries.withUnsafeMutableBufferPointer { buffer in
            Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
        }
        if result >= 0 { return Int(result) }
        let code = errno
        if code == EINTR { return 0 }
        throw Errno(code: code, syscall: "poll")
    }

    /// eventfd(2), non-blocking and close-on-exec: the loop's wake-up counter.
    public static func eventFD() throws(Errno) -> Int32 {
        try retryingInterrupts("eventfd") { narrator_eventfd(0, O_CLOEXEC | O_NONBLOCK) }
    }

    /// Adds 1 to an eventfd counter, waking whoever polls it. A full counter (EAGAIN) already
    /// means "wake up", so it is not an error.
    public static func signalEventFD(_ fd: Int32) throws(Errno) {
        var one: UInt64 = 1
        do {
            _ = try withUnsafeBytes(of: &one) { (bytes) throws(Errno) -> Int in try write(fd, bytes) }
        } catch where error.isWouldBlock {
            return
        }
    }

    /// Resets an eventfd counter to zero; returns whether it had been signalled.
    @discardableResult
    public static func drainEventFD(_ fd: Int32) throws(Errno) -> Bool {
        var value: UInt64 = 0
        do {
            _ = try withUnsafeMutableBytes(of: &value) { (bytes) throws(Errno) -> Int in try read(fd, into: bytes) }
            return value > 0
        } catch where error.isWouldBlock {
            return false
        }
    }

    /// fcntl(F_GETFL/F_SETFL) to turn O_NONBLOCK on or off.
    public static func setNonBlocking(_ fd: Int32, _ enabled: Bool) throws(Errno) {
        let flags = try retryingInterrupts("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        let wanted = enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags {
            _ = try retryingInterrupts("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, wanted) }
        }
    }

    /// fcntl(F_SETFD, FD_CLOEXEC): for descriptors we inherit (socket activation) rather than create.
    public static func setCloseOnExec(_ fd: Int32) throws(Errno) {
        let flags = try retryingInterrupts("fcntl(F_GETFD)") { fcntl(fd, F_GETFD) }
        if flags & FD_CLOEXEC == 0 {
            _ = try retryingInterrupts("fcntl(F_SETFD)") { fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// setfsuid(2) for the calling thread only; returns the previous file-system uid. Tests use it
    /// to act as another user on a dedicated thread without forking.
    static func setFileSystemUID(_ uid: uid_t) -> uid_t {
        uid_t(bitPattern: narrator_setfsuid(uid))
    }

    /// The kernel id of the calling thread, to tell the loop thread apart from others.
    public static func currentThreadID() -> pid_t {
        narrator_gettid()
    }
}
