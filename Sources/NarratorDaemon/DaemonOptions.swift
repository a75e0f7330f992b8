import NarratorBase
import NarratorCommandLine
import NarratorCore

/// `narratord`'s command line, parsed purely from arguments and environment.
public struct DaemonOptions: Equatable, Sendable {
    /// `--socket PATH`; nil means `$NARRATOR_SOCKET`, then the runtime directory.
    public var socket: String?
    /// `--ssip PATH|auto|off`: where to serve Speech Dispatcher's protocol too (docs/ssip.md).
    public var ssip: SSIPListening = .off
    /// `--audio SPEC`: auto, pulse, null or wav:DIR.
    public var audio: String = "auto"
    /// `--voice NAME` and `--rate WPM` override the saved speech settings at start-up.
    public var voice: String?
    public var rate: Int?
    /// `--engine-idle SECONDS` overrides the saved `engine-idle` setting at start-up, as those do.
    public var engineIdle: Int?
    /// `--state-dir DIR`: where settings (and the log database) live;
    /// default `$XDG_STATE_HOME/narrator`, else `~/.local/state/narrator`.
    public var stateDirectory: String
    /// `--db PATH`: the SQLite log (used from the announcement issue on).
    public var database: String?
    /// `--policy NAME|FILE`: the announcement policy (none, default, strict, or a policy file).
    public var policy: String?
    /// `--tree-policy TREE=NAME|FILE` (repeatable): a tree's own announcement policy.
    public var treePolicies: [String: String] = [:]
    public var logLevel: LogLevel = .info
    /// `--max-message BYTES`: the longest request line accepted.
    public var maxMessageBytes: Int = 16 << 20
    /// `--max-depth`, `--max-nodes`, `--max-string`, `--max-value`, `--max-trees`, `--max-text`.
    public var limits = DaemonLimits()
    /// `--espeak-data DIR`: eSpeak NG's data directory (default: the library's own).
    public var espeakData: String?
    /// `--engines auto|none|PATH,...`: the engine processes offered beside eSpeak NG.
    public var engines: EngineSelection = .auto
    /// `--config PATH`: the configuration file (default `$XDG_CONFIG_HOME/narrator/narratord.conf`).
    public var configPath: String

    /// Whether and where narratord serves SSIP.
    public enum SSIPListening: Equatable, Sendable {
        case off
        /// Where Speech Dispatcher's clients look when `SPEECHD_ADDRESS` is unset.
        case auto
        case path(String)
    }

    public enum Action: Equatable, Sendable {
        case run(DaemonOptions)
        case help
        case version
    }

    /// `narratord --help`, generated from `table`, so it lists exactly the options the parser takes.
    public static let usage = """
        narratord: the Narrator speech daemon.

        Usage: narratord [OPTIONS]

        Options:
        \(HelpColumns.render(table.map { ($0.spec.synopsis, $0.spec.annotatedHelp) }, column: 20, width: 100))

        Logs go to stderr with syslog priority prefixes, as journald reads them.
        SIGTERM or SIGINT: stop accepting, send pending replies, exit 0.

        Exit status:
        \(HelpColumns.render(exitStatuses, column: 4, width: 100))
        """

    /// What each exit status means, for `--help` (the manual page says the same).
    static let exitStatuses = [
        ("0", "stopped cleanly (SIGTERM or SIGINT)"),
        (
            "1",
            "could not start: the socket is in use or cannot be bound (the SSIP socket too), eSpeak NG or the WAV directory cannot be set up, "
                + "the saved settings cannot be read, the --voice names no installed voice or language, a policy file cannot be read or is not a policy"
        ),
        (
            "2",
            "usage error, before anything starts: an unknown option, a missing value, a value the option does not take "
                + "(--audio, --rate, --socket, --ssip, --max-*, --log-level, --tree-policy's form), or a mistake in the configuration file"
        ),
    ]

    /// The configuration file named by `--config` (the last one, as for every option), or the
    /// default one. A command line that does not parse names none; `parse` then reports why.
    public static func configPath(_ arguments: [String], environment: [String: String]) -> (path: String, explicit: Bool) {
        if let parsed = try? ArgumentParser.parse(arguments, options: table.map(\.spec)), let path = parsed.value("--config") {
            return (path, true)
        }
        return (ConfigFile.defaultPath(environment), false)
    }

    /// Parses the configuration file's entries, then the command line over them.
    public static func parse(
        _ arguments: [String], environment: [String: String], config: [ConfigFile.Entry], configFile: String = "narratord.conf"
    ) throws(UsageError) -> Action {
        var options = DaemonOptions(stateDirectory: defaultStateDirectory(environment), configPath: configFile)
        for entry in config {
            do {
                try options.apply(entry)
            } catch {
                throw UsageError("\(configFile):\(entry.line): \(error.message)")
            }
        }
        return try options.apply(arguments)
    }

    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Action {
        try parse(arguments, environment: environment, config: [], configFile: configPath(arguments, environment: environment).path)
    }

    /// Applies command-line arguments over the current options, each option in the order given.
    mutating func apply(_ arguments: [String]) throws(UsageError) -> Action {
        let parsed = try ArgumentParser.parse(arguments, options: Self.table.map(\.spec), missingValueNamesPlaceholder: false)
        var options = self
        for occurrence in parsed.occurrences {
            // The parser reports only the table's options, under their names.
            guard let option = Self.optionsByName[occurrence.name] else { throw UsageError("unknown option '\(occurrence.name)'") }
            switch option.effect {
            case .answer(let action):
                return action
            case .set:
                // An option with a placeholder always has a value.
                guard let value = occurrence.value else { throw UsageError("option '\(occurrence.name)' needs a value") }
                try option.set(value, on: &options)
            }
        }
        self = options
        return .run(options)
    }

    /// Applies a `key = value` line of the configuration file as `--key value`.
    mutating func apply(_ entry: ConfigFile.Entry) throws(UsageError) {
        guard let option = Self.optionsByConfigKey[entry.key] else {
            throw UsageError("unknown key \"\(entry.key)\"" + Suggestion.hint(for: entry.key, in: ConfigFile.keys))
        }
        try option.set(entry.value, on: &self)
    }

    static func defaultStateDirectory(_ environment: [String: String]) -> String {
        // Under systemd, StateDirectory= names the one directory the sandbox lets us write.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") { return String(state) }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/narrator" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/narrator"
    }
}
