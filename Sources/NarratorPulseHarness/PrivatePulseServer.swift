import Foundation
import NarratorBase
import NarratorSystem
import Synchronization

/// Why a private sound server could not be started.
public enum PulseHarnessError: Error, Sendable, CustomStringConvertible {
    case spawnFailed(Errno)
    /// The server did not answer `pactl info` in time; `log` is the end of its log.
    case notReady(log: String)

    public var description: String {
        switch self {
        case .spawnFailed(let error): "could not start a sound server or pulse tool: \(error)"
        case .notReady(let log): "the private sound server did not become ready; its log ends with:\n\(log)"
        }
    }
}

/// A private PulseAudio server with a null sink, for tests and benchmarks on machines without sound.
///
/// Everything lives in one temporary directory: the socket, `HOME`, the runtime directory, a
/// client.conf with `autospawn = no` (so that no tool starts a server of its own), and the server's
/// log. Children are ``ChildProcess``es (clean signal mask, no inherited descriptors) and are
/// stopped with SIGKILL and reaped, so a stop never waits on a child that ignores SIGTERM. The sink
/// runs at eSpeak NG's format (22050 Hz mono), and a silent low-latency stream keeps it at low
/// latency as a hardware sink would be; without it a new stream's first write can wait up to 2 s.
/// `module-suspend-on-idle` suspends the sink 1 s after its last stream (and recorder) is gone, as
/// a desktop's server does after 5 s; the silent stream keeps it from ever suspending, so a test
/// of suspension starts the server without it (`keepSinkAwake: false`).
public final class PrivatePulseServer: SoundServer {
    public static let tools = ["/usr/bin/pulseaudio", "/usr/bin/pactl", "/usr/bin/pacat", "/usr/bin/parec"]
    /// Whether pulseaudio and pulseaudio-utils are installed (`make test-deps` installs them).
    public static var isInstalled: Bool {
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public let kind = SoundServerKind.pulseaudio
    public let directory: String
    public let keepSinkAwake: Bool
    public let sinkName = "narrator_test"
    public let sampleRate = 22_050
    public var socket: String { directory + "/native" }
    public var clientConfig: String { directory + "/client.conf" }
    public var serverLog: String { directory + "/server.log" }
    private let children = Mutex<[ChildProcess]>([])
    /// The server process, while it runs.
    private let server = Mutex<ChildProcess?>(nil)

    /// Where the sink writes what it plays, when it is a pipe sink rather than a null sink.
    public let pipe: String?

    /// - Parameter pipeSink: make the sink `module-pipe-sink`, which writes what it plays (in real
    ///   time, on the system clock) to a FIFO at this path, so that it can be heard without a
    ///   recording client: a recorder on a null sink's monitor keeps the sink from suspending.
    public init(keepSinkAwake: Bool = true, pipeSink: String? = nil) {
        self.keepSinkAwake = keepSinkAwake
        pipe = pipeSink
        directory = NSTemporaryDirectory() + "narrator-pulse-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: clientConfig, contents: Data("autospawn = no\n".utf8))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The environment that points libpulse and the pulse tools at this server only.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:" + socket
        environment["PULSE_CLIENTCONFIG"] = clientConfig
        environment["PULSE_RUNTIME_PATH"] = directory
        environment["PULSE_STATE_PATH"] = directory
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory
        environment["XDG_CONFIG_HOME"] = directory + "/.config"
        return environment
    }

    /// Starts the server (headless, as root or not) and waits (up to 30 s) until it answers.
    public func start() throws(PulseHarnessError) {
        unlink(socket)  // a server killed earlier leaves its socket file behind
        let server = try spawn("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--system=no",
            "--use-pid-file=no", "--log-target=stderr", "--log-level=notice",
            "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            "-L", pipe.map { "module-pipe-sink sink_name=\(sinkName) file=\($0) format=s16le rate=\(sampleRate) channels=1 use_system_clock_for_timing=yes" }
                ?? "module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=1",
            "-L", "module-always-sink",
            "-L", "module-suspend-on-idle timeout=1",
        ], error: serverLog)
        self.server.withLock { $0 = server }
        let deadline = MonotonicClock.now() + .seconds(30)
        var ready = false
        while !ready && MonotonicClock.now() < deadline {
            if (try? server.poll()) ?? nil != nil { break }
            let probe = try spawn("/usr/bin/pactl", ["info"])
            ready = (try? probe.wait(timeout: .seconds(10))) == .exited(0)
            if !ready { usleep(50_000) }
        }
        guard ready else {
            stop()
            let log = (try? String(contentsOfFile: serverLog, encoding: .utf8)) ?? ""
            throw .notReady(log: String(log.suffix(2_000)))
        }
        guard keepSinkAwake else { return }
        _ = try spawn("/usr/bin/pacat", [
            "--playback", "--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=1",
            "--latency-msec=20", "/dev/zero",
        ])
    }

    public var serverProcesses: [pid_t] {
        server.withLock { $0.map { [$0.pid] } ?? [] }
    }

    /// Freezes the server (SIGSTOP), as a hung sound server: its clients' calls wait on it.
    public func freeze() throws(Errno) {
        try server.withLock { $0 }?.send(SIGSTOP)
    }

    /// Lets a frozen server go on (SIGCONT).
    public func thaw() throws(Errno) {
        try server.withLock { $0 }?.send(SIGCONT)
    }

    /// Kills every child this server started (server, keep-alive stream, recorders) and reaps them.
    /// A frozen server is killed just the same (SIGKILL needs no cooperation).
    public func stop() {
        server.withLock { $0 = nil }
        let running = children.withLock { children in
            defer { children.removeAll() }
            return children
        }
        // Recorders and players first, so that they do not log a lost server.
        for child in running.reversed() {
            _ = try? child.kill()
        }
    }

    /// Starts `parec` on the sink's monitor, recording raw mono s16le to the file `path`.
    /// A file, not a pipe: the test reads what has arrived so far without waiting for end of file.
    public func record(to path: String) throws(PulseHarnessError) -> ChildProcess {
        try spawn("/usr/bin/parec", [
            "--device=\(sinkName).monitor", "--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=1",
            "--latency-msec=20", "--file-format=raw", path,
        ])
    }

    /// Samples recorded so far in a raw s16le file.
    public static func samples(in path: String) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    public func run(_ tool: String, _ arguments: [String], output: String) throws(PulseHarnessError) -> ChildProcess {
        try spawn(tool, arguments, output: output)
    }

    private func spawn(_ path: String, _ arguments: [String], output: String = "/dev/null", error: String = "/dev/null") throws(PulseHarnessError) -> ChildProcess {
        do {
            let child = try ChildProcess(path, arguments, environment: environment, output: output, error: error)
            children.withLock { $0.append(child) }
            return child
        } catch {
            throw .spawnFailed(error)
        }
    }
}
