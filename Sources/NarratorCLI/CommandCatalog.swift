import NarratorCommandLine

/// One command's name, help and argument grammar, and how to build the typed `Command`.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var discussion: String = ""
    var build: @Sendable (ParsedArguments) throws(UsageError) -> Command

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

/// The options every command accepts.
let commonOptions: [OptionSpec] = [
    OptionSpec("--json", help: "print JSON instead of human-readable output"),
    OptionSpec("--socket", value: "PATH", help: "the daemon's socket (default: $NARRATOR_SOCKET, then $XDG_RUNTIME_DIR/narrator/narratord.sock)"),
    OptionSpec("--help", help: "show help for this command"),
]

/// All commands, in the order `narratorctl help` lists them.
let commandCatalog: [CommandSpec] = offlineCommands + daemonCommands + announcementCommandSpecs

let offlineCommands: [CommandSpec] = [
    CommandSpec(
        name: "show", summary: "list the focus stops of a tree document (offline) or of a registered tree",
        arguments: [ArgumentSpec("FILE|TREE", help: "a tree document (JSON; - reads standard input), or a registered tree's name")],
        discussion: """
            Prints the focus stops in reading order, one utterance per line, or with --json an array
            of {id, utterance, hint, frame, activationPoint} with screen coordinates. An existing file
            (or -) is read offline; any other name is asked of the daemon. An invalid document
            exits 1 with every problem listed on stderr as "json.path: reason".
            """,
        build: { parsed throws(UsageError) in .show(file: parsed.positionals[0]) }),
    auditCommandSpec,
    CommandSpec(
        name: "help", summary: "show help for a command",
        arguments: [ArgumentSpec("COMMAND", help: "the command to explain", optional: true)],
        build: { parsed throws(UsageError) in .help(topic: parsed.positionals.first) }),
    CommandSpec(
        name: "version", summary: "print the version",
        build: { _ throws(UsageError) in .version }),
]

func commandSpec(named name: String) -> CommandSpec? { commandCatalog.first { $0.name == name } }
