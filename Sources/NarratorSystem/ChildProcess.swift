import CNarratorSystem
import Glibc
import NarratorBase
import Synchronization

/// How a child process ended.
public enum ChildTermination: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }
}

/// A child started with posix_spawn, owned and reaped by whoever holds this value.
///
/// Foundation's `Process` is not used for long-lived helpers (sound servers, recorders) because,
/// measured in a test process: its children inherit the spawning thread's signal mask (a libdispatch
/// worker blocks SIGTERM and SIGCHLD, so `terminate()` never arrives), they inherit every descriptor
/// that was opened without O_CLOEXEC (so a pipe elsewhere in the process never sees end of file), and
/// a child that closes its inherited descriptors (pulseaudio does) makes Foundation call a blocking
/// `waitpid` on its only monitoring thread, which then stalls every other `Process` in the process.
/// Here the child starts with an empty signal mask and default dispositions, its standard streams
/// are the files (or the parent's descriptors) given, every other descriptor is closed, and the
/// parent reaps it with `waitpid`.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let path: String
    private let termination = Mutex<ChildTermination?>(nil)

    /// Starts `path` with `arguments` (without argv[0]) and exactly `environment`.
    ///
    /// - Parameters:
    ///   - input, output, error: files opened for the child's descriptors 0, 1 and 2
    ///     (`output` and `error` are created or truncated).
    public convenience init(
        _ path: String, _ arguments: [String], environment: [String: String],
        input: String = "/dev/null", output: String = "/dev/null", error: String = "/dev/null"
    ) throws(Errno) {
        let pid = try Self.spawn(path, arguments, environment: environment) { actions in
            var code = posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
            if code == 0 { code = posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            if code == 0 { code = posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            return code
        }
        self.init(pid: pid, path: path)
    }

    /// Starts `path` with `arguments` and exactly `environment`, its descriptors 0, 1 and 2
    /// copies of the parent's `input`, `output` and `error` (the parent keeps and closes its own).
    public convenience init(
        _ path: String, _ arguments: [String], environment: [String: String],
        inputDescriptor input: Int32, outputDescriptor output: Int32, errorDescriptor error: Int32
    ) throws(Errno) {
        let pid = try Self.spawn(path, arguments, environment: environment) { actions in
            var code = posix_spawn_file_actions_adddup2(&actions, input, 0)
            if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, output, 1) }
            if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, error, 2) }
            return code
        }
        self.init(pid: pid, path: path)
    }

    private init(pid: pid_t, path: String) {
        self.pid = pid
        self.path = path
    }

    /// posix_spawn(3) with the standard streams `streams` adds, every other descriptor closed,
    /// an empty signal mask and default dispositions.
    private static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String],
        streams: (inout posix_spawn_file_actions_t) -> Int32
    ) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var code = streams(&actions)
        if code == 0 { code = narrator_spawn_addclosefrom(&actions, 3) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &empty) }
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &all) }
        if code == 0 { code = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) }
        guard code == 0 else { throw Errno(code: code, syscall: "posix_spawn_file_actions") }

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        code = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard code == 0 else { throw Errno(code: code, syscall: "posix_spawn \(path)") }
        return child
    }

    /// Sends `signal` to the child (nothing once it has been reaped).
    public func send(_ signal: Int32) throws(Errno) {
        try termination.withLock { (ended: inout ChildTermination?) throws(Errno) in
            guard ended == nil else { return }
            if Glibc.kill(pid, signal) == -1 { throw Errno.current("kill") }
        }
    }

    /// How the child ended, without waiting; nil while it runs.
    public func poll() throws(Errno) -> ChildTermination? {
        try termination.withLock { (ended: inout ChildTermination?) throws(Errno) -> ChildTermination? in
            if ended == nil { ended = try Self.reap(pid, options: WNOHANG) }
            return ended
        }
    }

    /// Waits for the child to end. Polls (every 5 ms) rather than blocking in waitpid while
    /// holding the state, so that another thread can still signal the child meanwhile.
    @discardableResult
    public func wait() throws(Errno) -> ChildTermination {
        while true {
            if let ended = try poll() { return ended }
            usleep(5_000)
        }
    }

    /// Waits up to `timeout` for the child to end by itself, then kills it (SIGKILL cannot be
    /// blocked or ignored) and reaps it.
    @discardableResult
    public func wait(timeout: Duration) throws(Errno) -> ChildTermination {
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline {
            if let ended = try poll() { return ended }
            usleep(10_000)
        }
        return try kill()
    }

    /// SIGKILL and reap.
    @discardableResult
    public func kill() throws(Errno) -> ChildTermination {
        try send(SIGKILL)
        return try wait()
    }

    deinit {
        _ = try? kill()
    }

    /// waitpid(2); nil when WNOHANG found the child still running.
    private static func reap(_ pid: pid_t, options: Int32) throws(Errno) -> ChildTermination? {
        var status: Int32 = 0
        let result = try retryingInterrupts("waitpid") { waitpid(pid, &status, options) }
        if result == 0 { return nil }
        // The <sys/wait.h> macros are not imported: low 7 bits are the signal, 0 for a normal exit.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
