import Foundation
import NarratorCommandLine
import NarratorCore

/// What SIGHUP does with the configuration file: reads it again (with the command line over it,
/// as at start-up) and says what changed.
struct ConfigurationReload {
    let arguments: [String]
    let environment: [String: String]
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
        var restart: [String] = []
        if next.socket != current.socket { restart.append("socket") }
        if next.audio != current.audio { restart.append("audio") }
        if next.stateDirectory != current.stateDirectory { restart.append("state-dir") }
        if next.espeakData != current.espeakData { restart.append("espeak-data") }
        if next.maxMessageBytes != current.maxMessageBytes { restart.append("max-message") }
        if next.limits != current.limits { restart.append("limits") }
        if next.database != current.database { restart.append("db") }
        if next.policy != current.policy || next.treePolicies != current.treePolicies { restart.append("policy") }
        current = next
        return .success(Changes(path: next.configPath, logLevel: next.logLevel, settings: settings, needRestart: restart))
    }
}
