import NarratorCommandLine
import Testing

/// The shared parser as narratord uses it: no command, flags that end parsing, an alias, and
/// every option applied in the order given.
@Suite struct ParserTests {
    let options = [
        OptionSpec("--rate", value: "WPM", help: "speech rate", repeatable: true),
        OptionSpec("--tree-policy", value: "TREE=NAME", help: "a tree's policy", repeatable: true),
        OptionSpec("--help", help: "show this help", aliases: ["-h"], endsParsing: true),
        OptionSpec("--version", help: "print the version", endsParsing: true),
    ]

    @Test func occurrencesKeepTheirOrderAndBothSpellings() throws {
        let parsed = try ArgumentParser.parse(["--rate", "200", "--tree-policy=chat=strict", "--rate=150"], options: options)
        #expect(parsed.occurrences == [
            .init(name: "--rate", value: "200"), .init(name: "--tree-policy", value: "chat=strict"), .init(name: "--rate", value: "150"),
        ])
        #expect(parsed.values("--rate") == ["200", "150"])
        #expect(parsed.value("--rate") == "150")
        #expect(parsed.value("--tree-policy") == "chat=strict")
    }

    @Test func aFlagThatEndsParsingStopsThere() throws {
        let parsed = try ArgumentParser.parse(["--rate", "fast", "--help", "--bogus", "stray"], options: options)
        #expect(parsed.occurrences == [.init(name: "--rate", value: "fast"), .init(name: "--help", value: nil)])
        #expect(parsed.has("--help") && parsed.positionals.isEmpty)
        // Nor are missing positionals reported after it.
        let withText = try ArgumentParser.parse(
            ["--help"], options: options, positionals: [ArgumentSpec("TEXT", help: "")], command: "announce")
        #expect(withText.has("--help"))
        #expect(throws: UsageError("unknown option --bogus")) { try ArgumentParser.parse(["--bogus", "--help"], options: options) }
    }

    @Test func aliasesAreReportedUnderTheOptionsName() throws {
        let parsed = try ArgumentParser.parse(["-h"], options: options)
        #expect(parsed.has("--help") && !parsed.has("-h"))
        #expect(parsed.occurrences == [.init(name: "--help", value: nil)])
    }

    @Test func messagesWithoutACommandHaveNoPrefix() {
        #expect(throws: UsageError("unknown option --rat (did you mean --rate?)")) { try ArgumentParser.parse(["--rat", "1"], options: options) }
        #expect(throws: UsageError("--rate needs a value (WPM)")) { try ArgumentParser.parse(["--rate"], options: options) }
        #expect(throws: UsageError("--rate needs a value")) {
            try ArgumentParser.parse(["--rate"], options: options, missingValueNamesPlaceholder: false)
        }
        #expect(throws: UsageError("--version takes no value")) { try ArgumentParser.parse(["--version=2"], options: options) }
        #expect(throws: UsageError("unexpected argument \"stray\"")) { try ArgumentParser.parse(["stray"], options: options) }
        // With no text to give, a single-dash word can only be a misspelt option.
        #expect(throws: UsageError("unknown option -rate (did you mean --rate?)")) { try ArgumentParser.parse(["-rate", "1"], options: options) }
        #expect(throws: UsageError("unknown option -x (options are spelt with two dashes)")) { try ArgumentParser.parse(["-x"], options: options) }
    }

    @Test func messagesWithACommandNameIt() {
        let text = [ArgumentSpec("TEXT", help: "", variadic: true)]
        #expect(throws: UsageError("announce: --rate needs a value (WPM)", command: "announce")) {
            try ArgumentParser.parse(["x", "--rate"], options: options, positionals: text, command: "announce")
        }
        #expect(throws: UsageError(
            "announce: unknown option -rate (options are spelt with two dashes; use -- before text that starts with a dash)", command: "announce")) {
            try ArgumentParser.parse(["-rate"], options: options, positionals: text, command: "announce")
        }
        #expect(throws: UsageError("announce: missing TEXT", command: "announce")) {
            try ArgumentParser.parse([], options: options, positionals: text, command: "announce")
        }
    }

    @Test func synopsisAndAnnotatedHelp() {
        let option = OptionSpec("--priority", value: "P", help: "speech priority", choices: ["low", "high"], shownDefault: "low")
        #expect(option.synopsis == "--priority P")
        #expect(option.annotatedHelp == "speech priority (low, high) (default: low)")
        #expect(OptionSpec("--json", help: "print JSON").synopsis == "--json")
        #expect(OptionSpec("--json", help: "print JSON").annotatedHelp == "print JSON")
    }
}

@Suite struct HelpColumnsTests {
    @Test func rowsLineUpAndWideLeftsGetTheirOwnLine() {
        let text = HelpColumns.render([("--db PATH", "the log"), ("--tree-policy TREE=NAME|FILE", "a tree's own policy")], column: 12)
        #expect(text == """
              --db PATH   the log
              --tree-policy TREE=NAME|FILE
                          a tree's own policy
            """)
    }

    @Test func longHelpWrapsWithinTheWidthUnderItself() {
        let text = HelpColumns.render([("--a", "one two three four five six"), ("--b", "averyveryverylongword x")], column: 6, width: 21)
        #expect(text == """
              --a   one two three
                    four five six
              --b   averyveryverylongword
                    x
            """)
        #expect(text.split(separator: "\n").filter { !$0.contains("averyvery") }.allSatisfy { $0.count <= 21 })
    }
}
