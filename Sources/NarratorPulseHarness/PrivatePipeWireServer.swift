import Foundation
import NarratorBase
import NarratorSystem
import Synchronization

/// A private PipeWire server with its session manager and pulse server, as Debian 12's GNOME and
/// KDE run it (pipewire, wireplumber, pipewire-pulse), with a null sink, for tests on machines
/// without sound.
///
/// Everything lives in one temporary directory, which is also `XDG_RUNTIME_DIR`, `HOME` and the
/// configuration and state homes, so that nothing of the machine's own user session is read or
/// touched. WirePlumber 0.4 will not run without a D-Bus session bus (it exits with "disconnected
/// from pipewire" when it cannot connect to one), so the server gets a private `dbus-daemon
/// --session` too. The null sink is a `support.null-audio-sink` node declared in a drop-in of
/// pipewire.conf, mono at the graph's rate (48 kHz, as on a desktop), with
/// `session.suspend-timeout-seconds = 1`: WirePlumber suspends it 1 s after it falls idle (5 s
/// by default). Recordings go through pipewire-pulse with `parec` on the sink's monitor, at 22050 Hz.
public final class PrivatePipeWireServer: SoundServer {
    public static let tools = [
        "/usr/bin/pipewire", "/usr/bin/pipewire-pulse", "/usr/bin/wireplumber", "/usr/bin/dbus-daemon",
        "/usr/bin/pactl", "/usr/bin/pacat", "/usr/bin/parec",
    ]
    /// Whether pipewire, pipewire-pulse, wireplumber, dbus and pulseaudio-utils are installed.
    public static var isInstalled: Bool {
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public let kind = SoundServerKind.pipewire
    public let directory: String
    public let keepSinkAwake: Bool
    public let sinkName = "narrator_test"
    public let sampleRate = 22_050
    public var runtimeDirectory: String { directory + "/run" }
    public var socket: String { runtimeDirectory + "/pulse/native" }
    public var bus: String { runtimeDirectory + "/bus" }
    public var clientConfig: String { directory + "/client.conf" }
    private let children = Mutex<[ChildProcess]>([])
    /// pipewire and pipewire-pulse, which a freeze stops.
    private let servers = Mutex<[ChildProcess]>([])

    public init(keepSinkAwake: Bool = true) {
        self.keepSinkAwake = keepSinkAwake
        directory = NSTemporaryDirectory() + "narrator-pipewire-\(UUID().uuidString.prefix(8))"
        let fileManager = FileManager.default
        for sub in ["/run", "/config/pipewire/pipewire.conf.d", "/state"] {
            try? fileManager.createDirectory(atPath: directory + sub, withIntermediateDirectories: true)
        }
        chmod(directory + "/run", 0o700)
        _ = fileManager.createFile(atPath: clientConfig, contents: Data("autospawn = no\n".utf8))
        _ = fileManager.createFile(atPath: directory + "/config/pipewire/pipewire.conf.d/narrator-test.conf", contents: Data("""
            context.objects = [
                { factory = adapter
                    args = {
                        factory.name     = support.null-audio-sink
                        node.name        = \(sinkName)
                        node.description = "Narrator test sink"
                        media.class      = Audio/Sink
                        audio.position   = [ MONO ]
                        session.suspend-timeout-seconds = 1
                    }
                }
            ]

            """.utf8))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:" + socket
        environment["PULSE_CLIENTCONFIG"] = clientConfig
        environment["PULSE_RUNTIME_PATH"] = runtimeDirectory + "/pulse"
        environment["PULSE_STATE_PATH"] = directory + "/state"
        environment["PIPEWIRE_RUNTIME_DIR"] = runtimeDirectory
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = directory
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_STATE_HOME"] = directory + "/state"
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + bus
        environment.removeValue(forKey: "PIPEWIRE_REMOTE")
        environment.removeValue(forKey: "DISPLAY")
        return environment
    }

    /// Starts the bus, pipewire, wireplumber and pipewire-pulse, and waits (up to 30 s) until the
    /// pulse server lists the null sink.
    public func start() throws(PulseHarnessError) {
        // A server killed earlier leaves its sockets behind.
        for stale in [bus, runtimeDirectory + "/pipewire-0", runtimeDirectory + "/pipewire-0-manager", socket] {
            unlink(stale)
        }
        _ = try spawn("/usr/bin/dbus-daemon", ["--session", "--address=unix:path=\(bus)", "--nofork", "--nopidfile"], log: "dbus")
        let pipewire = try spawn("/usr/bin/pipewire", [], log: "pipewire")
        try waitFor(file: runtimeDirectory + "/pipewire-0")
        _ = try spawn("/usr/bin/wireplumber", [], log: "wireplumber")
        let pulse = try spawn("/usr/bin/pipewire-pulse", [], log: "pipewire-pulse")
        servers.withLock { $0 = [pipewire, pulse] }
        let deadline = MonotonicClock.now() + .seconds(30)
        while sinkState() == nil {
            guard MonotonicClock.now() < deadline else {
                stop()
                throw .notReady(log: logs())
            }
            usleep(50_000)
        }
        guard keepSinkAwake else { return }
        _ = try spawn("/usr/bin/pacat", [
            "--playback", "--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=1",
            "--latency-msec=20", "/dev/zero",
        ], log: nil)
    }

    public var serverProcesses: [pid_t] {
        children.withLock { $0.filter { ["/usr/bin/pipewire", "/usr/bin/pipewire-pulse", "/usr/bin/wireplumber"].contains($0.path) }.map(\.pid) }
    }

    /// Stops pipewire and pipewire-pulse (SIGSTOP): clients' calls wait on them.
    public func freeze() throws(Errno) {
        for server in servers.withLock({ $0 }) { try server.send(SIGSTOP) }
    }

    public func thaw() throws(Errno) {
        for server in servers.withLock({ $0 }) { try server.send(SIGCONT) }
    }

    /// Kills every process this server started, the tools first, and reaps them.
    public func stop() {
        servers.withLock { $0 = [] }
        let running = children.withLock { children in
            defer { children.removeAll() }
            return children
        }
        for child in running.reversed() {
            _ = try? child.kill()
        }
    }

    public func record(to path: String) throws(PulseHarnessError) -> ChildProcess {
        try run("/usr/bin/parec", [
            "--device=\(sinkName).monitor", "--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=1",
            "--latency-msec=20", "--file-format=raw", path,
        ], output: "/dev/null")
    }

    public func run(_ tool: String, _ arguments: [String], output: String) throws(PulseHarnessError) -> ChildProcess {
        do {
            let child = try ChildProcess(tool, arguments, environment: environment, output: output)
            children.withLock { $0.append(child) }
            return child
        } catch {
            throw .spawnFailed(error)
        }
    }

    private func spawn(_ path: String, _ arguments: [String], log: String?) throws(PulseHarnessError) -> ChildProcess {
        do {
            let logFile = log.map { directory + "/\($0).log" } ?? "/dev/null"
            let child = try ChildProcess(path, arguments, environment: environment, output: logFile, error: logFile)
            children.withLock { $0.append(child) }
            return child
        } catch {
            throw .spawnFailed(error)
        }
    }

    private func waitFor(file path: String) throws(PulseHarnessError) {
        let deadline = MonotonicClock.now() + .seconds(30)
        while access(path, F_OK) != 0 {
            guard MonotonicClock.now() < deadline else {
                stop()
                throw .notReady(log: logs())
            }
            usleep(20_000)
        }
    }

    /// The end of each process's log, for a server that did not come up.
    private func logs() -> String {
        ["dbus", "pipewire", "wireplumber", "pipewire-pulse"].map { name in
            let text = (try? String(contentsOfFile: directory + "/\(name).log", encoding: .utf8)) ?? ""
            return "\(name):\n" + String(text.suffix(600))
        }.joined(separator: "\n")
    }
}
