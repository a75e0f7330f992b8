@testable import NarratorCLI
import NarratorCommandLine
import Testing

@Suite struct ArgumentParserTests {
    @Test func globalAndCommandOptions() throws {
        #expect(try InvocationParser.parse(["--socket", "/tmp/s", "show", "f.json"]) == Invocation(socket: "/tmp/s", json: false, command: .show(file: "f.json")))
        #expect(try InvocationParser.parse(["show", "--json", "f.json"]) == Invocation(socket: nil, json: true, command: .show(file: "f.json")))
        #expect(try InvocationParser.parse(["--json", "show", "--socket=/x", "-"]) == Invocation(socket: "/x", json: true, command: .show(file: "-")))
    }

    @Test func helpAndVersion() throws {
        #expect(try InvocationParser.parse(["--help"]).command == .help(topic: nil))
        #expect(try InvocationParser.parse(["show", "--help"]).command == .help(topic: "show"))
        #expect(try InvocationParser.parse(["help", "show"]).command == .help(topic: "show"))
        #expect(try InvocationParser.parse(["--version"]).command == .version)
    }

    /// After "--" every word is an argument, "-h" and "--help" too: `announce -- -h` says "-h".
    @Test func helpIsAskedOnlyBeforeDoubleDash() throws {
        #expect(try InvocationParser.parse(["announce", "--", "-h"]).command == .daemon(.send(.announce(text: "-h", priority: .default, tree: nil, element: nil, key: nil, language: nil))))
        #expect(try InvocationParser.parse(["speak", "--", "--help", "me"]).command == .daemon(.send(.speak(text: "--help me", language: nil))))
        #expect(try InvocationParser.parse(["announce", "--key", "-h", "x"]).command == .daemon(.send(.announce(text: "x", priority: .default, tree: nil, element: nil, key: "-h", language: nil))))
        #expect(try InvocationParser.parse(["announce", "-h", "--", "x"]).command == .help(topic: "announce"))
        #expect(try InvocationParser.parse(["announce", "--key=k", "--help"]).command == .help(topic: "announce"))
        #expect(try InvocationParser.parse(["speak", "--help"]).command == .help(topic: "speak"))
    }

    /// The global options are one list, GlobalOption: the parser takes each before a command and
    /// suggests from it, the overview lists each, completion offers each, and each command's help
    /// draws its own from it.
    @Test func globalOptionsAreOneList() throws {
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let overview = words(HelpText.overview)
        for option in GlobalOption.allCases {
            let spec = option.spec
            for name in [spec.name] + spec.aliases {
                // `--version` is the version command: nothing but its options may follow.
                let invocation = try InvocationParser.parse([name] + (spec.isFlag ? [] : ["/tmp/x.sock"]) + (option.command == nil ? ["status"] : []))
                #expect(invocation != (try InvocationParser.parse(["status"])), "\(name)")
            }
            #expect(overview.contains(words(spec.synopsis + " " + spec.help)), "\(spec.name)")
        }
        #expect(Completion.complete(["narratorctl", "--"], current: 1) { _ in .none }.words.sorted() == GlobalOption.allCases.map(\.rawValue).sorted())
        let globals = Set(GlobalOption.allCases.map(\.rawValue))
        for command in commandCatalog {
            #expect(Set(command.globalOptions.map(\.name)).isSubset(of: globals), "\(command.name)")
        }
        #expect(throws: UsageError("unknown option --verison (did you mean --version?)")) { try InvocationParser.parse(["--verison"]) }
        #expect(throws: UsageError("--json takes no value")) { try InvocationParser.parse(["--json=yes", "status"]) }
        #expect(try InvocationParser.parse(["-h", "status"]).command == .help(topic: nil))
    }

