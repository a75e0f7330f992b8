import NarratorBase
import NarratorCommandLine
import NarratorEngines
import NarratorSpeechPlan
import NarratorSystem

/// One `narratord` option, declared once: its name, value placeholder, help, the default help
/// shows, whether `narratord.conf` may set it, and what it does to `DaemonOptions`.
/// `DaemonOptions.table` lists them all; the command-line parser, `--help` and `ConfigFile.keys`
/// are derived from it, so none can name an option the others do not know.
struct DaemonOption: Sendable {
    /// Why a value does not do, worded to follow the option's name: `must be a whole number ...`.
    struct InvalidValue: Error {
        var reason: String
    }

    enum Effect: Sendable {
        /// Checks the value and sets it on the options.
        case set(@Sendable (inout DaemonOptions, String) throws(InvalidValue) -> Void)
        /// Answers instead of running (`--help`, `--version`); nothing after it is read.
        case answer(DaemonOptions.Action)
    }

    let spec: OptionSpec
    /// Whether `narratord.conf` may set it, as `key = value` with the name minus its dashes.
    let isConfigKey: Bool
    let effect: Effect

    var name: String { spec.name }
    /// Its key in `narratord.conf`: `rate` for `--rate`.
    var configKey: String { String(name.dropFirst(2)) }

    /// Checks `value` and sets it on `options`; the error names the option.
    func set(_ value: String, on options: inout DaemonOptions) throws(UsageError) {
        guard case .set(let set) = effect else { return }
        do { try set(&options, value) } catch { throw UsageError("\(name) \(error.reason)") }
    }

    /// An option with a value: `--rate 200`, `--rate=200`, or `rate = 200` in the file. Given
    /// more than once, each is applied in turn (so the last wins, and `--tree-policy` adds one
    /// per tree).
    static func value(
        _ name: String, _ placeholder: String, _ help: String, default shown: String? = nil, configKey: Bool = true,
        _ set: @escaping @Sendable (inout DaemonOptions, String) throws(InvalidValue) -> Void
    ) -> DaemonOption {
        DaemonOption(
            spec: OptionSpec(name, value: placeholder, help: help, repeatable: true, shownDefault: shown),
            isConfigKey: configKey, effect: .set(set))
    }

    /// A whole number in `range`, for the limits.
    static func count(
        _ name: String, _ help: String, _ range: ClosedRange<Int>, default shown: Int,
        _ set: @escaping @Sendable (inout DaemonOptions, Int) -> Void
    ) -> DaemonOption {
        value(name, "N", help, default: String(shown)) { options, text throws(InvalidValue) in
            guard let value = Int(text), range.contains(value) else {
                throw InvalidValue(reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
            }
            set(&options, value)
        }
    }

    /// A flag that answers instead of running; not a configuration key.
    static func answer(_ name: String, _ help: String, aliases: [String] = [], _ action: DaemonOptions.Action) -> DaemonOption {
        DaemonOption(spec: OptionSpec(name, help: help, aliases: aliases, endsParsing: true), isConfigKey: false, effect: .answer(action))
    }
}

extension DaemonOptions {
    /// The defaults `--help` shows, read from the code rather than written out again.
    private static let defaults = DaemonOptions(stateDirectory: "", configPath: "")

