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
}

/// How `narratorctl` exits, so scripts can tell failures apart.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The daemon refused the request, or the input (a document) is invalid.
    case refused = 1
    case usage = 2
    /// The daemon cannot be reached.
    case unreachable = 3
}
