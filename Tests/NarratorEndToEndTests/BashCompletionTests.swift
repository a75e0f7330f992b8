import Foundation
import NarratorModel
import NarratorSpeechPlan
import Testing

/// The installed bash completion, run for real: a non-interactive bash sources the script (with
/// the bash-completion package loaded, and in a clean environment without it), sets COMP_WORDS,
/// COMP_CWORD, COMP_LINE and COMP_POINT as readline would, calls the completion function and
/// prints COMPREPLY. Trees and element ids come from a real daemon. One bash runs a whole batch of
/// completions, and one case runs at a time: the other suites start processes of their own.
@Suite(.serialized) struct BashCompletionTests {
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"
    static var script: String { DaemonHarness.repository + "/completions/narratorctl.bash" }
    static let separator = "\u{1e}"

    /// A shell word that bash reads back as `text`.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    /// What one bash printed for a batch of completions.
    struct Completed {
        var cases: [[String]]
        var replies: [[String]]
        var stderr: String
        var status: Int32

        /// The replies for the line `narratorctl WORDS...` (the cursor at the end of the last word).
        subscript(_ words: String...) -> [String] {
            guard let index = cases.firstIndex(of: ["narratorctl"] + words), index < replies.count else { return ["(not completed)"] }
            return replies[index]
        }
    }

    /// Completes the last word of each of `cases` (each a whole line, the program first) with
    /// `script`, all in one bash. `withPackage` loads the bash-completion package first; without it
    /// bash runs with an environment of only PATH, HOME and `environment`, so nothing of the
    /// package can leak in. `prelude` runs after the script is loaded (an alias, say).
    static func complete(
        _ cases: [[String]], script: String = script, withPackage: Bool, environment: [String: String] = [:], directory: String? = nil,
        prelude: String = ""
    ) throws -> Completed {
        var program = ""
        if withPackage {
            try #require(FileManager.default.fileExists(atPath: bashCompletion), "the bash-completion package is missing (make test-deps installs it)")
            program += "source \(bashCompletion) || exit 9\n"
        }
        if let directory { program += "cd \(quoted(directory)) || exit 9\n" }
        program += """
            source \(quoted(script)) || exit 9
            \(prelude)
            complete_line() {
                COMP_LINE=$1
                shift
                COMP_WORDS=("$@")
                COMP_CWORD=$(($# - 1))
                COMP_POINT=${#COMP_LINE}
                COMP_TYPE=9 COMP_KEY=9
                COMPREPLY=()
                _narratorctl "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                ((${#COMPREPLY[@]})) && printf '%s\\n' "${COMPREPLY[@]}"
                printf '\(separator)\\n'
            }

            """
        for words in cases { program += "complete_line " + ([line(words)] + words).map(quoted).joined(separator: " ") + "\n" }
        var env = ["PATH": DaemonHarness.binaries + ":/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path]
        env.merge(environment) { $1 }
        let run = try DaemonHarness.run("/bin/bash", ["--norc", "--noprofile", "-c", program], environment: env)
        var replies = run.stdout.components(separatedBy: separator + "\n").map { $0.split(separator: "\n").map(String.init) }
        replies.removeLast()  // after the last separator
        return Completed(cases: cases, replies: replies, stderr: run.stderr, status: run.status)
    }

    /// The line bash splits into `words`: the words of ":" and "=" alone touch their neighbours,
    /// as bash gives `--db=/a:b` as "--db", "=", "/a", ":", "b".
    static func line(_ words: [String]) -> String {
        func isBreak(_ word: String) -> Bool { !word.isEmpty && word.allSatisfy { $0 == ":" || $0 == "=" } }
        var line = ""
        for (index, word) in words.enumerated() {
            if index > 0, !isBreak(word), !isBreak(words[index - 1]) { line += " " }
            line += word
        }
        return line
    }

    /// Both ways of running bash: with the package and without.
    static let packageStates = [true, false]

    /// The command names `narratorctl help` lists.
    static func commandNames() throws -> [String] {
        let help = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["help"])
        let lines = help.stdout.components(separatedBy: "Commands:\n")[1].components(separatedBy: "\n\n")[0]
        return lines.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    }

