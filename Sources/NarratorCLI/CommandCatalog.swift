import NarratorCommandLine

/// One command's name, help and argument grammar, and how to build the typed `Command`.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var discussion: String = ""
    /// Whether `--json` changes what it prints.
    var printsJSON = true
    /// When it connects to narratord, and so takes `--socket`.
    var connects = Connection.always
    var build: @Sendable (ParsedArguments) throws(UsageError) -> Command

    enum Connection: Sendable {
        case always
        /// Only when its argument names a registered tree rather than a file (`show`, `audit`).
        case forRegisteredTree
        /// To ask the daemon where its log is (`log`, `stats`).
        case forTheLogPath
        case never
    }

    /// The global options this command uses: `--json` and `--socket` where they apply, and `--help`
    /// (``GlobalOption``, with help about this command). Help lists exactly these. The parser also
    /// takes `--socket` for a command that never connects (it says where narratord is, which such a
    /// command does not need), so that an alias or a script that always passes it works for every command.
    var globalOptions: [OptionSpec] {
        func global(_ option: GlobalOption, help: String? = nil) -> OptionSpec {
            var spec = option.spec
            if let help { spec.help = help }
            return spec
        }
        var options: [OptionSpec] = []
        if printsJSON { options.append(global(.json)) }
        let defaults = GlobalOption.socketDefaults
        switch connects {
        case .always: options.append(global(.socket))
        case .forRegisteredTree: options.append(global(.socket, help: "the daemon's socket, for a registered tree's name " + defaults))
        case .forTheLogPath: options.append(global(.socket, help: "the daemon to ask where its log is when --db is not given " + defaults))
        case .never: break
        }
        options.append(global(.help, help: "show help for this command"))
        return options
    }

    /// The options the parser accepts: the command's own and its global ones, and `--socket` always.
    var acceptedOptions: [OptionSpec] {
        var unused = GlobalOption.socket.spec
        unused.help = "not used: this command works offline"
        return options + globalOptions + (connects == .never ? [unused] : [])
    }

    /// Why a global option it does not use is refused, by the option's name.
    var inapplicableGlobals: [String: String] {
        printsJSON ? [:] : ["--json": "\(name) has no JSON output"]
    }

    var usage: String {
        var parts = ["narratorctl", name]
        for option in options where option.name != "--json" {
            parts.append("[\(option.synopsis)]")
        }
        for argument in arguments {
            let word = argument.variadic ? "\(argument.name)..." : argument.name
            parts.append(argument.optional ? "[\(word)]" : word)
        }
        return parts.joined(separator: " ")
    }
}

/// All commands, in the order `narratorctl help` lists them.
let commandCatalog: [CommandSpec] = offlineCommands + daemonCommands + announcementCommandSpecs + [experimentCommandSpec]

let offlineCommands: [CommandSpec] = [
    CommandSpec(
        name: "show", summary: "list the focus stops of a tree document (offline) or of a registered tree",
        arguments: [ArgumentSpec("FILE|TREE", help: "a tree document (JSON; - reads standard input), or a registered tree's name")],
        discussion: """
            Prints the focus stops in reading order, one utterance per line, or with --json an array
            of {id, utterance, hint, frame, activationPoint} with screen coordinates. A tree registered
            under that name comes first (trees are named by what they show, and may look like paths:
            "mousepad: /tmp/notes.txt - Mousepad"); otherwise the file is read offline. - is standard
            input, and a path starting with /, ./ or ../ is always a file. An invalid document exits
            1 with every problem listed on stderr as "json.path: reason".
            """,
        connects: .forRegisteredTree,
        build: { parsed throws(UsageError) in .show(file: parsed.positionals[0]) }),
    auditCommandSpec,
    KeysCommand.spec,
    CommandSpec(
        name: "help", summary: "show help for a command",
        arguments: [ArgumentSpec("COMMAND", help: "the command to explain", optional: true)],
        printsJSON: false, connects: .never,
        build: { parsed throws(UsageError) in .help(topic: parsed.positionals.first) }),
    CommandSpec(
        name: "version", summary: "print the versions of narratorctl, the protocol and the tree format",
        connects: .never,
        build: { _ throws(UsageError) in .version }),
    CommandSpec(
        name: "completion", summary: "print the bash completion script",
        arguments: [ArgumentSpec("SHELL", help: "the shell", choices: ["bash"])],
        discussion: """
            make install installs it for the bash-completion package; without that package, load it from
            ~/.bashrc with: source <(narratorctl completion bash). It asks narratorctl for every candidate,
            so it follows this narratorctl's commands and options, and the daemon for trees, element ids,
            voices, actions and rotors.
            """,
        printsJSON: false, connects: .never,
        build: { parsed throws(UsageError) in .completion(shell: parsed.positionals[0]) }),
]

func commandSpec(named name: String) -> CommandSpec? { commandCatalog.first { $0.name == name } }