    /// An argument with a fixed set of values has them in ArgumentSpec.choices, the one list that
    /// the parser checks (as an option's, with a suggestion), help shows and completion offers.
    @Test func argumentChoicesAreCheckedShownAndCompleted() throws {
        #expect(throws: UsageError("adjust: DIRECTION must be one of up, down, not \"dwn\"; did you mean down?", command: "adjust")) {
            try InvocationParser.parse(["adjust", "dwn"])
        }
        #expect(throws: UsageError("rotor: DIRECTION must be one of next, previous, first, last, not \"previus\"; did you mean previous?", command: "rotor")) {
            try InvocationParser.parse(["rotor", "headings", "previus"])
        }
        let keys = "voice, rate, pitch, volume, punctuation, hints, hint-delay, engine, engine.keys, engine.focus, engine.announcements, "
            + "engine.speak, engine.ssip, engine.long, long-text-words, engine-idle, speech, verbosity"
        // Refused before asking the daemon, and before the missing value.
        #expect(throws: UsageError("set: KEY must be one of \(keys), not \"rat\"; did you mean rate?", command: "set")) { try InvocationParser.parse(["set", "rat"]) }
        #expect(throws: UsageError("get: KEY must be one of \(keys), not \"hint\"; did you mean hints?", command: "get")) { try InvocationParser.parse(["get", "hint"]) }
        #expect(throws: UsageError("completion: SHELL must be bash, not \"zsh\"", command: "completion")) { try InvocationParser.parse(["completion", "zsh"]) }
        #expect(try InvocationParser.parse(["adjust", "down"]).command == .daemon(.send(.adjust(.down))))
        #expect(try InvocationParser.parse(["rotor", "headings"]).command == .daemon(.send(.rotor(name: "headings", direction: .next))))
        #expect(try InvocationParser.parse(["rotor", "headings", "last"]).command == .daemon(.send(.rotor(name: "headings", direction: .last))))
        #expect(try InvocationParser.parse(["cell", "down"]).command == .daemon(.send(.cell(.down))))
        #expect(HelpText.command(commandSpec(named: "adjust")!).contains("which way (up, down)\n"))
        #expect(HelpText.command(commandSpec(named: "rotor")!).contains("which item to move to (next, previous, first, last) (default: next)\n"))
        var withChoices = 0
        for spec in commandCatalog {
            for argument in spec.arguments {
                guard let choices = argument.choices else { continue }
                withChoices += 1
                #expect(Completion.source(command: spec.name, argument: argument) == .words(choices), "\(spec.name) \(argument.name)")
            }
        }
        #expect(withChoices == 6)
    }

    @Test func mistakesAreUsageErrorsWithSuggestions() {
        #expect(throws: UsageError("missing command; run \"narratorctl help\" to list them")) { try InvocationParser.parse([]) }
        #expect(throws: UsageError("show: missing FILE|TREE", command: "show")) { try InvocationParser.parse(["show"]) }
        #expect(throws: UsageError("show: unexpected argument \"b\"", command: "show")) { try InvocationParser.parse(["show", "a", "b"]) }
        #expect(throws: UsageError("show: unknown option --jsn (did you mean --json?)", command: "show")) {
            try InvocationParser.parse(["show", "--jsn", "a"])
        }
        #expect(throws: UsageError("unknown option --sockt (did you mean --socket?)")) { try InvocationParser.parse(["--sockt", "x"]) }
        #expect(throws: UsageError("--socket needs a value (PATH)")) { try InvocationParser.parse(["--socket"]) }
    }

    /// Found by ArgumentsFuzzer (Fuzz/corpus/arguments/since-non-ascii.args): Foundation's
    /// DateFormatter trapped on a time followed by non-ASCII text, killing narratorctl.
    @Test func sinceWithNonASCIITextIsAUsageError() {
        let since = "2026-11-29T15:00-\u{743}\u{FFFD}n"
        #expect(throws: UsageError(
            "--since takes a duration such as 90s, 10m, 2h, 1d or a time such as 2026-11-29T15:00, not \"\(since)\"",
            command: "stats")) { try InvocationParser.parse(["stats", "--since=" + since]) }
        #expect(LogTime.parse("2026-11-29T15:00é", now: 0) == nil)
        #expect(LogTime.parse("２０２６-11-29", now: 0) == nil)
        #expect(LogTime.parse("2026-11-29T15:00", now: 0) != nil)
    }

    @Test func genericParserHandlesChoicesRepeatsAndDoubleDash() throws {
        let options = [OptionSpec("--priority", value: "P", help: "", choices: ["low", "default", "high"]), OptionSpec("--policy", value: "N", help: "", repeatable: true)]
        let args = [ArgumentSpec("TEXT", help: "", variadic: true)]
        let parsed = try ArgumentParser.parse(["--priority", "high", "--policy", "a", "--policy=b", "--", "-5", "degrees"], options: options, positionals: args, command: "announce")
        #expect(parsed.value("--priority") == "high")
        #expect(parsed.values("--policy") == ["a", "b"])
        #expect(parsed.positionals == ["-5", "degrees"])
        #expect(throws: UsageError("announce: --priority must be one of low, default, high, not \"hgh\"; did you mean high?", command: "announce")) {
            try ArgumentParser.parse(["--priority", "hgh", "x"], options: options, positionals: args, command: "announce")
        }
        #expect(throws: UsageError("announce: --priority given twice", command: "announce")) {
            try ArgumentParser.parse(["--priority", "low", "--priority", "high", "x"], options: options, positionals: args, command: "announce")
        }
    }
}