    /// The option names `narratorctl help COMMAND` lists, for each command (one shell runs them all).
    static func optionNames(_ commands: [String]) throws -> [String: [String]] {
        let run = try DaemonHarness.run(
            "/bin/bash", ["-c", "for c in \"$@\"; do narratorctl help \"$c\"; printf '\(separator)\\n'; done", "-"] + commands,
            environment: ["PATH": DaemonHarness.binaries + ":/usr/bin:/bin"])
        let helps = run.stdout.components(separatedBy: separator + "\n")
        var options: [String: [String]] = [:]
        for (command, help) in zip(commands, helps) {
            let section = help.components(separatedBy: "Options:\n").dropFirst().first?.components(separatedBy: "\n\n")[0] ?? ""
            options[command] = section.split(separator: "\n").compactMap { line in
                let word = line.split(separator: " ").first.map(String.init) ?? ""
                return word.hasPrefix("--") ? word : nil
            }
        }
        return options
    }

    @Test(arguments: packageStates) func everyCommandAndItsOptionsFromTheCatalog(withPackage: Bool) throws {
        let commands = try Self.commandNames()
        #expect(commands.contains("replay") && commands.contains("log") && commands.contains("stats"))
        let options = try Self.optionNames(commands)
        let lines = [["narratorctl", ""], ["narratorctl", "re"], ["narratorctl", "st"], ["narratorctl", "--"], ["narratorctl", "--json", "help", "rep"],
            ["narratorctl", "replay", "--db", "x.db", "--policy", "none", "--"], ["narratorctl", "--version", ""]] + commands.map { ["narratorctl", $0, "--"] }
        let completed = try Self.complete(lines, withPackage: withPackage)
        #expect(completed.stderr == "", "\(completed.stderr)")
        #expect(Set(completed[""]) == Set(commands))
        #expect(completed["re"].sorted() == ["register", "replay"])
        #expect(completed["st"].sorted() == ["stats", "status", "stop"])
        for command in commands {
            #expect(!(options[command] ?? []).isEmpty, "\(command)")
            #expect(Set(completed[command, "--"]) == Set(options[command] ?? []), "\(command)")
        }
        // Options given once are not offered again; repeatable ones are.
        let again = completed["replay", "--db", "x.db", "--policy", "none", "--"]
        #expect(!again.contains("--db") && again.contains("--policy"))
        // Global options before the command, and help's topics.
        #expect(completed["--"].sorted() == ["--help", "--json", "--socket", "--version"])
        #expect(completed["--json", "help", "rep"] == ["replay"])
        // --version is the version command: its options follow, not commands.
        #expect(completed["--version", ""] == ["--json", "--help"])
    }

    @Test(arguments: packageStates) func valuesOfSettingsRulesAndChoices(withPackage: Bool) throws {
        let lines: [[String]] = [
            ["set", ""], ["get", "hint"], ["set", "rate", ""], ["set", "punctuation", ""], ["set", "hints", "o"], ["audit", "--ignore", ""],
            ["audit", "--ignore", "sm"], ["audit", "examples/player.json", "--fail-on", ""], ["announce", "--priority", "h"],
            ["log", "--outcome", "th"], ["adjust", ""], ["rotor", "headings", "p"], ["completion", ""], ["log", "--outcome", "=", "dr"],
            ["log", "--outcome", "="], ["speak", "hel"],
        ]
        let completed = try Self.complete(lines.map { ["narratorctl"] + $0 }, withPackage: withPackage)
        #expect(completed.stderr == "", "\(completed.stderr)")
        #expect(completed["set", ""].sorted() == SpeechSettings.keys.sorted())
        #expect(completed["get", "hint"].sorted() == ["hint-delay", "hints"])
        #expect(completed["set", "rate", ""] == [])
        #expect(completed["set", "punctuation", ""] == ["none", "some", "most", "all"])
        #expect(completed["set", "hints", "o"].sorted() == ["off", "on"])
        #expect(completed["audit", "--ignore", ""].sorted() == AuditRule.ids.sorted())
        #expect(completed["audit", "--ignore", "sm"] == ["small-target"])
        #expect(completed["audit", "examples/player.json", "--fail-on", ""].sorted() == ["error", "warning"])
        #expect(completed["announce", "--priority", "h"] == ["high"])
        #expect(completed["log", "--outcome", "th"] == ["throttled"])
        #expect(completed["adjust", ""] == ["up", "down"])
        #expect(completed["rotor", "headings", "p"] == ["previous"])
        #expect(completed["completion", ""] == ["bash"])
        // --opt=value: bash hands over "--outcome", "=", "dr".
        #expect(completed["log", "--outcome", "=", "dr"] == ["dropped"])
        #expect(completed["log", "--outcome", "="].count == AnnouncementOutcome.allCases.count)
        // Free text offers nothing, not file names.
        #expect(completed["speak", "hel"] == [])
    }

