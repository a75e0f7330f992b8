import NarratorCommandLine
@testable import NarratorDaemon
import Testing

@Suite struct OptionsTests {
    let environment = ["HOME": "/home/u", "XDG_STATE_HOME": "/home/u/.state", "XDG_CONFIG_HOME": "/home/u/.cfg"]

    func run(_ arguments: [String], config: [ConfigFile.Entry] = []) throws -> DaemonOptions {
        guard case .run(let options) = try DaemonOptions.parse(arguments, environment: environment, config: config, configFile: "test.conf") else {
            Issue.record("not a run")
            return DaemonOptions(stateDirectory: "", configPath: "")
        }
        return options
    }

    @Test func defaultsFollowTheXDGDirectories() throws {
        let options = try run([])
        #expect(options.stateDirectory == "/home/u/.state/narrator")
        #expect(options.audio == "auto")
        #expect(DaemonOptions.configPath([], environment: environment) == ("/home/u/.cfg/narrator/narratord.conf", false))
        #expect(DaemonOptions.configPath(["--config", "/x.conf"], environment: environment) == ("/x.conf", true))
        #expect(ConfigFile.defaultPath(["HOME": "/h"]) == "/h/.config/narrator/narratord.conf")
        // systemd's StateDirectory= wins: it is the directory the sandbox leaves writable.
        #expect(DaemonOptions.defaultStateDirectory(["STATE_DIRECTORY": "/s/narrator", "XDG_STATE_HOME": "/x"]) == "/s/narrator")
    }

    @Test func flagsOverrideTheFile() throws {
        let config = try ConfigFile.parse("# comment\nrate = 200\n\naudio = null\nlog-level = warning\n", file: "test.conf")
        let fromFile = try run([], config: config)
        #expect(fromFile.rate == 200 && fromFile.audio == "null" && fromFile.logLevel == .warning)
        let overridden = try run(["--rate", "150", "--audio=pulse"], config: config)
        #expect(overridden.rate == 150 && overridden.audio == "pulse" && overridden.logLevel == .warning)
    }

