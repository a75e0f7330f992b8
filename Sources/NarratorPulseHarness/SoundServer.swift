import Foundation
import NarratorBase
import NarratorSystem

/// A private sound server that speaks PulseAudio's protocol, with a null sink whose monitor can be
/// recorded: PulseAudio itself (``PrivatePulseServer``) or PipeWire with its pulse server
/// (``PrivatePipeWireServer``), so that every sound test runs on what Debian's desktops run.
public protocol SoundServer: AnyObject, Sendable {
    /// "pulseaudio" or "pipewire", for test names and messages.
    var kind: SoundServerKind { get }
    /// The temporary directory everything of this server lives in.
    var directory: String { get }
    var sinkName: String { get }
    /// The rate recordings are made at (eSpeak NG's: 22050 Hz mono).
    var sampleRate: Int { get }
    /// The environment that points libpulse and the pulse tools at this server only.
    var environment: [String: String] { get }
    /// Starts the server and waits until `pactl info` answers.
    func start() throws(PulseHarnessError)
    /// Kills every process of the server (SIGKILL, as a crash) and the tools it started.
    func stop()
    /// The server's own processes (for PipeWire: pipewire, pipewire-pulse and wireplumber), to
    /// measure what they cost.
    var serverProcesses: [pid_t] { get }
    /// Freezes the server (SIGSTOP): its clients' calls wait on it.
    func freeze() throws(Errno)
    func thaw() throws(Errno)
    /// Starts `parec` on the sink's monitor, recording raw mono s16le to the file `path`.
    func record(to path: String) throws(PulseHarnessError) -> ChildProcess
    /// Runs a pulse tool (`pactl`, `pacat`) against this server; its output goes to `output`.
    func run(_ tool: String, _ arguments: [String], output: String) throws(PulseHarnessError) -> ChildProcess
}

/// The sound servers the tests run on.
public enum SoundServerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    case pulseaudio
    case pipewire

    public var description: String { rawValue }

    /// Whether this server and the pulse tools are installed (`make test-deps` installs both).
    public var isInstalled: Bool {
        switch self {
        case .pulseaudio: PrivatePulseServer.isInstalled
        case .pipewire: PrivatePipeWireServer.isInstalled
        }
    }

    /// The installed servers, for parameterized tests.
    public static var installed: [SoundServerKind] { allCases.filter(\.isInstalled) }

    /// A new, not yet started server of this kind. `keepSinkAwake`: play a silent low-latency
    /// stream all the time (see ``PrivatePulseServer``); a test of the sink's suspension needs none.
    public func make(keepSinkAwake: Bool = true) -> any SoundServer {
        switch self {
        case .pulseaudio: PrivatePulseServer(keepSinkAwake: keepSinkAwake)
        case .pipewire: PrivatePipeWireServer(keepSinkAwake: keepSinkAwake)
        }
    }
}

extension SoundServer {
    /// Points libpulse in this process (pcaudiolib's `pa_simple`) at this server, without autospawn.
    public func useInThisProcess() {
        setenv("PULSE_SERVER", environment["PULSE_SERVER"] ?? "", 1)
        setenv("PULSE_CLIENTCONFIG", environment["PULSE_CLIENTCONFIG"] ?? "", 1)
    }

    /// The sink's state as `pactl list sinks short` words it (`RUNNING`, `IDLE`, `SUSPENDED`), or
    /// nil when the server does not answer within 10 s.
    public func sinkState() -> String? {
        let listing = directory + "/sinks-\(UUID().uuidString.prefix(8)).txt"
        defer { unlink(listing) }
        guard let pactl = try? run("/usr/bin/pactl", ["list", "sinks", "short"], output: listing),
            (try? pactl.wait(timeout: .seconds(10))) == .exited(0),
            let text = try? String(contentsOfFile: listing, encoding: .utf8)
        else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count >= 5, fields[1] == sinkName { return String(fields[4]) }
        }
        return nil
    }

    /// Polls (every 100 ms) until the sink is in `state`; false if it still is not after `timeout`.
    public func waitForSink(_ state: String, timeout: Duration = .seconds(30)) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline {
            if sinkState() == state { return true }
            usleep(100_000)
        }
        return sinkState() == state
    }
}
