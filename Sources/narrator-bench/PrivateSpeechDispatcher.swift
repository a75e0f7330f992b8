import Foundation
import NarratorPulseHarness
import NarratorSystem

/// A private Speech Dispatcher (Debian's package) in the foreground, on its own socket and
/// configuration, with the eSpeak NG module playing into a private PulseAudio server. It never
/// touches the user's own instance: autospawn is off and nothing is read from ~/.config.
final class PrivateSpeechDispatcher {
    static let server = "/usr/bin/speech-dispatcher"
    static let moduleDirectory = "/usr/lib/speech-dispatcher-modules"
    static let module = moduleDirectory + "/sd_espeak-ng"
    static let systemModuleConfig = "/etc/speech-dispatcher/modules/espeak-ng.conf"

    /// Why it could not be used here; nil when it is installed.
    static var missing: String? {
        if !FileManager.default.isExecutableFile(atPath: server) { return "\(server) is not installed (apt-get install speech-dispatcher)" }
        if !FileManager.default.isExecutableFile(atPath: module) {
            return "\(module) is not installed (apt-get install speech-dispatcher-espeak-ng)"
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let directory: String
    let socket: String
    let log: String
    private let process: ChildProcess

    init(pulse: PrivatePulseServer, directory: String) throws {
        self.directory = directory
        socket = directory + "/speechd.sock"
        log = directory + "/speech-dispatcher.stderr"
        let config = directory + "/config"
        try FileManager.default.createDirectory(atPath: config + "/modules", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/runtime", withIntermediateDirectories: true)
        let moduleConfig = (try? String(contentsOfFile: Self.systemModuleConfig, encoding: .utf8)) ?? ""
        try moduleConfig.write(toFile: config + "/modules/espeak-ng.conf", atomically: true, encoding: .utf8)
        // Errors only in its log, as narratord runs at --log-level warning: logging is not what is measured.
        let settings = """
            CommunicationMethod "unix_socket"
            SocketPath "\(socket)"
            Timeout 0
            LogLevel 1
            LogDir "\(directory)"
            AudioOutputMethod "pulse"
            AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
            DefaultModule espeak-ng
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

    /// The output modules it started (sd_espeak-ng), which synthesize and play in processes of their own.
    var modules: [Int32] { ProcessActivity.children(of: process.pid) }
}
