import NarratorCore

/// `narratord`'s command line, parsed purely from arguments and environment.
public struct DaemonOptions: Equatable, Sendable {
    /// `--socket PATH`; nil means `$NARRATOR_SOCKET`, then the runtime directory.
    public var socket: String?
    /// `--audio SPEC`: auto, pulse, null or wav:DIR.
    public var audio: String = "auto"
    /// `--voice NAME` and `--rate WPM` override the saved speech settings at start-up.
    public var voice: String?
    public var rate: Int?
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
    /// `--max-depth`, `--max-nodes`, `--max-string`, `--max-trees`, `--max-text`.
    public var limits = DaemonLimits()
    /// `--espeak-data DIR`: eSpeak NG's data directory (default: the library's own).
    public var espeakData: String?
    /// `--config PATH`: the configuration file (default `$XDG_CONFIG_HOME/narrator/narratord.conf`).
    public var configPath: String

    public enum Action: Equatable, Sendable {
        case run(DaemonOptions)
        case help
        case version
    }

    public static let usage = """
        narratord: the Narrator speech daemon.

        Usage: narratord [OPTIONS]

        Options:
          --socket PATH       listen here (default: $NARRATOR_SOCKET, then
                              $XDG_RUNTIME_DIR/narrator/narratord.sock, else /tmp/narrator-UID/)
          --audio SPEC        auto (default), pulse, null, or wav:DIR
          --voice NAME        eSpeak NG voice (saved settings otherwise; see narratorctl voices)
          --rate WPM          speech rate in words per minute (80-450)
          --state-dir DIR     settings and logs (default: $XDG_STATE_HOME/narrator)
          --db PATH           the SQLite log (default: STATE_DIR/narrator.db)
          --policy NAME|FILE  announcement policy: none, default (the default), strict, or a JSON file
          --tree-policy TREE=NAME|FILE
                              a tree's own announcement policy (repeatable)
          --espeak-data DIR   eSpeak NG's data directory
          --max-message N     longest request line in bytes (default 16777216)
          --max-depth N       deepest tree accepted, in levels (default 256)
          --max-nodes N       most nodes in one tree (default 2000000)
          --max-string N      longest id, label, value or hint, in characters (default 4096)
          --max-trees N       trees one connection may own (default 64)
          --max-text N        longest announce or speak text, in characters (default 2000)
          --max-queued N      announcements one connection may have waiting (default 4)
          --log-level LEVEL   error, warning, notice, info (default) or debug
          --config PATH       settings file (default: $XDG_CONFIG_HOME/narrator/narratord.conf);
                              "key = value" lines with the option names above; flags win;
                              SIGHUP re-reads it
          --version           print the version
          --help              show this help

        Logs go to stderr with syslog priority prefixes, as journald reads them.
        SIGTERM or SIGINT: stop accepting, send pending replies, exit 0.
        """

    /// The configuration file named by `--config`, or the default one.
    public static func configPath(_ arguments: [String], environment: [String: String]) -> (path: String, explicit: Bool) {
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { return (arguments[index + 1], true) }
            if argument.hasPrefix("--config=") { return (String(argument.dropFirst("--config=".count)), true) }
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
                _ = try options.apply(["--" + entry.key, entry.value])
            } catch {
                throw UsageError("\(configFile):\(entry.line): \(error.message)")
            }
        }
        return try options.apply(arguments)
    }

    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Action {
        try parse(arguments, environment: environment, config: [], configFile: configPath(arguments, environment: environment).path)
    }

    /// Applies command-line style arguments over the current options.
    mutating func apply(_ arguments: [String]) throws(UsageError) -> Action {
        var options = self
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            guard index + 1 < arguments.count else { throw UsageError("\(name) needs a value") }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            var argument = arguments[index]
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inline = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func take() throws(UsageError) -> String { if let inline { return inline } else { return try value(argument) } }
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--socket": options.socket = try take()
            case "--audio": options.audio = try take()
            case "--voice": options.voice = try take()
            case "--rate":
                let text = try take()
                guard let rate = Int(text), (80...450).contains(rate) else {
                    throw UsageError("--rate must be a whole number of words per minute from 80 to 450, not \"\(text)\"")
                }
                options.rate = rate
            case "--state-dir": options.stateDirectory = try take()
            case "--db": options.database = try take()
            case "--policy": options.policy = try take()
            case "--tree-policy":
                let text = try take()
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
                    throw UsageError("--tree-policy takes TREE=NAME|FILE, e.g. chat=strict, not \"\(text)\"")
                }
                options.treePolicies[String(text[..<equals])] = String(text[text.index(after: equals)...])
            case "--espeak-data": options.espeakData = try take()
            case "--config": options.configPath = try take()
            case "--max-message":
                let text = try take()
                guard let bytes = Int(text), bytes >= 1024 else {
                    throw UsageError("--max-message must be a number of bytes of at least 1024, not \"\(text)\"")
                }
                options.maxMessageBytes = bytes
            case "--max-depth": options.limits.document.maxDepth = try Self.count(try take(), argument, 1...4096)
            case "--max-nodes": options.limits.document.maxNodes = try Self.count(try take(), argument, 1...100_000_000)
            case "--max-string": options.limits.document.maxStringLength = try Self.count(try take(), argument, 1...1_000_000)
            case "--max-trees": options.limits.treesPerClient = try Self.count(try take(), argument, 1...100_000)
            case "--max-text": options.limits.textLength = try Self.count(try take(), argument, 1...1_000_000)
            case "--max-queued": options.limits.queuedPerClient = try Self.count(try take(), argument, 1...10_000)
            case "--log-level":
                let text = try take()
                guard let level = LogLevel(rawValue: text) else {
                    throw UsageError(
                        "--log-level must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\""
                            + Suggestion.hint(for: text, in: LogLevel.allCases.map(\.rawValue)))
                }
                options.logLevel = level
            default:
                let known = ConfigFile.keys.map { "--" + $0 } + ["--config", "--version", "--help"]
                throw UsageError("unknown option \(argument)" + (Suggestion.nearest(to: argument, in: known).map { " (did you mean \($0)?)" } ?? ""))
            }
            index += 1
        }
        self = options
        return .run(options)
    }

    /// A whole number in `range` for a limit option.
    static func count(_ text: String, _ option: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    static func defaultStateDirectory(_ environment: [String: String]) -> String {
        // Under systemd, StateDirectory= names the one directory the sandbox lets us write.
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") { return String(state) }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/narrator" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/narrator"
    }
}

/// A command-line mistake: the message and exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
