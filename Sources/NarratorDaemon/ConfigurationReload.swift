import NarratorCommandLine
import NarratorCore

/// What SIGHUP does with the configuration file: reads it again (with the command line over it,
/// as at start-up) and says what changed.
struct ConfigurationReload {
    let arguments: [String]
    let environment: [String: String]
    /// The options the process started with: what needs a restart is compared with these, so a
    /// second reload still says the change is not in effect.
    let running: DaemonOptions
    /// The options as last read: what changes live (voice, rate, engine-idle) is compared with these.
    private(set) var current: DaemonOptions

    struct Changes {
        var path: String
        var logLevel: LogLevel
        /// Speech settings the file changed, as `set` would take them.
        var settings: [(key: String, value: String)]
        /// Options that changed but only take effect after a restart.
        var needRestart: [String]
    }

    init(arguments: [String], environment: [String: String], current: DaemonOptions) {
        self.arguments = arguments
        self.environment = environment
        self.running = current
        self.current = current
    }

    mutating func reload() -> Result<Changes, UsageError> {
        let next: DaemonOptions
        switch Result(catching: { () throws(UsageError) in try DaemonMain.readOptions(arguments, environment: environment) }) {
        case .success(.run(let parsed)): next = parsed
        case .success: return .success(Changes(path: current.configPath, logLevel: current.logLevel, settings: [], needRestart: []))
        case .failure(let error): return .failure(error)
        }
        var settings: [(key: String, value: String)] = []
        if next.voice != current.voice, let voice = next.voice { settings.append(("voice", voice)) }
        if next.rate != current.rate, let rate = next.rate { settings.append(("rate", String(rate))) }
        if next.engineIdle != current.engineIdle, let idle = next.engineIdle { settings.append(("engine-idle", String(idle))) }
        var restart: [String] = []
        if next.socket != running.socket { restart.append("socket") }
        if next.ssip != running.ssip { restart.append("ssip") }
        if next.audio != running.audio { restart.append("audio") }
        if next.stateDirectory != running.stateDirectory { restart.append("state-dir") }
        if next.espeakData != running.espeakData { restart.append("espeak-data") }
        if next.engines != running.engines { restart.append("engines") }
        if next.maxMessageBytes != running.maxMessageBytes { restart.append("max-message") }
        if next.limits != running.limits { restart.append("limits") }
        if next.database != running.database { restart.append("db") }
        if next.policy != running.policy || next.treePolicies != running.treePolicies { restart.append("policy") }
        current = next
        return .success(Changes(path: next.configPath, logLevel: next.logLevel, settings: settings, needRestart: restart))
    }
}
