import NarratorCore

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
    /// Offline announcement tools: replay traces, read the log (see AnnouncementCommands.swift).
    case announcements(AnnouncementCommand)
    /// A request for the daemon: the `cmd` name and its fields.
    case daemon(DaemonRequest)
}

/// What a daemon command sends, and how the CLI treats the connection afterwards.
public struct DaemonRequest: Equatable, Sendable {
    public var cmd: String
    public var fields: [JSONObject.Member]
    /// A file whose JSON is sent as `field` (read when the command runs, not while parsing).
    public var documentFile: (field: String, path: String)?
    /// Keep the connection and print events after the reply (register --follow, monitor).
    public var follow: Bool

    public init(cmd: String, fields: [JSONObject.Member] = [], documentFile: (field: String, path: String)? = nil, follow: Bool = false) {
        self.cmd = cmd
        self.fields = fields
        self.documentFile = documentFile
        self.follow = follow
    }

    public static func == (a: DaemonRequest, b: DaemonRequest) -> Bool {
        a.cmd == b.cmd && a.fields == b.fields && a.documentFile?.field == b.documentFile?.field
            && a.documentFile?.path == b.documentFile?.path && a.follow == b.follow
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
