import Testing
@testable import NarratorDaemon

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
        #expect(throws: UsageError(#"narratord.conf:2: unknown key "rat"; did you mean "rate"? (keys: socket, audio, voice, rate, state-dir, db, policy, tree-policy, espeak-data, max-message, max-depth, max-nodes, max-string, max-trees, max-text, max-queued, log-level)"#)) {
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

    @Test func helpAndVersion() throws {
        #expect(try DaemonOptions.parse(["--help"], environment: environment) == .help)
        #expect(try DaemonOptions.parse(["--rate", "200", "--version"], environment: environment) == .version)
    }
}
