import NarratorCommandLine
import NarratorSpeechPlan

/// Shell completion from the command catalog: `narratorctl __complete CWORD WORDS...` prints the
/// candidates for the word at CWORD of a command line (bash's `COMP_CWORD` and `COMP_WORDS`), so
/// the completion script never lists a command or an option itself and cannot drift from the parser.
///
/// Output: a first line saying whether file names are wanted too (`words`, `files`, `files:json`,
/// `files:jsonl`), a line with the word being completed (``Candidates/word``), a line with the
/// part of it that readline keeps (``Candidates/keep``), then one candidate per line, unquoted;
/// the script adds the file names, strips what readline keeps and quotes. Pure, given what the
/// daemon knows (``CompletionFacts``) and the line.
enum Completion {
    /// File names to offer beside the words.
    enum Files: String, Equatable, Sendable {
        case none = "words"
        case any = "files"
        case json = "files:json"
        case jsonl = "files:jsonl"
    }

    struct Candidates: Equatable, Sendable {
        var words: [String] = []
        var files: Files = .none
        /// The word being completed as typed, with what bash split off at ":" and "=" put back
        /// (`app:ma`, not `ma`); after `--option=`, the value. File names complete it.
        var word: String?
        /// The start of ``word`` that readline keeps, unquoted (`app:`): bash split it off at ":"
        /// or "=" and replaces only the rest, so every candidate loses it (what bash-completion's
        /// `__ltrim_colon_completions` does).
        var keep = ""

        /// What `__complete` prints.
        var output: String {
            let header = [files.rawValue, word ?? "", keep].map { $0.contains("\n") ? "" : $0 }
            return (header + words.filter { !$0.contains("\n") }).map { $0 + "\n" }.joined()
        }
    }

    /// Which tree a list of element ids is about.
    enum TreeReference: Equatable, Sendable {
        /// The command's positional argument at this index (`focus TREE ELEMENT`).
        case positional(Int)
        /// An option's value (`announce --tree TREE --element ID`).
        case option(String)
    }

    /// Where the candidates for an argument or an option's value come from.
    enum Source: Equatable, Sendable {
        /// Free text (what to say, a number, JSON): nothing to offer.
        case text
        case words([String])
        case files(Files)
        /// The registered trees' names, and files when the argument may be either.
        case trees(orFiles: Files)
        /// The focus stops of a tree (`focus TREE ELEMENT`): the ids `show` lists.
        case stops(TreeReference)
        /// Every element id of a tree, stop or not (`update TREE ELEMENT`).
        case elements(TreeReference)
        /// Installed voices by name, identifier and language code (a language names its voice),
        /// after `extra` words; once the word holds a "+", that voice with each variant.
        case voices(extra: [String])
        /// The language codes of the installed voices.
        case languages
        /// The focused element's custom actions.
        case actions
        /// The rotors of the focused tree.
        case rotors
        /// The commands' names.
        case commands
        /// The values of the setting named by the first argument (`set KEY VALUE`).
        case settingValues
        /// Built-in policy names, and policy files.
        case policies(files: Bool)
    }

    /// The options accepted before the command (as InvocationParser reads them).
    static var globalOptions: [OptionSpec] { GlobalOption.specs }

    /// Where a positional argument's candidates come from: its choices, else by command and
    /// argument name; nil for an argument this table does not know (a test checks there is none
    /// in the catalog).
    static func source(command: String, argument spec: ArgumentSpec) -> Source? {
        if let choices = spec.choices { return .words(choices) }
        return switch (command, spec.name) {
        case (_, "FILE|TREE"): .trees(orFiles: .json)
        case ("register", "FILE"): .files(.json)
        case (_, "TREE"): .trees(orFiles: .none)
        case ("focus", "ELEMENT"): .stops(.positional(0))
        case (_, "ELEMENT"): .elements(.positional(0))
        case ("replay", "TRACE"), ("experiment", "TRACE"): .files(.jsonl)
        case ("experiment", "SPEC.json"): .files(.json)
        case ("help", "COMMAND"): .commands
        case ("rotor", "NAME"): .rotors
        case ("action", "NAME"): .actions
        case ("set", "VALUE"): .settingValues
        case ("touch", "X"), ("touch", "Y"), (_, "TEXT"): .text
        default: nil
        }
    }

