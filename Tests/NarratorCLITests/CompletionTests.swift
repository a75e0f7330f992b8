@testable import NarratorCLI
import NarratorEngines
import NarratorModel
import NarratorSpeechPlan
import Testing

/// `narratorctl __complete`'s decisions, in-process with made-up daemon answers; the real script
/// in a real bash against a real daemon is NarratorEndToEndTests/BashCompletionTests.
@Suite struct CompletionTests {
    /// A daemon with one tree, "player", whose stops are title and play (and a container, root).
    static let facts = CompletionFacts(
        trees: { ["player", "mail"] }, stops: { $0 == "player" ? ["title", "play"] : [] },
        elements: { $0 == "player" ? ["root", "title", "controls", "play"] : [] },
        voices: { query in
            VoiceCatalog(
                voices: [InstalledVoice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb", "en"], gender: .male)],
                variants: [VoiceVariant(name: "grandma", identifier: "grandma", gender: .female), VoiceVariant(name: "male1", identifier: "m1", gender: .male)]
            ).listing(query).entries
        },
        actions: { ["skip", "repeat"] }, rotors: { ["headings", "volume"] })

    func complete(_ words: String..., socket: (@Sendable (String?) -> Void)? = nil) -> Completion.Candidates {
        Completion.complete(["narratorctl"] + words, current: words.count) { given in
            socket?(given)
            return Self.facts
        }
    }

    @Test func everyArgumentAndOptionOfTheCatalogHasASource() {
        // A new argument or option must say what completes it (free text says .text), so the
        // completion cannot silently fall behind the catalog.
        for spec in commandCatalog {
            for argument in spec.arguments {
                #expect(Completion.source(command: spec.name, argument: argument) != nil, "\(spec.name) \(argument.name)")
            }
            for option in spec.acceptedOptions where !option.isFlag {
                #expect(Completion.source(command: spec.name, option: option) != nil, "\(spec.name) \(option.name)")
            }
        }
    }

    @Test func commandsAndOptionsComeFromTheCatalog() {
        #expect(complete("").words == commandCatalog.map(\.name))
        #expect(complete("").files == .none)
        #expect(complete("--json", "s").words == commandCatalog.map(\.name).filter { $0.hasPrefix("s") })
        let stats = commandSpec(named: "stats")!
        #expect(complete("stats", "--").words == (stats.options + stats.globalOptions).map(\.name))
        #expect(complete("nosuchcommand", "").words == [])
        // Nothing left to give: the options.
        #expect(complete("next", "").words == ["--tree", "--json", "--socket", "--help"])
        // After "--" only text follows.
        #expect(complete("announce", "--", "").words == [])
    }

    /// `--version` before a command is the version command (InvocationParser reads it so): what
    /// follows are version's options, not a command (`narratorctl --version status` is a mistake).
    @Test func versionOptionIsTheVersionCommand() {
        #expect(complete("--version", "").words == ["--json", "--help"])
        #expect(complete("--version", "--").words == ["--json", "--help"])
        #expect(complete("--version", "s").words == [])
        #expect(complete("--json", "--version", "").words == ["--help"])
        #expect(complete("--").words.contains("--version"))
        #expect(!complete("status", "--").words.contains("--version"))
    }

    @Test func elementIdsOfTheTreeNamedBefore() {
        #expect(complete("focus", "").words == ["player", "mail"])
        #expect(complete("focus", "player", "").words == ["title", "play"])
        #expect(complete("focus", "player", "p").words == ["play"])
        #expect(complete("focus", "'player'", "").words == ["title", "play"])
        #expect(complete("update", "player", "c").words == ["controls"])
        #expect(complete("update", "player", "title", "--notify", "screenChanged", "--focus", "").words == ["root", "title", "controls", "play"])
        #expect(complete("announce", "--tree", "player", "--element", "r").words == ["root"])
        #expect(complete("announce", "--element", "").words == [])
        #expect(complete("show", "").words == ["player", "mail"])
        #expect(complete("show", "").files == .json)
        #expect(complete("action", "").words == ["skip", "repeat"])
        #expect(complete("rotor", "").words == ["headings", "volume"])
        #expect(complete("rotor", "headings", "").words == ["next", "previous", "first", "last"])
    }

    @Test func settingValues() {
        #expect(complete("set", "").words == SpeechSettings.keys)
        #expect(complete("set", "rate", "").words == [])
        #expect(complete("set", "punctuation", "").words == ["none", "some", "most", "all"])
        #expect(complete("set", "hints", "").words == ["on", "off"])
        // One list of values for completion and for the daemon's refusal.
        for key in ["punctuation", "hints"] {
            let choices = SpeechSettings.choices(for: key)!
            #expect(complete("set", key, "").words == choices)
            var settings = SpeechSettings()
            #expect(throws: SpeechSettingsError.outOfRange(key: key, value: "loud", allowed: choices.joined(separator: ", "))) { try settings.set(key, to: "loud") }
        }
        #expect(complete("set", "voice", "").words == ["auto", "English (Great Britain)", "gmw/en", "en-gb", "en"])
        #expect(complete("set", "voice", "en").words == ["en-gb", "en"])
        #expect(complete("announce", "--language", "").words == ["en-gb", "en"])
        #expect(complete("speak", "--language", "en-").words == ["en-gb"])
        #expect(complete("set", "voice", #"English\ \(G"#).words == ["English (Great Britain)"])
        #expect(complete("set", "voice", "\"English (G").words == ["English (Great Britain)"])
        #expect(complete("set", "voice", "'Eng").words == ["English (Great Britain)"])
        #expect(complete("replay", "t.jsonl", "--voice", "").words == ["English (Great Britain)", "gmw/en", "en-gb", "en"])
        // Variants are offered once a voice and its "+" are typed, not among 13,000 names before.
        #expect(complete("set", "voice", "\"English (Great Britain)+").words == [
            "English (Great Britain)+grandma", "English (Great Britain)+male1",
        ])
        #expect(complete("set", "voice", "\"English (Great Britain)+gr").words == ["English (Great Britain)+grandma"])
        #expect(complete("set", "voice", "gmw/en+m").words == ["gmw/en+m1"])
        #expect(complete("voices", "--language", "en-").words == ["en-gb"])
    }

    @Test func optionValuesAndFiles() {
        #expect(complete("audit", "--ignore", "").words == AuditRule.ids)
        #expect(complete("audit", "--ignore", "").files == .none)
        #expect(complete("audit", "--svg", "").files == .any)
        #expect(complete("replay", "").files == .jsonl)
        #expect(complete("replay", "t.jsonl", "--policy", "").words == ["none", "default", "strict"])
        #expect(complete("replay", "t.jsonl", "--policy", "").files == .json)
        #expect(complete("log", "--policy", "").files == .none)
        #expect(complete("register", "").files == .json)
        #expect(complete("--socket", "").files == .any)
        // "--outcome=dr" comes from bash as "--outcome", "=", "dr".
        #expect(complete("log", "--outcome", "=", "dr").words == ["dropped"])
        #expect(complete("log", "--outcome", "=").words == AnnouncementOutcome.allCases.map(\.rawValue))
        #expect(complete("log", "--outcome", "=", "dropped", "--").words.contains("--limit"))
        #expect(complete("log", "--outcome", "=", "dropped", "--").words.contains("--outcome") == false)
    }

    @Test func theDaemonIsAskedOnlyWhenNeededAndAtTheSocketOnTheLine() {
        final class Asked: @unchecked Sendable { var sockets: [String?] = [] }
        let asked = Asked()
        _ = complete("set", "rate", "", socket: { asked.sockets.append($0) })
        _ = complete("audit", "--ignore", "", socket: { asked.sockets.append($0) })
        #expect(asked.sockets.isEmpty)
        _ = complete("--socket", "/run/a.sock", "focus", "", socket: { asked.sockets.append($0) })
        _ = complete("focus", "--socket=/run/b.sock", "player", "", socket: { asked.sockets.append($0) })
        _ = complete("trees", "--socket", "/run/c.sock", "--", socket: { asked.sockets.append($0) })
        #expect(asked.sockets == ["/run/a.sock", "/run/b.sock"])
    }

    /// The --socket on the line is the path bash will pass: quotes removed, `~` and `$HOME`
    /// expanded; where that cannot be known here, no daemon is asked rather than the wrong one.
    @Test func theSocketOnTheLineIsAskedAsTheShellPassesIt() {
        func asked(_ words: String...) -> [String?] {
            var sockets: [String?] = []
            _ = Completion.complete(["narratorctl"] + words, current: words.count, environment: ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1"]) {
                sockets.append($0)
                return Self.facts
            }
            return sockets
        }
        #expect(asked("--socket", "~/n.sock", "focus", "") == ["/home/u/n.sock"])
        #expect(asked("focus", "--socket", "~", "") == ["/home/u"])
        #expect(asked("--socket", "'/run/my dir/n.sock'", "focus", "") == ["/run/my dir/n.sock"])
        #expect(asked("--socket", #"/run/my\ dir/n.sock"#, "focus", "") == ["/run/my dir/n.sock"])
        #expect(asked("--socket", "$XDG_RUNTIME_DIR/narrator/narratord.sock", "focus", "") == ["/run/user/1/narrator/narratord.sock"])
        #expect(asked("--socket", #""${HOME}/n.sock""#, "focus", "") == ["/home/u/n.sock"])
        // Quoted, or after "--socket=", bash expands no "~".
        #expect(asked("--socket", "'~/n.sock'", "focus", "") == ["~/n.sock"])
        #expect(asked("focus", "--socket=~/n.sock", "") == ["~/n.sock"])
        #expect(asked("focus", "--socket='$HOME/n.sock'", "") == ["$HOME/n.sock"])
        #expect(asked("focus", "--socket", "=", "$HOME/n.sock", "") == ["/home/u/n.sock"])
        #expect(asked("--socket", "$(pick)", "focus", "") == [])
        #expect(asked("--socket", "$unexported/n.sock", "focus", "") == [])
    }

    @Test func shellWords() {
        let environment = ["HOME": "/home/u", "A": "x y"]
        #expect(ShellWord.expanded(#""a b"'c'\ d"#, environment: environment) == "a bc d")
        #expect(ShellWord.expanded(#""\$A\n$A""#, environment: environment) == #"$A\nx y"#)
        #expect(ShellWord.expanded("~root/x", environment: environment) == "/root/x")
        #expect(ShellWord.expanded("~no-such-user-here/x", environment: environment) == "~no-such-user-here/x")
        #expect(ShellWord.expanded("a~/x", environment: environment) == "a~/x")
        #expect(ShellWord.expanded("a$", environment: environment) == "a$")
        #expect(ShellWord.expanded(#""a$""#, environment: environment) == "a$")
        #expect(ShellWord.expanded("$1", environment: environment) == nil)
        #expect(ShellWord.expanded("${A:-b}", environment: environment) == nil)
        #expect(ShellWord.expanded("`pwd`", environment: environment) == nil)
        #expect(ShellWord.expanded("$'a'", environment: environment) == nil)
    }

    /// Bash splits words at ":" as at "=" (COMP_WORDBREAKS): `focus app:main` comes as "app", ":",
    /// "main". They are put back together where the line has nothing between them, and the
    /// script is told what readline keeps (it replaces only what follows the last ":").
    @Test func wordsWithColons() {
        let facts = CompletionFacts(
            trees: { ["app:main", "app:prefs", "mail"] }, stops: { $0 == "app:main" ? ["list:1", "list:2", "ok"] : [] }, elements: { _ in [] },
            voices: { _ in [] }, actions: { [] }, rotors: { [] })
        func complete(_ line: String, _ words: String...) -> Completion.Candidates {
            Completion.complete(["narratorctl"] + words, current: words.count, line: "narratorctl " + line) { _ in facts }
        }
        var completed = complete("focus app:m", "focus", "app", ":", "m")
        #expect(completed.words == ["app:main"])
        #expect(completed.word == "app:m" && completed.keep == "app:")
        completed = complete("focus app:", "focus", "app", ":")
        #expect(completed.words == ["app:main", "app:prefs"] && completed.keep == "app:")
        // The tree named before is "app:main", not "app".
        completed = complete("focus app:main ", "focus", "app", ":", "main", "")
        #expect(completed.words == ["list:1", "list:2", "ok"] && completed.keep == "")
        completed = complete("focus app:main list:", "focus", "app", ":", "main", "list", ":")
        #expect(completed.words == ["list:1", "list:2"] && completed.keep == "list:")
        completed = complete("focus 'app':m", "focus", "'app'", ":", "m")
        #expect(completed.words == ["app:main"] && completed.keep == "app:")
        // "app: m" is two words: the tree "app:" (none), then its element.
        completed = complete("focus app: m", "focus", "app", ":", "m")
        #expect(completed.words == [] && completed.word == "m" && completed.keep == "")
        // File names complete the whole path; readline keeps what precedes the last ":".
        completed = complete("log --db /a:b", "log", "--db", "/a", ":", "b")
        #expect(completed.files == .any && completed.word == "/a:b" && completed.keep == "/a:")
        completed = complete("log --db=/a:b", "log", "--db", "=", "/a", ":", "b")
        #expect(completed.files == .any && completed.word == "/a:b" && completed.keep == "/a:")
        completed = complete("log --db=/a::", "log", "--db", "=", "/a", "::")
        #expect(completed.word == "/a::" && completed.keep == "/a::")
        completed = complete("log --db=", "log", "--db", "=")
        #expect(completed.files == .any && completed.word == "" && completed.keep == "")
        completed = complete("log --outcome=dr", "log", "--outcome", "=", "dr")
        #expect(completed.words == ["dropped"] && completed.keep == "")
        // The line does not hold these words (an older script passing another line): as if joined.
        #expect(Completion.complete(["narratorctl", "focus", "app", ":", "m"], current: 4, line: "x") { _ in facts }.words == ["app:main"])
    }

    @Test func outputIsADirectiveThenOneCandidatePerLine() {
        #expect(Completion.Candidates(words: ["a b", "c"], files: .json).output == "files:json\n\n\na b\nc\n")
        #expect(Completion.Candidates(words: ["bad\nname"], word: "app:m", keep: "app:").output == "words\napp:m\napp:\n")
        let rejoined = Completion.rejoin(["narratorctl", "log", "--db", "=", "x", "--limit", "=", "3"], current: 7)
        #expect(rejoined.before == ["log", "--db=x"])
        #expect(rejoined.word == "--limit=3")
        #expect(Completion.unquoted(#"a\ b"#) == "a b")
        #expect(Completion.unquoted("'a b") == "a b")
        #expect(Completion.unquoted("'a b':c") == "a b:c")
    }

    @Test func theScriptNeedsNoBashCompletionPackage() {
        #expect(!BashCompletion.script.contains("_init_completion"))
        #expect(!BashCompletion.script.contains("_get_comp_words_by_ref"))
        #expect(!BashCompletion.script.contains("__ltrim_colon_completions \"$"))
        // Bash's words, with an alias's words in place of its name.
        #expect(BashCompletion.script.contains("local -a words=(\"${COMP_WORDS[@]}\")"))
        #expect(BashCompletion.script.contains("__complete \"$cword\" \"${words[@]}\""))
        #expect(BashCompletion.script.hasSuffix("complete -F _narratorctl narratorctl\n"))
    }
}
