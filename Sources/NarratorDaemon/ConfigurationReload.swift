import NarratorBase
import NarratorCommandLine

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

    /// Whether a read is under way, and whether another SIGHUP came while it was.
    enum Reading: Equatable {
        case idle
        case reading(again: Bool)
    }
    private(set) var reading: Reading = .idle

    /// A SIGHUP: true when a read is to start now; false when one is still under way (a disk
    /// that does not answer), and it is read once more after that one finishes.
    mutating func hangup() -> Bool {
        guard case .idle = reading else {
            reading = .reading(again: true)
            return false
        }
        reading = .reading(again: false)
        return true
    }

    /// The file and command line read again: what changed, or why it was refused, and whether
    /// to read once more because of a SIGHUP that came while this read ran.
    mutating func finished(_ read: Result<DaemonOptions.Action, UsageError>) -> (changes: Result<Changes, UsageError>, readAgain: Bool) {
        let again = reading == .reading(again: true)
        reading = again ? .reading(again: false) : .idle
        return (apply(read), again)
    }

    /// Reads the configuration file (and the command line over it): the disk, so never on the loop.
    static func read(arguments: [String], environment: [String: String]) -> Result<DaemonOptions.Action, UsageError> {
        Result { () throws(UsageError) in try DaemonMain.readOptions(arguments, environment: environment) }
    }

    /// Reads and applies in one go, on the caller's thread (tests).
    mutating func reload() -> Result<Changes, UsageError> {
        apply(Self.read(arguments: arguments, environment: environment))
    }

    private mutating func apply(_ read: Result<DaemonOptions.Action, UsageError>) -> Result<Changes, UsageError> {
        let next: DaemonOptions
        switch read {
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