    /// Every option, in the order `--help` lists them.
    static let table: [DaemonOption] = [
        .value(
            "--socket", "PATH", "listen here",
            default: "$NARRATOR_SOCKET, then $XDG_RUNTIME_DIR/narrator/narratord.sock, else /tmp/narrator-UID/"
        ) { options, text throws(DaemonOption.InvalidValue) in
            // A path the kernel cannot bind is a mistake in the command line, found before starting.
            do throws(UnixSocketAddress.Failure) { _ = try UnixSocketAddress(path: text) } catch {
                throw .init(reason: "must name a socket file of at most \(UnixSocketAddress.maximumPathBytes) bytes: \(error)")
            }
            options.socket = text
        },
        .value(
            "--ssip", "PATH|auto|off", "also serve Speech Dispatcher's protocol (SSIP) on this socket; auto: where its clients look",
            default: "off"
        ) { options, text throws(DaemonOption.InvalidValue) in
            switch text {
            case "off": options.ssip = .off
            case "auto": options.ssip = .auto
            default:
                do throws(UnixSocketAddress.Failure) { _ = try UnixSocketAddress(path: text) } catch {
                    throw .init(reason: "must be auto, off, or a socket file of at most \(UnixSocketAddress.maximumPathBytes) bytes: \(error)")
                }
                options.ssip = .path(text)
            }
        },
        .value("--audio", "SPEC", "auto, pulse, null, or wav:DIR", default: defaults.audio) { options, text throws(DaemonOption.InvalidValue) in
            do throws(AudioSpecError) { _ = try AudioSpec.parse(text) } catch {
                if error == .missingDirectory {
                    throw .init(reason: "takes wav:DIR with a directory, e.g. wav:/tmp/narrator-speech, not \"\(text)\"")
                }
                throw .init(reason: "must be auto, pulse, null or wav:DIR, not \"\(text)\"" + Suggestion.hint(for: text, in: ["auto", "pulse", "null"]))
            }
            options.audio = text
        },
        .value("--voice", "NAME", "eSpeak NG voice, by name or language code such as de, optionally +VARIANT (German+grandma; saved settings otherwise; see narratorctl voices)") { $0.voice = $1 },
        .value("--rate", "WPM", "speech rate in words per minute (80-450)") { options, text throws(DaemonOption.InvalidValue) in
            guard let rate = Int(text), VoiceParameters.rates.contains(rate) else {
                throw .init(reason: "must be a whole number of words per minute from 80 to 450, not \"\(text)\"")
            }
            options.rate = rate
        },
        .value(
            "--engine-idle", "SECONDS",
            "stop an engine process (Flite, Piper) unused this long, freeing its memory; its next speech starts it again; 0: never (saved settings otherwise)",
            default: String(SpeechSettings().engineIdleSeconds)
        ) {
            options, text throws(DaemonOption.InvalidValue) in
            guard let seconds = Int(text), (0...86_400).contains(seconds) else {
                throw .init(reason: "must be a whole number of seconds from 0 to 86400, not \"\(text)\"")
            }
            options.engineIdle = seconds
        },
        .value("--state-dir", "DIR", "settings and logs", default: "$XDG_STATE_HOME/narrator") { $0.stateDirectory = $1 },
        .value("--db", "PATH", "the SQLite log", default: "STATE_DIR/narrator.db") { $0.database = $1 },
        .value("--policy", "NAME|FILE", "announcement policy: none, default, strict, or a JSON file", default: "default") {
            $0.policy = $1
        },
        .value("--tree-policy", "TREE=NAME|FILE", "a tree's own announcement policy (repeatable)") {
            options, text throws(DaemonOption.InvalidValue) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
                throw .init(reason: "takes TREE=NAME|FILE, e.g. chat=strict, not \"\(text)\"")
            }
            options.treePolicies[String(text[..<equals])] = String(text[text.index(after: equals)...])
        },
        .value("--espeak-data", "DIR", "eSpeak NG's data directory") { $0.espeakData = $1 },
        .value(
            "--engines", "auto|none|EXE,...",
            "engine processes beside eSpeak NG; auto: narrator-flite and narrator-piper where narratord is (see narratorctl voices)",
            default: "auto"
        ) { options, text throws(DaemonOption.InvalidValue) in
            do throws(EngineSelectionError) { options.engines = try EngineSelection(parsing: text) } catch {
                throw .init(reason: "must be auto, none, or executables separated by commas, not \"\(text)\"")
            }
        },
        .value("--max-message", "N", "longest request line in bytes", default: String(defaults.maxMessageBytes)) {
            options, text throws(DaemonOption.InvalidValue) in
            guard let bytes = Int(text), bytes >= 1024 else {
                throw .init(reason: "must be a number of bytes of at least 1024, not \"\(text)\"")
            }
            options.maxMessageBytes = bytes
        },
        .count("--max-depth", "deepest tree accepted, in levels", 1...4096, default: defaults.limits.document.maxDepth) {
            $0.limits.document.maxDepth = $1
        },
        .count("--max-nodes", "most nodes in one tree", 1...100_000_000, default: defaults.limits.document.maxNodes) {
            $0.limits.document.maxNodes = $1
        },
        .count(
            "--max-string", "longest id, label or hint, in characters", 1...1_000_000,
            default: defaults.limits.document.maxStringLength
        ) { $0.limits.document.maxStringLength = $1 },
        .count(
            "--max-value", "longest value (a text field's text), in characters", 1...100_000_000,
            default: defaults.limits.document.maxValueLength
        ) { $0.limits.document.maxValueLength = $1 },
        .count("--max-trees", "trees one connection may own", 1...100_000, default: defaults.limits.treesPerClient) {
            $0.limits.treesPerClient = $1
        },
        .count("--max-text", "longest announce or speak text, in characters", 1...1_000_000, default: defaults.limits.textLength) {
            $0.limits.textLength = $1
        },
        .count("--max-queued", "announcements one connection may have waiting", 1...10_000, default: defaults.limits.queuedPerClient) {
            $0.limits.queuedPerClient = $1
        },
        .value("--log-level", "LEVEL", logLevels, default: defaults.logLevel.rawValue) { options, text throws(DaemonOption.InvalidValue) in
            guard let level = LogLevel(rawValue: text) else {
                throw .init(
                    reason: "must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\""
                        + Suggestion.hint(for: text, in: LogLevel.allCases.map(\.rawValue)))
            }
            options.logLevel = level
        },
        .value(
            "--config", "PATH", #"settings file: "key = value" lines with the option names above; flags win; SIGHUP re-reads it"#,
            default: "$XDG_CONFIG_HOME/narrator/narratord.conf", configKey: false
        ) { $0.configPath = $1 },
        .answer("--version", "print the version", .version),
        .answer("--help", "show this help", aliases: ["-h"], .help),
    ]

    /// "error, warning, notice, info or debug".
    private static var logLevels: String {
        let names = LogLevel.allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// The table by option name (a repeated name stops the program at once).
    static let optionsByName = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0) })
    /// The options `narratord.conf` may set, by key.
    static let optionsByConfigKey = Dictionary(uniqueKeysWithValues: table.filter(\.isConfigKey).map { ($0.configKey, $0) })
}