    @Test func mistakesNameTheFileAndLine() {
        #expect(throws: UsageError(#"narratord.conf:2: unknown key "rat"; did you mean "rate"? (keys: socket, ssip, audio, voice, rate, engine-idle, state-dir, db, policy, tree-policy, espeak-data, engines, max-message, max-depth, max-nodes, max-string, max-value, max-trees, max-text, max-queued, log-level)"#)) {
            try ConfigFile.parse("audio = null\nrat = 200\n", file: "narratord.conf")
        }
        #expect(throws: UsageError(#"narratord.conf:1: expected "key = value", got "rate 200""#)) {
            try ConfigFile.parse("rate 200", file: "narratord.conf")
        }
        #expect(throws: UsageError(#"test.conf:4: --rate must be a whole number of words per minute from 80 to 450, not "fast""#)) {
            try run([], config: [ConfigFile.Entry(key: "rate", value: "fast", line: 4)])
        }
        #expect(throws: UsageError("unknown option --sockt (did you mean --socket?)")) { try run(["--sockt", "x"]) }
        #expect(throws: UsageError("--audio needs a value")) { try run(["--audio"]) }
    }

    @Test func ssipTakesAPathAutoOrOff() throws {
        #expect(try run([]).ssip == .off)
        #expect(try run(["--ssip", "auto"]).ssip == .auto)
        #expect(try run(["--ssip", "/run/user/1000/speech-dispatcher/speechd.sock"]).ssip == .path("/run/user/1000/speech-dispatcher/speechd.sock"))
        #expect(try run(["--ssip", "auto", "--ssip", "off"]).ssip == .off)
        let long = "/" + String(repeating: "x", count: 200)
        #expect(throws: UsageError.self) { try run(["--ssip", long]) }
    }

    @Test func enginesTakeAutoNoneOrExecutables() throws {
        #expect(try run([]).engines == .auto)
        #expect(try run(["--engines", "none"]).engines == .none)
        #expect(try run(["--engines", "/opt/a,/opt/b"]).engines == .paths(["/opt/a", "/opt/b"]))
        #expect(try run([], config: [ConfigFile.Entry(key: "engines", value: "none", line: 1)]).engines == .none)
        #expect(throws: UsageError(#"--engines must be auto, none, or executables separated by commas, not "/a,,/b""#)) {
            try run(["--engines", "/a,,/b"])
        }
    }

    @Test func helpAndVersion() throws {
        #expect(try DaemonOptions.parse(["--help"], environment: environment) == .help)
        #expect(try DaemonOptions.parse(["--rate", "200", "--version"], environment: environment) == .version)
    }

    /// A valid value for every option that takes one; a new option needs one here.
    let samples = [
        "--socket": "/tmp/s.sock", "--ssip": "auto", "--audio": "null", "--voice": "en", "--rate": "200", "--engine-idle": "60", "--state-dir": "/s", "--db": "/d.db",
        "--policy": "strict", "--tree-policy": "chat=strict", "--espeak-data": "/e", "--engines": "none", "--max-message": "2048", "--max-depth": "12",
        "--max-nodes": "1000", "--max-string": "100", "--max-value": "100000", "--max-trees": "3", "--max-text": "50", "--max-queued": "2",
        "--log-level": "debug", "--config": "/c.conf",
    ]

    /// `--name value`, `--name=value` and `name = value` in the file do the same, for every option.
    @Test func everyValueOptionTakesBothSpellingsAndTheFile() throws {
        let defaults = try run([])
        for option in DaemonOptions.table where !option.spec.isFlag {
            let value = try #require(samples[option.name], "no sample value for \(option.name)")
            let separate = try run([option.name, value])
            #expect(try run(["\(option.name)=\(value)"]) == separate, "\(option.name)")
            #expect(separate != defaults, "\(option.name) \(value) changed nothing")
            if option.isConfigKey {
                let entries = try ConfigFile.parse("\(option.configKey) = \(value)\n", file: "test.conf")
                #expect(try run([], config: entries) == separate, "\(option.configKey) in the file")
            }
            #expect(throws: UsageError("\(option.name) needs a value")) { try run([option.name]) }
        }
    }

    /// The table is the one list: --help shows every option with its default, and the file
    /// takes every option but --config, --help and --version.
    @Test func helpAndConfigKeysComeFromTheTable() {
        let names = DaemonOptions.table.map(\.name)
        #expect(names.count == Set(names).count)
        #expect(ConfigFile.keys == names.filter { !["--config", "--help", "--version"].contains($0) }.map { String($0.dropFirst(2)) })
        #expect(ConfigFile.keys.count == DaemonOptions.table.count - 3)
        let lines = DaemonOptions.usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Help as one line of words, for phrases that wrapping may break across lines.
        let words = DaemonOptions.usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in DaemonOptions.table {
            let synopsis = "  \(option.spec.synopsis)"
            #expect(lines.contains { $0 == synopsis || $0.hasPrefix(synopsis + "  ") }, "\(option.name) is not in --help")
            let help = option.spec.annotatedHelp.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(help), "\(option.name)'s help is not in --help")
        }
        #expect(lines.allSatisfy { $0.count <= 100 })
        // Defaults come from the code, not from a copy of it.
        let defaults = DaemonOptions(stateDirectory: "", configPath: "")
        #expect(lines.contains("  --max-depth N       deepest tree accepted, in levels (default: \(defaults.limits.document.maxDepth))"))
        #expect(lines.contains("  --max-message N     longest request line in bytes (default: \(defaults.maxMessageBytes))"))
        #expect(lines.contains("  --log-level LEVEL   error, warning, notice, info or debug (default: info)"))
        #expect(lines.contains("  --tree-policy TREE=NAME|FILE"))
    }

    @Test func typosSuggestTheNearestOptionOrKey() {
        for option in DaemonOptions.table {
            let typo = String(option.name.dropLast())
            #expect(throws: UsageError("unknown option \(typo) (did you mean \(option.name)?)")) { try run([typo]) }
        }
        let keys = ConfigFile.keys.joined(separator: ", ")
        #expect(throws: UsageError(#"c.conf:3: unknown key "max-dpth"; did you mean "max-depth"? (keys: \#(keys))"#)) {
            try ConfigFile.parse("# limits\nmax-depth = 10\nmax-dpth = 12\n", file: "c.conf")
        }
        // Options that are not settings are not keys.
        #expect(throws: UsageError(#"c.conf:1: unknown key "config" (keys: \#(keys))"#)) { try ConfigFile.parse("config = /x", file: "c.conf") }
        #expect(throws: UsageError(#"c.conf:1: unknown key "help" (keys: \#(keys))"#)) { try ConfigFile.parse("help = yes", file: "c.conf") }
        // Entries made without ConfigFile.parse are checked too.
        #expect(throws: UsageError(#"test.conf:2: unknown key "rat"; did you mean "rate"?"#)) {
            try run([], config: [ConfigFile.Entry(key: "rat", value: "200", line: 2)])
        }
    }

    @Test func badValuesAreRefusedAlikeFromFlagsAndTheFile() {
        let cases = [
            ("--rate", "fast", #"--rate must be a whole number of words per minute from 80 to 450, not "fast""#),
            ("--max-depth", "0", #"--max-depth must be a whole number from 1 to 4096, not "0""#),
            ("--max-queued", "many", #"--max-queued must be a whole number from 1 to 10000, not "many""#),
            ("--max-message", "5", #"--max-message must be a number of bytes of at least 1024, not "5""#),
            ("--tree-policy", "=strict", #"--tree-policy takes TREE=NAME|FILE, e.g. chat=strict, not "=strict""#),
            ("--log-level", "inf", #"--log-level must be one of error, warning, notice, info, debug, not "inf"; did you mean "info"?"#),
        ]
        for (name, value, message) in cases {
            #expect(throws: UsageError(message)) { try run([name, value]) }
            #expect(throws: UsageError(message)) { try run(["\(name)=\(value)"]) }
            #expect(throws: UsageError("test.conf:3: " + message)) {
                try run([], config: [ConfigFile.Entry(key: String(name.dropFirst(2)), value: value, line: 3)])
            }
        }
    }

    @Test func optionsApplyInOrderAndTheLastWins() throws {
        let options = try run(["--rate", "100", "--rate=200", "--tree-policy", "chat=strict", "--tree-policy", "mail=none"])
        #expect(options.rate == 200)
        #expect(options.treePolicies == ["chat": "strict", "mail": "none"])
        #expect(DaemonOptions.configPath(["--config=/a.conf", "--config", "/b.conf"], environment: environment) == ("/b.conf", true))
        #expect(try run(["--config=/a.conf", "--config", "/b.conf"]).configPath == "/b.conf")
        // --help and --version answer where they stand: what follows is not read, what comes before is.
        #expect(try DaemonOptions.parse(["-h"], environment: environment) == .help)
        #expect(try DaemonOptions.parse(["--help", "--bogus"], environment: environment) == .help)
        #expect(throws: UsageError(#"--rate must be a whole number of words per minute from 80 to 450, not "fast""#)) {
            try DaemonOptions.parse(["--rate", "fast", "--help"], environment: environment)
        }
        #expect(throws: UsageError("unexpected argument \"foo\"")) { try run(["foo"]) }
        #expect(throws: UsageError("unknown option -x (options are spelt with two dashes)")) { try run(["-x"]) }
    }
}
