import Foundation
import NarratorModel
import NarratorPulseHarness
import NarratorSystem
import NarratorTestSupport
import Testing

/// Real Speech Dispatcher clients (spd-say, python3-speechd, Orca) against narratord's SSIP server.
///
/// The clients are driven by the scripts in Tests/Helpers/ssip (run with /usr/bin/python3, which
/// has Debian's `speechd` and `gi` modules), which print JSON lines; these tests read them.
///
/// They run with every `make test` (which installs the clients); a test whose client is missing is
/// skipped saying which package to install.
///
/// Switch (environment):
/// - `NARRATOR_SSIP_SERVER=speech-dispatcher` runs the same tests against Debian's real
///   speech-dispatcher (Tests/Helpers/ssip/reference_server.py) instead of narratord: how the harness
///   was proven, and a way to tell a harness fault from a server fault.
enum SSIPTests {
    static var againstSpeechDispatcher: Bool { ProcessInfo.processInfo.environment["NARRATOR_SSIP_SERVER"] == "speech-dispatcher" }

    static let python = "/usr/bin/python3"
    static let helpers = BuiltProducts.repository + "/Tests/Helpers/ssip"
    static let spdSay = "/usr/bin/spd-say"

    static func installed(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// python3-speechd, for Debian's /usr/bin/python3 (not the first python3 on PATH).
    static let hasPythonSpeechd: Bool = {
        guard installed(python) else { return false }
        return (try? CompletedRun.run(python, ["-c", "import speechd"], timeout: .seconds(20)).status) == 0
    }()

    /// Orca and the headless desktop it needs (Tests/Helpers/ssip/orca_session.py lists them).
    static let hasOrcaDesktop: Bool = {
        ["/usr/bin/orca", "/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/zenity", "/usr/bin/dbus-daemon",
         "/usr/libexec/at-spi-bus-launcher", "/usr/libexec/at-spi2-registryd"].allSatisfy(installed) && hasPythonSpeechd
    }()

    /// Runs a helper script to completion (killed at `timeout`) and parses its JSON lines.
    static func script(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration
    ) throws -> (run: CompletedRun, lines: [JSONValue]) {
        var environment = environment ?? ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment.removeValue(forKey: "PYTHONPATH")
        environment.removeValue(forKey: "PYTHONHOME")
        let run = try CompletedRun.run(python, [helpers + "/" + name] + arguments, environment: environment, timeout: timeout)
        let lines = run.lines.compactMap { try? JSONParser().parse($0) }
        return (run, lines)
    }

    /// The line a helper ends with: `{"kind": "result"|"summary", ...}`.
    static func final(_ lines: [JSONValue], kind: String = "result") -> JSONValue? {
        lines.last { $0["kind"] == .string(kind) }
    }
}

/// An SSIP server for one test: narratord with `--ssip` (its JSON socket beside it), or, with
/// `NARRATOR_SSIP_SERVER=speech-dispatcher`, Debian's real speech-dispatcher.
final class SSIPServer {
    /// narratord, when that is the server.
    let daemon: DaemonHarness?
    /// The SSIP socket, and the address clients are given (`SPEECHD_ADDRESS`).
    let socket: String
    var address: String { "unix_socket:" + socket }
    /// The PulseAudio server the speech plays into, when the test records it.
    let pulse: PrivatePulseServer?
    private let reference: ChildProcess?
    private let directory: String