    /// Where an option's value comes from; nil for an option this table does not know.
    static func source(command: String?, option: OptionSpec) -> Source? {
        if let choices = option.choices { return .words(choices) }
        switch (command, option.name) {
        case (_, "--socket"), (_, "--db"), (_, "--svg"), (_, "--timeline"), (_, "--plot"), (_, "--csv"), ("keys", "--file"): return .files(.any)
        case ("replay", "--policy"): return .policies(files: true)
        case (_, "--policy"): return .policies(files: false)
        case (_, "--tree"): return .trees(orFiles: .none)
        case ("announce", "--element"): return .elements(.option("--tree"))
        case ("update", "--focus"): return .elements(.positional(0))
        case ("replay", "--voice"), ("experiment", "--voice"): return .voices(extra: [])
        case (_, "--language"): return .languages
        case ("update", "--set"), ("update", "--children"), ("update", "--edit"), ("update", "--caret"), ("update", "--title"), ("announce", "--key"), ("replay", "--rate"), ("experiment", "--rate"), (_, "--late"), (_, "--rerun"), (_, "--since"), (_, "--until"),
            (_, "--limit"), (_, "--experiment"), (_, "--client"), ("voices", "--name"), ("voices", "--offset"),
            ("voices", "--engine"):
            return .text
        default: return nil
        }
    }

    /// The candidates for the word at `current` of `words` (bash's COMP_WORDS, the program first),
    /// given the `line` they come from (bash's COMP_LINE, to tell `a:b` from `a: b`).
    /// `facts` is asked for the daemon's trees, elements, voices... with the `--socket` given on
    /// the line as the shell will pass it (`~` and `$HOME` expanded from `environment`, quotes
    /// removed), and only when the word needs them; not at all when that path cannot be known here.
    static func complete(
        _ words: [String], current: Int, line: String? = nil, environment: [String: String] = [:],
        facts: @escaping (_ socket: String?) -> CompletionFacts
    ) -> Candidates {
        let (before, word, typed) = rejoin(words, current: current, line: line)
        var candidates = complete(before: before, word: word, environment: environment, facts: facts)
        let completed = candidates.word ?? word
        candidates.word = completed
        // What precedes the part bash gave as the current word (a word of ":" or "=" alone
        // stands for nothing typed yet).
        let replaced = typed.allSatisfy(isWordBreak) ? "" : typed
        let scalars = Array(completed.unicodeScalars), tail = Array(replaced.unicodeScalars)
        if scalars.count >= tail.count, Array(scalars.suffix(tail.count)) == tail {
            candidates.keep = unquoted(String(String.UnicodeScalarView(scalars.dropLast(tail.count))))
        }
        return candidates
    }