    @Test(arguments: packageStates) func fileNamesWhereAFileIsWanted(withPackage: Bool) throws {
        let lines: [[String]] = [
            ["register", "examples/pl"], ["replay", "examples/traces/ch"], ["replay", "examples/"], ["replay", "--policy", ""],
            ["replay", "--policy", "st"], ["replay", "x.jsonl", "--timeline", "examples/traces/sl"],
            ["replay", "x.jsonl", "--db", "=", "examples/traces/sl"], ["show", "examples/seg"],
        ]
        let completed = try Self.complete(lines.map { ["narratorctl"] + $0 }, withPackage: withPackage, directory: DaemonHarness.repository)
        #expect(completed.stderr == "", "\(completed.stderr)")
        #expect(completed["register", "examples/pl"] == ["examples/player.json"])
        #expect(Set(completed["replay", "examples/traces/ch"]) == ["examples/traces/chat-burst.jsonl", "examples/traces/chat-burst-recorded.jsonl"])
        // A trace is JSON lines: tree documents are not offered.
        #expect(completed["replay", "examples/"].contains("examples/traces"))
        #expect(!completed["replay", "examples/"].contains("examples/player.json"))
        #expect(Set(["none", "default", "strict"]).isSubset(of: completed["replay", "--policy", ""]))
        #expect(completed["replay", "--policy", "st"] == ["strict"])
        #expect(completed["replay", "x.jsonl", "--timeline", "examples/traces/sl"] == ["examples/traces/slider-drag.jsonl"])
        #expect(completed["replay", "x.jsonl", "--db", "=", "examples/traces/sl"] == ["examples/traces/slider-drag.jsonl"])
        #expect(completed["show", "examples/seg"] == ["examples/segmented.json"])
    }

