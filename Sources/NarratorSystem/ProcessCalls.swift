import CNarratorSystem
import Glibc

extension Syscall {
    /// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER).
    /// A helper that starts processes of its own (speech-dispatcher's output modules) leaves them
    /// orphaned when it is killed; without this they go to an init that may never reap them.
    public static func becomeChildSubreaper() throws(Errno) {
        if narrator_set_child_subreaper() == -1 { throw Errno.current("prctl(PR_SET_CHILD_SUBREAPER)") }
    }

    /// Replaces this process with a fresh run of the program at `path` with `arguments` (the
    /// first is its name), keeping the environment: a start from scratch for a library that
    /// cannot be initialized twice. Returns only when it failed.
    public static func replaceProcess(with path: String, arguments: [String]) -> Errno {
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        _ = execv(path, pointers)
        return Errno.current("execv \(path)")
    }

    /// Gives the calling thread the scheduling niceness `nice` (0 is the default, 19 the
    /// lowest priority), so that its long computations yield to the process's other threads.
    public static func setCurrentThreadNiceness(_ nice: Int32) throws(Errno) {
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(currentThreadID()), nice) == -1 {
            throw Errno.current("setpriority")
        }
    }

    /// SIGKILLs `pid`, a child of this process (or an orphan it adopted as a subreaper), and reaps
    /// it. A process that has already gone is not an error.
    public static func killAndReap(_ pid: pid_t) throws(Errno) {
        if Glibc.kill(pid, SIGKILL) == -1 {
            if errno == ESRCH { return }
            throw Errno.current("kill")
        }
        var status: Int32 = 0
        _ = try retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
    }
}
