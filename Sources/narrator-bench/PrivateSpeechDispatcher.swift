import Foundation
import NarratorBase
import NarratorPulseHarness
import NarratorSystem

/// A private Speech Dispatcher (Debian's package) in the foreground, on its own socket and
/// configuration, with one output module (eSpeak NG's unless told) playing into a private
/// PulseAudio server. It never touches the user's own instance: autospawn is off and nothing is
/// read from ~/.config.
final class PrivateSpeechDispatcher {
    static let server = "/usr/bin/speech-dispatcher"
    static let moduleDirectory = "/usr/lib/speech-dispatcher-modules"

    /// An output module of Debian's: its name in the configuration, its binary and its package.
    struct Module {
        var name: String
        var binary: String
        var package: String

        static let espeak = Module(name: "espeak-ng", binary: "sd_espeak-ng", package: "speech-dispatcher-espeak-ng")
        static let flite = Module(name: "flite", binary: "sd_flite", package: "speech-dispatcher-flite")

        var path: String { PrivateSpeechDispatcher.moduleDirectory + "/" + binary }
        var systemConfig: String { "/etc/speech-dispatcher/modules/\(name).conf" }
    }

    /// Why it could not be used here with eSpeak NG's module; nil when both are installed.
    static var missing: String? { missing(.espeak) }

    /// Why it could not be used here with `module`; nil when both are installed.
    static func missing(_ module: Module) -> String? {
        if !FileManager.default.isExecutableFile(atPath: server) { return "\(server) is not installed (apt-get install speech-dispatcher)" }
        if !FileManager.default.isExecutableFile(atPath: module.path) {
            return "\(module.path) is not installed (apt-get install \(module.package))"
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let directory: String
    let socket: String
    let log: String
    private let process: ChildProcess

    init(pulse: PrivatePulseServer, directory: String, module: Module = .espeak) throws {
        self.directory = directory
        socket = directory + "/speechd.sock"
        log = directory + "/speech-dispatcher.stderr"
        let config = directory + "/config"
        try FileManager.default.createDirectory(atPath: config + "/modules", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/runtime", withIntermediateDirectories: true)
        let moduleConfig = (try? String(contentsOfFile: module.systemConfig, encoding: .utf8)) ?? ""
        try moduleConfig.write(toFile: config + "/modules/\(module.name).conf", atomically: true, encoding: .utf8)
        // Errors only in its log, as narratord runs at --log-level warning: logging is not what is measured.
        let settings = """
            CommunicationMethod "unix_socket"
            SocketPath "\(socket)"
            Timeout 0
            LogLevel 1
            LogDir "\(directory)"
            AudioOutputMethod "pulse"
            AddModule "\(module.name)" "\(module.binary)" "\(module.name).conf"
            DefaultModule \(module.name)
            DisableAutoSpawn

            """
        try settings.write(toFile: config + "/speechd.conf", atomically: true, encoding: .utf8)

        var environment = pulse.environment
        environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
        environment["XDG_CONFIG_HOME"] = directory + "/xdg-config"
        process = try ChildProcess(
            Self.server,
            ["--run-single", "--config-dir", config, "--module-dir", Self.moduleDirectory,
             "--communication-method", "unix_socket", "--socket-path", socket, "--timeout", "0", "--log-dir", directory],
            environment: environment, output: directory + "/speech-dispatcher.stdout", error: log)
        let deadline = Clock.now() + 20
        while Clock.now() < deadline {
            if let ended = try process.poll() { throw Failure(description: "speech-dispatcher \(ended) at start-up; see \(log)") }
            if (try? SSIPConnection(path: socket, server: "speech-dispatcher")) != nil { return }
            usleep(20_000)
        }
        stop()
        throw Failure(description: "speech-dispatcher did not open \(socket) within 20 s; see \(log)")
    }

    deinit { stop() }

    /// Kills the server, then its output modules, which this process adopted when the server died
    /// if it is a subreaper (`Syscall.becomeChildSubreaper`), so that they are reaped here.
    func stop() {
        guard (try? process.poll()) ?? nil == nil else { return }
        let modules = self.modules
        _ = try? process.kill()
        // Without a subreaper the module is still killed; only the reaping is left to init (ECHILD here).
        for module in modules { try? Syscall.killAndReap(module) }
    }

    /// The server's process id.
    var pid: Int32 { process.pid }

    /// The output modules it started (sd_espeak-ng, sd_flite), which synthesize and play in processes of their own.
    var modules: [Int32] { ProcessActivity.children(of: process.pid) }
}