    @Test(arguments: packageStates) func treesElementIdsAndVoicesFromARunningDaemon(withPackage: Bool) throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("register", "examples/player.json").status == 0)
        // The stops as show --json lists them (the protocol's reply, or a bare array).
        let shown = try JSONSerialization.jsonObject(with: Data(try daemon.ctl("show", "--json", "player").stdout.utf8))
        let stops = try #require(shown as? [[String: Any]] ?? (shown as? [String: Any])?["stops"] as? [[String: Any]])
        let ids = stops.compactMap { $0["id"] as? String }
        #expect(ids.count > 2)
        let voices = try daemon.ctl("--json", "voices")
        let installed = try #require(
            (try JSONSerialization.jsonObject(with: Data(voices.stdout.utf8)) as? [String: Any])?["voices"] as? [[String: Any]])
        let english = try #require(installed.first { ($0["name"] as? String)?.contains(" ") == true && ($0["name"] as? String)?.hasPrefix("English") == true })
        let name = english["name"] as! String, identifier = english["identifier"] as! String
        let language = try #require((english["languages"] as? [String])?.first)
        let typed = String(name.prefix(10)), prefix = String(ids[1].prefix(3))
        let escaped = typed.replacingOccurrences(of: " ", with: #"\ "#).replacingOccurrences(of: "(", with: #"\("#)

        let lines: [[String]] = [
            ["focus", ""], ["unregister", "pl"], ["next", "--tree", ""], ["focus", "player", ""], ["focus", "player", prefix],
            ["update", "player", ""], ["announce", "--tree", "player", "--element", ""], ["set", "voice", ""],
            ["set", "voice", String(identifier.dropLast())], ["set", "voice", "\"" + typed], ["set", "voice", escaped],
            ["replay", "x.jsonl", "--voice", identifier], ["rotor", ""], ["set", "voice", language], ["announce", "--language", ""],
            ["speak", "--language", language],
        ]
        let completed = try Self.complete(lines.map { ["narratorctl"] + $0 }, withPackage: withPackage, environment: ["NARRATOR_SOCKET": daemon.socket])
        #expect(completed.stderr == "", "\(completed.stderr)")
        #expect(completed["focus", ""] == ["player"])
        #expect(completed["unregister", "pl"] == ["player"])
        #expect(completed["next", "--tree", ""] == ["player"])
        // The element ids of the tree named before, not the trees again.
        #expect(completed["focus", "player", ""] == ids)
        #expect(completed["focus", "player", prefix] == ids.filter { $0.hasPrefix(prefix) })
        // update takes any element, focus stop or not; announce --element is about --tree's tree.
        let everything = completed["update", "player", ""]
        #expect(Set(ids).isSubset(of: everything) && everything.contains("root"))
        #expect(completed["announce", "--tree", "player", "--element", ""] == everything)
        // Voices: names, identifiers and language codes (a language names its voice). Names are
        // given as they are; readline quotes them (compopt -o filenames, which only works while
        // readline completes, so not here).
        let voiceReplies = completed["set", "voice", ""]
        #expect(voiceReplies.first == "auto")
        #expect(voiceReplies.contains(name) && voiceReplies.contains(identifier) && voiceReplies.contains(language), "\(voiceReplies.prefix(12))")
        #expect(completed["set", "voice", language].contains(language))
        // --language takes the voices' language codes, once each.
        let languages = completed["announce", "--language", ""]
        #expect(languages.contains(language) && !languages.contains(name) && Set(languages).count == languages.count)
        #expect(completed["speak", "--language", language].contains(language))
        #expect(completed["set", "voice", String(identifier.dropLast())].contains(identifier))
        // What was typed so far is matched unquoted, however it was quoted.
        #expect(completed["set", "voice", "\"" + typed].contains(name))
        #expect(completed["set", "voice", escaped].contains(name))
        #expect(completed["replay", "x.jsonl", "--voice", identifier].contains(identifier))
        // Nothing is focused yet: no rotors, and no error either.
        #expect(completed["rotor", ""] == [])

        // --socket on the line wins over the environment; the focused element's actions, and the rotors.
        #expect(try daemon.ctl("focus", "player", "play").status == 0)
        let rotors = try daemon.ctl("--json", "rotor")
        let names = try #require((try JSONSerialization.jsonObject(with: Data(rotors.stdout.utf8)) as? [String: Any])?["rotors"] as? [[String: Any]])
            .compactMap { $0["name"] as? String }
        #expect(!names.isEmpty)
        let focused = try Self.complete(
            [["narratorctl", "--socket", daemon.socket, "focus", "player", ""], ["narratorctl", "action", ""], ["narratorctl", "rotor", ""]],
            withPackage: withPackage, environment: ["NARRATOR_SOCKET": "/nonexistent.sock"])
        #expect(focused.replies.first == ids)
        // A --socket as typed, "~" and quotes and all: the daemon at the path the shell will pass.
        let home = try Self.complete(
            [["narratorctl", "--socket", "~/narratord.sock", "focus", ""], ["narratorctl", "focus", "--socket", #""$HOME/narratord.sock""#, ""]],
            withPackage: withPackage, environment: ["NARRATOR_SOCKET": "/nonexistent.sock", "HOME": daemon.directory])
        #expect(home.replies == [["player"], ["player"]])
        #expect(home.stderr == "")
        let actions = try Self.complete(
            [["narratorctl", "action", ""], ["narratorctl", "rotor", ""]], withPackage: withPackage, environment: ["NARRATOR_SOCKET": daemon.socket])
        #expect(actions["action", ""] == ["skip", "repeat"])
        #expect(actions["rotor", ""] == names)
        #expect(actions.stderr == "" && focused.stderr == "")
    }

    /// Tree names, element ids and paths with ":" in them, which bash splits words at: the
    /// candidates are for the whole word, less what readline keeps (it replaces only what
    /// follows the last ":").
    @Test(arguments: packageStates) func wordsWithColons(withPackage: Bool) throws {
        let daemon = try DaemonHarness()
        let document = #"{"tree": "app:main", "root": {"id": "root", "children": [{"id": "list:1", "label": "One", "traits": ["button"]}, {"id": "list:2", "label": "Two", "traits": ["button"]}, {"id": "ok", "label": "OK", "traits": ["button"]}]}}"#
        let files = daemon.directory + "/files"
        try FileManager.default.createDirectory(atPath: files + "/d:x", withIntermediateDirectories: true)
        for name in ["a:b.json", "a:c.json", "a.jsonl"] { _ = FileManager.default.createFile(atPath: files + "/" + name, contents: Data(document.utf8)) }
        #expect(try daemon.ctl("register", files + "/a:b.json").status == 0)
        let lines: [[String]] = [
            ["focus", "app", ":", "m"], ["focus", "app", ":"], ["focus", "app", ":", "main", ""], ["focus", "app", ":", "main", "list", ":"],
            ["focus", "app", ":", "main", "o"], ["register", files + "/a", ":"], ["register", files + "/a", ":", "b"], ["register", files + "/d", ":"],
            ["log", "--db", files + "/a", ":", "c"], ["log", "--db", "=", files + "/a", ":", "c"], ["log", "--outcome", "=", "dr"],
        ]
        let completed = try Self.complete(lines.map { ["narratorctl"] + $0 }, withPackage: withPackage, environment: ["NARRATOR_SOCKET": daemon.socket])
        #expect(completed.stderr == "", "\(completed.stderr)")
        #expect(completed["focus", "app", ":", "m"] == ["main"])
        #expect(completed["focus", "app", ":"] == ["main"])
        #expect(completed["focus", "app", ":", "main", ""] == ["list:1", "list:2", "ok"])
        #expect(completed["focus", "app", ":", "main", "list", ":"] == ["1", "2"])
        #expect(completed["focus", "app", ":", "main", "o"] == ["ok"])
        #expect(completed["register", files + "/a", ":"].sorted() == ["b.json", "c.json"])
        #expect(completed["register", files + "/a", ":", "b"] == ["b.json"])
        #expect(completed["register", files + "/d", ":"] == ["x/"])
        #expect(completed["log", "--db", files + "/a", ":", "c"] == ["c.json"])
        #expect(completed["log", "--db", "=", files + "/a", ":", "c"] == ["c.json"])
        #expect(completed["log", "--outcome", "=", "dr"] == ["dropped"])
    }

    /// `alias narratorctl=.build/debug/narratorctl`, as the README's tour has it: the aliased
    /// narratorctl is asked, not the one on PATH (here an older build that knows other commands),
    /// with the words the alias adds; "~" in the alias is the home directory.
    @Test(arguments: packageStates) func anAliasIsTheProgramAsked(withPackage: Bool) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-alias-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/old", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch + "/home/bin", withIntermediateDirectories: true)
        let stale = scratch + "/old/narratorctl"
        try "#!/bin/sh\nprintf 'words\\n\\n\\nstale-build\\n'\n".write(toFile: stale, atomically: true, encoding: .utf8)
        chmod(stale, 0o755)
        try FileManager.default.createSymbolicLink(atPath: scratch + "/home/bin/narratorctl", withDestinationPath: DaemonHarness.binaries + "/narratorctl")
        let path = ["PATH": scratch + "/old:/usr/bin:/bin", "HOME": scratch + "/home"]
        let relative = try Self.complete(
            [["narratorctl", "rep"], ["narratorctl", ""]], withPackage: withPackage, environment: path, directory: scratch + "/home",
            prelude: "alias narratorctl=bin/narratorctl")
        #expect(relative.replies.first == ["replay"])
        #expect(relative.replies.last == (try Self.commandNames()))
        let home = try Self.complete(
            [["narratorctl", "rep"]], withPackage: withPackage, environment: path, prelude: "alias narratorctl='~/bin/narratorctl'")
        #expect(home.replies == [["replay"]])
        // The alias's words are on the line: after --version, version's options.
        let words = try Self.complete(
            [["narratorctl", ""]], withPackage: withPackage, environment: path, prelude: "alias narratorctl='~/bin/narratorctl --version'")
        #expect(words.replies == [["--json", "--help"]])
        // Without an alias, the narratorctl on PATH, which is what runs.
        let onPath = try Self.complete([["narratorctl", "rep"]], withPackage: withPackage, environment: path)
        #expect(onPath.replies == [["stale-build"]])
        #expect(relative.stderr == "" && home.stderr == "" && words.stderr == "" && onPath.stderr == "")
    }

    /// "~" in a file name, with the bash-completion package or without it.
    @Test(arguments: packageStates) func fileNamesUnderTheHomeDirectory(withPackage: Bool) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-home-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/trees", withIntermediateDirectories: true)
        for name in ["tree.json", "trace.jsonl", "trees/player.json"] { _ = FileManager.default.createFile(atPath: home + "/" + name, contents: Data()) }
        let lines: [[String]] = [["register", "~/tr"], ["register", "~/trees/"], ["replay", "~/tr"], ["register", "~roo"], ["register", "~"]]
        let completed = try Self.complete(lines.map { ["narratorctl"] + $0 }, withPackage: withPackage, environment: ["HOME": home])
        #expect(completed.stderr == "", "\(completed.stderr)")
        #expect(completed["register", "~/tr"].sorted() == ["~/tree.json", "~/trees"])
        #expect(completed["register", "~/trees/"] == ["~/trees/player.json"])
        #expect(completed["replay", "~/tr"].sorted() == ["~/trace.jsonl", "~/trees"])
        // A user's home directory, by name.
        #expect(completed["register", "~roo"].contains("~root"))
        #expect(completed["register", "~"].contains("~root"))
    }

    @Test(arguments: packageStates) func silentWithoutADaemon(withPackage: Bool) throws {
        let environment = ["NARRATOR_SOCKET": FileManager.default.temporaryDirectory.path + "/no-such-narratord.sock"]
        let lines: [[String]] = [["focus", ""], ["focus", "player", ""], ["set", "voice", ""], ["announce", "--tree", ""], ["action", ""]]
        let completed = try Self.complete(lines.map { ["narratorctl"] + $0 }, withPackage: withPackage, environment: environment)
        #expect(completed.status == 0)
        #expect(completed.stderr == "", "\(completed.stderr)")
        for (words, replies) in zip(lines, completed.replies) {
            #expect(replies == (words == ["set", "voice", ""] ? ["auto"] : []), "\(words)")
        }
        #expect(completed.replies.count == lines.count)
    }

    @Test func theCommittedScriptIsWhatNarratorctlPrints() throws {
        let printed = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["completion", "bash"])
        #expect(printed.status == 0)
        #expect(printed.stdout == (try String(contentsOfFile: Self.script, encoding: .utf8)), "regenerate completions/narratorctl.bash with narratorctl completion bash")
        #expect(!printed.stdout.contains("_init_completion"))
        #expect(try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["completion", "zsh"]).status == 2)
    }

    @Test func theInstalledScriptCompletes() throws {
        let destdir = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-complete-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let install = try DaemonHarness.run(
            "/usr/bin/make", ["-s", "install-files", "DESTDIR=" + destdir, "PREFIX=/usr", "BIN=" + DaemonHarness.binaries])
        #expect(install.status == 0, "\(install.stderr)")
        let installed = destdir + "/usr/share/bash-completion/completions/narratorctl"
        for withPackage in Self.packageStates {
            let completed = try Self.complete([["narratorctl", "rep"]], script: installed, withPackage: withPackage)
            #expect(completed.replies == [["replay"]], "with the package: \(withPackage)")
            #expect(completed.stderr == "", "\(completed.stderr)")
        }
    }
}
