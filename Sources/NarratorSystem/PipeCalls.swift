import CNarratorSystem
import Glibc

extension Syscall {
    /// pipe2(2) with O_CLOEXEC: a pipe whose ends no child inherits unless it is handed them as
    /// its standard streams (posix_spawn's dup2 clears the flag on the copy). Each end is closed
    /// with the value unless taken.
    public static func pipe() throws(Errno) -> PipeEnds {
        var ends: [Int32] = [-1, -1]
        _ = try retryingInterrupts("pipe2") { narrator_pipe2(&ends, O_CLOEXEC) }
        return PipeEnds(read: OwnedDescriptor(ends[0]), write: OwnedDescriptor(ends[1]))
    }

    /// Blocks `signal` for the calling thread only. A thread that writes to a child's pipe
    /// blocks SIGPIPE, so that a child that died makes its write fail with EPIPE instead of
    /// killing the whole process; the signal stays pending on that thread alone.
    public static func blockSignalOnThisThread(_ signal: Int32) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        let code = pthread_sigmask(SIG_BLOCK, &set, nil)
        if code != 0 { throw Errno(code: code, syscall: "pthread_sigmask") }
    }
}