    private static func complete(
        before: [String], word: String, environment: [String: String], facts: @escaping (_ socket: String?) -> CompletionFacts
    ) -> Candidates {
        let cur = unquoted(word)

        // The options and arguments before the word.
        var socket: String??
        var command: CommandSpec?
        var pending: OptionSpec?
        var positionals: [String] = []
        var given: [String: [String]] = [:]
        var optionsEnded = false
        for token in before {
            if let option = pending {
                given[option.name, default: []].append(token)
                if option.name == "--socket" { socket = ShellWord.expanded(token, environment: environment) }
                pending = nil
                continue
            }
            let options = command?.acceptedOptions ?? Self.globalOptions
            if !optionsEnded, token.hasPrefix("-"), token != "-" {
                if token == "--" {
                    if command != nil { optionsEnded = true }
                    continue
                }
                let name = token.split(separator: "=", maxSplits: 1).first.map(String.init) ?? token
                // `--version` is the version command, as InvocationParser reads it.
                if command == nil, let standsFor = GlobalOption.named(name)?.command {
                    command = commandSpec(named: standsFor)
                    continue
                }
                guard let spec = options.first(where: { $0.name == name || $0.aliases.contains(name) }) else { continue }
                if let equals = token.firstIndex(of: "=") {
                    let value = String(token[token.index(after: equals)...])
                    given[spec.name, default: []].append(value)
                    // Bash expands no `~` after "--socket=".
                    if spec.name == "--socket" { socket = ShellWord.expanded(value, environment: environment, tilde: false) }
                } else if spec.isFlag {
                    given[spec.name, default: []].append("")
                } else {
                    pending = spec
                }
                continue
            }
            if command == nil {
                guard let spec = commandSpec(named: token) else { return Candidates() }
                command = spec
            } else {
                positionals.append(token)
            }
        }
        let ask: () -> CompletionFacts = switch socket {
        case .none: { facts(nil) }
        case .some(.some(let path)): { facts(path) }
        case .some(.none): { .none }  // a --socket whose path cannot be known here: which daemon is meant is not known either
        }
        var context = Context(command: command, positionals: positionals, given: given, makeFacts: ask)

        // The value of an option: "--db=PAT" (bash gives the part after "=" as the word to
        // replace) or the word after one that takes a value.
        if !optionsEnded, word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            let name = String(word[..<equals])
            let options = command?.acceptedOptions ?? Self.globalOptions
            let value = String(word[word.index(after: equals)...])
            guard let spec = options.first(where: { $0.name == name }), !spec.isFlag else { return Candidates(word: value) }
            var candidates = context.resolve(source(command: command?.name, option: spec) ?? .text, prefix: unquoted(value))
            candidates.word = value
            return candidates
        }
        if let option = pending {
            return context.resolve(source(command: command?.name, option: option) ?? .text, prefix: cur)
        }
        guard let command else {
            if word.hasPrefix("-") { return Candidates(words: matching(globalOptions.map(\.name), cur)) }
            return Candidates(words: matching(commandCatalog.map(\.name), cur))
        }
        // The options help lists for the command, less those given already that cannot repeat.
        let options = (command.options + command.globalOptions).filter { $0.repeatable || given[$0.name] == nil }.map(\.name)
        if !optionsEnded, word.hasPrefix("-") {
            return Candidates(words: matching(options, cur))
        }
        // A positional argument; where there is none to give, or it is free text, the options.
        let index = positionals.count
        guard let argument = index < command.arguments.count ? command.arguments[index] : command.arguments.last.flatMap({ $0.variadic ? $0 : nil })
        else {
            return Candidates(words: optionsEnded ? [] : matching(options, cur))
        }
        let argumentSource = source(command: command.name, argument: argument) ?? .text
        if argumentSource == .text { return Candidates(words: optionsEnded || !cur.isEmpty ? [] : options) }
        return context.resolve(argumentSource, prefix: cur)
    }

    /// The characters bash's COMP_WORDBREAKS splits words at that completion puts back.
    static func isWordBreak(_ character: Character) -> Bool { character == ":" || character == "=" }

    /// Bash splits words at ":" and "=" (COMP_WORDBREAKS): `--db=/a:b` comes as `--db`, `=`, `/a`,
    /// `:`, `b`, and `app:main` as `app`, `:`, `main`; a run of them (`::`) is a word of its own.
    /// Puts such words back together where nothing separated them on the `line` (bash's COMP_LINE;
    /// without it, every word of ":" and "=" is taken as joined to both neighbours). Returns the
    /// words before the current one (the program left out), the current one, and the part of it
    /// bash gave as the current word (what readline replaces).
    static func rejoin(_ words: [String], current: Int, line: String? = nil) -> (before: [String], word: String, typed: String) {
        var words = words
        while words.count <= current { words.append("") }
        let glued = line.flatMap { adjacency(of: words, in: $0) }
        func isBreak(_ word: String) -> Bool { !word.isEmpty && word.allSatisfy(isWordBreak) }
        var merged: [String] = []
        for index in 0...current {
            let word = words[index]
            let touching = glued.map { index < $0.count && $0[index] } ?? true
            if index > 1, touching, isBreak(word) || isBreak(words[index - 1]) {
                merged[merged.count - 1] += word
            } else {
                merged.append(word)
            }
        }
        let word = merged.removeLast()
        return (Array(merged.dropFirst()), word, words[current])
    }

    /// For each word, whether it follows the one before with nothing between them on the line
    /// (the first word: false); nil when the words are not the line's.
    static func adjacency(of words: [String], in line: String) -> [Bool]? {
        var rest = Substring(line).unicodeScalars[...]
        var glued: [Bool] = []
        for word in words {
            let start = rest.firstIndex { $0 != " " && $0 != "\t" && $0 != "\n" } ?? rest.endIndex
            let spaced = start != rest.startIndex
            rest = rest[start...]
            guard rest.starts(with: word.unicodeScalars) else { return nil }
            glued.append(!glued.isEmpty && !spaced)
            rest = rest.dropFirst(word.unicodeScalars.count)
        }
        return glued
    }

    /// The text a word stands for, as typed so far: its quotes (an unclosed one too) removed,
    /// its backslash escapes undone.
    static func unquoted(_ word: String) -> String { ShellWord.removingQuotes(word) }

    static func matching(_ candidates: [String], _ prefix: String) -> [String] {
        var seen = Set<String>()
        return candidates.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
    }

    /// What is known about the line, to resolve a source.
    struct Context {
        var command: CommandSpec?
        var positionals: [String]
        var given: [String: [String]]
        /// Asks the daemon the line names.
        var makeFacts: () -> CompletionFacts
        private var facts: CompletionFacts?

        init(command: CommandSpec?, positionals: [String], given: [String: [String]], makeFacts: @escaping () -> CompletionFacts) {
            self.command = command
            self.positionals = positionals
            self.given = given
            self.makeFacts = makeFacts
        }

        /// The daemon's facts, made once and only when a source needs them.
        private mutating func daemon() -> CompletionFacts {
            if let facts { return facts }
            let made = makeFacts()
            facts = made
            return made
        }

        private func tree(_ reference: TreeReference) -> String? {
            switch reference {
            case .positional(let index): index < positionals.count ? unquoted(positionals[index]) : nil
            case .option(let name): given[name]?.last.map(unquoted)
            }
        }

        mutating func resolve(_ source: Source, prefix: String) -> Candidates {
            switch source {
            case .text:
                return Candidates()
            case .words(let words):
                return Candidates(words: matching(words, prefix))
            case .files(let files):
                return Candidates(files: files)
            case .trees(let files):
                return Candidates(words: matching(daemon().trees(), prefix), files: files)
            case .stops(let reference):
                guard let tree = tree(reference) else { return Candidates() }
                return Candidates(words: matching(daemon().stops(tree), prefix))
            case .elements(let reference):
                guard let tree = tree(reference) else { return Candidates() }
                return Candidates(words: matching(daemon().elements(tree), prefix))
            case .voices(let extra):
                // 13,000 voice+variant names would swamp the shell: the variants come once a voice is typed.
                if let plus = prefix.lastIndex(of: "+") {
                    let voice = String(prefix[..<plus])
                    let variants = daemon().voices(VoiceQuery(name: voice + "+", variants: true)).filter { $0.variant != nil }
                    return Candidates(words: matching(variants.map(\.name) + variants.map(\.identifier), prefix))
                }
                let voices = daemon().voices(VoiceQuery())
                return Candidates(words: matching(extra + voices.map(\.name) + voices.map(\.identifier) + voices.flatMap(\.languages), prefix))
            case .languages:
                return Candidates(words: matching(daemon().voices(VoiceQuery()).flatMap(\.languages), prefix))
            case .actions:
                return Candidates(words: matching(daemon().actions(), prefix))
            case .rotors:
                return Candidates(words: matching(daemon().rotors(), prefix))
            case .commands:
                return Candidates(words: matching(commandCatalog.map(\.name), prefix))
            case .settingValues:
                guard let key = positionals.first.map(unquoted) else { return Candidates() }
                if key == "voice" { return resolve(.voices(extra: [SpeechSettings.automaticVoice]), prefix: prefix) }
                return Candidates(words: matching(SpeechSettings.choices(for: key) ?? [], prefix))
            case .policies(let files):
                return Candidates(words: matching(AnnouncementPolicy.builtIns.map(\.name), prefix), files: files ? .json : .none)
            }
        }
    }
}

/// What completion asks of the daemon. Each answer is empty when no daemon answers.
struct CompletionFacts: Sendable {
    var trees: @Sendable () -> [String]
    /// The focus stops of a tree, in reading order.
    var stops: @Sendable (_ tree: String) -> [String]
    /// Every element id of a tree.
    var elements: @Sendable (_ tree: String) -> [String]
    /// The voices (and variants) a query keeps.
    var voices: @Sendable (_ query: VoiceQuery) -> [ListedVoice]
    /// The focused element's custom actions.
    var actions: @Sendable () -> [String]
    var rotors: @Sendable () -> [String]

    /// Knows nothing: no daemon.
    static let none = CompletionFacts(trees: { [] }, stops: { _ in [] }, elements: { _ in [] }, voices: { _ in [] }, actions: { [] }, rotors: { [] })
}
