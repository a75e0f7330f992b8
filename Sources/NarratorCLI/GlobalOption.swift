import NarratorCommandLine

/// The options `narratorctl` takes before the command (and after it, for the commands that use
/// them): the one list that the parser, the overview help, each command's help and completion read.
enum GlobalOption: String, CaseIterable, Sendable {
    case socket = "--socket"
    case json = "--json"
    case help = "--help"
    case version = "--version"

    /// Where `--socket` looks when it is not given.
    static let socketDefaults = "(default: $NARRATOR_SOCKET, then $XDG_RUNTIME_DIR/narrator/narratord.sock)"

    /// The option as the overview help lists it and completion offers it before a command.
    var spec: OptionSpec {
        switch self {
        case .socket: OptionSpec(rawValue, value: "PATH", help: "the daemon's socket " + Self.socketDefaults)
        case .json: OptionSpec(rawValue, help: "print JSON instead of human-readable output")
        case .help: OptionSpec(rawValue, help: #"show this help (or "narratorctl help COMMAND")"#, aliases: ["-h"])
        case .version: OptionSpec(rawValue, help: #"print the versions (as "narratorctl version")"#)
        }
    }

    /// The command the option stands for, before a command: `--version` is `narratorctl version`
    /// (what follows it are that command's options).
    var command: String? { self == .version ? "version" : nil }

    /// The option a word names, by its name or an alias (`-h`).
    static func named(_ word: String) -> GlobalOption? {
        allCases.first { $0.rawValue == word || $0.spec.aliases.contains(word) }
    }

    static var specs: [OptionSpec] { allCases.map(\.spec) }
}
