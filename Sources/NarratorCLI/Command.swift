import NarratorProtocol

/// A fully parsed `narratorctl` invocation.
public struct Invocation: Equatable, Sendable {
    /// `--socket PATH`, overriding `$NARRATOR_SOCKET` and the default.
    public var socket: String?
    /// `--json`: print raw JSON instead of human output.
    public var json: Bool
    public var command: Command
}

/// Every `narratorctl` command with its typed arguments.
public enum Command: Equatable, Sendable {
    /// Validate a tree document offline and print its focus stops (`-` reads stdin).
    case show(file: String)
    /// Check a tree (a file, `-`, or a registered tree's name) against the accessibility rules.
    case audit(AuditRequest)
    case help(topic: String?)
    case version
    /// Print the completion script for a shell (`bash`).
    case completion(shell: String)
    /// Offline announcement tools: replay traces, read the log (see AnnouncementCommands.swift).
    case announcements(AnnouncementCommand)
    /// A request for the daemon: the `cmd` name and its fields.
    case daemon(DaemonRequest)
    /// Narrator's key bindings, offline (`narratorctl keys`).
    case keys(KeysCommand.Listing)
}

/// What a daemon command sends, and how the CLI treats the connection afterwards.
public enum DaemonRequest: Equatable, Sendable {
    /// One request; its reply is printed.
    case send(RequestCommand)
    /// `register FILE`: the file is read and checked when the command runs, not while parsing.
    /// With `follow`, narratorctl stays connected as the tree's owner and prints the events it gets.
    case register(file: String, ephemeral: Bool, follow: Bool)
    /// `monitor`: subscribe, then print each utterance as it starts until the daemon goes away.
    case monitor

    /// The command's name in messages ("narratorctl focus: ...").
    var name: String {
        switch self {
        case .send(let command): command.name.rawValue
        case .register: "register"
        case .monitor: "monitor"
        }
    }
}

/// How `narratorctl` exits, so scripts can tell failures apart.
public enum ExitStatus: Int32, Error, Sendable {
    case success = 0
    /// The daemon refused the request, or the input (a document) is invalid.
    case refused = 1
    case usage = 2
    /// The daemon cannot be reached.
    case unreachable = 3
}