    /// - Parameters:
    ///   - recorded: plays into a private PulseAudio server (`--audio pulse`) so that the
    ///     test can record the sink; otherwise `--audio null` (real synthesis, no sound).
    ///   - speechDispatcher: the real speech-dispatcher instead of narratord (by default with
    ///     `NARRATOR_SSIP_SERVER=speech-dispatcher`), for a test that compares the two.
    init(recorded: Bool = false, speechDispatcher: Bool = SSIPTests.againstSpeechDispatcher) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-ssip-\(UUID().uuidString.prefix(8))").path
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        var reference: ChildProcess?
        do {
            (daemon, socket, pulse) = try Self.start(in: directory, recorded: recorded, speechDispatcher: speechDispatcher, reference: &reference)
            self.reference = reference
        } catch {
            // A server that did not come up leaves nothing behind: deinit does not run for a failed init.
            if let reference {
                try? reference.send(SIGTERM)
                _ = try? reference.wait(timeout: .seconds(10))
            }
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private static func start(
        in directory: String, recorded: Bool, speechDispatcher: Bool, reference: inout ChildProcess?
    ) throws -> (DaemonHarness?, String, PrivatePulseServer?) {
        var pulse: PrivatePulseServer?
        if recorded || speechDispatcher {
            let server = PrivatePulseServer()
            try server.start()
            pulse = server
        }
        if speechDispatcher, let pulse {
            let output = directory + "/reference.out"
            reference = try ChildProcess(
                SSIPTests.python, [SSIPTests.helpers + "/reference_server.py", "--until-signal", "--lifetime", "600",
                                   "--pulse-server", "unix:" + pulse.socket],
                environment: pulse.environment, output: output, error: directory + "/reference.err")
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let text = try? String(contentsOfFile: output, encoding: .utf8), let line = text.split(separator: "\n").first,
                   let object = try? JSONParser().parse(String(line)) {
                    guard case .string(let path)? = object["ssip_socket"] else {
                        throw DaemonHarness.HarnessError(message: "reference_server.py: \(line)")
                    }
                    return (nil, path, pulse)
                }
                usleep(50_000)
            }
            throw DaemonHarness.HarnessError(message: "speech-dispatcher did not start")
        }
        let socket = directory + "/ssip.sock"
        let arguments = ["--ssip", socket]
        let daemon: DaemonHarness
        if let pulse {
            daemon = try DaemonHarness(audio: "pulse", environment: pulse.environment, extraArguments: arguments)
        } else {
            daemon = try DaemonHarness(extraArguments: arguments)
        }
        try waitForSocket(socket, daemon: daemon)
        return (daemon, socket, pulse)
    }

    deinit {
        if let reference {
            try? reference.send(SIGTERM)  // its own cleanup stops speech-dispatcher and removes its directory
            _ = try? reference.wait(timeout: .seconds(10))
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Waits until the SSIP socket accepts (narratord opens it after its JSON socket).
    static func waitForSocket(_ path: String, daemon: DaemonHarness, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let client = try? UnixClient(connectingTo: path) {
                client.close()
                return
            }
            usleep(20_000)
        }
        throw DaemonHarness.HarnessError(message: "narratord did not open its SSIP socket \(path): \(daemon.log)")
    }

    /// The environment a client is started with: this server only, never an autospawned one.
    var clientEnvironment: [String: String] {
        var environment = pulse?.environment ?? ProcessInfo.processInfo.environment
        environment["SPEECHD_ADDRESS"] = address
        environment["SPEECHD_CMD"] = "/bin/false"
        return environment
    }

    /// The utterances narratord logged for clients whose name contains `client`
    /// (`narratorctl --json log`; client names are SSIP's `user:application:component`).
    /// Empty against speech-dispatcher, which keeps no such log.
    func logged(client: String, timeout: TimeInterval = 10, until done: ([JSONValue]) -> Bool = { !$0.isEmpty }) throws -> [JSONValue] {
        guard let daemon else { return [] }
        let database = daemon.directory + "/state/narrator.db"
        let deadline = Date().addingTimeInterval(timeout)
        var rows: [JSONValue] = []
        repeat {
            let run = try daemon.ctl("--json", "log", "--db", database)
            if run.status == 0, case .array(let all)? = try? JSONParser().parse(run.stdout) {
                rows = all.filter {
                    guard case .string(let name)? = $0["client"]?["name"] else { return false }
                    return name.contains(client)
                }
                if done(rows) { return rows }
            }
            usleep(100_000)
        } while Date() < deadline
        return rows
    }
}

/// Every SSIP client suite, one test at a time: each starts its own server, and Orca's desktop
/// with two speech servers on a loaded machine would measure the machine, not the server.
@Suite(.serialized)
struct SSIPClientTests {}
