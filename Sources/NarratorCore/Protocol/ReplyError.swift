/// Every error code a reply can carry. Codes are stable, for scripts; messages are for people.
public enum ErrorCode: String, CaseIterable, Sendable {
    // The request itself (see ``ProtocolError``).
    case malformedJSON = "malformed_json"
    case notAnObject = "not_an_object"
    case unknownCommand = "unknown_command"
    case missingField = "missing_field"
    case invalidField = "invalid_field"
    case unknownField = "unknown_field"
    case messageTooLong = "message_too_long"
    case invalidUTF8 = "invalid_utf8"
    // Trees and focus (see ``NarratorError``).
    case invalidDocument = "invalid_document"
    case unknownTree = "unknown_tree"
    case unknownElement = "unknown_element"
    case hiddenElement = "hidden_element"
    case outsideModal = "outside_modal"
    case notFocusable = "not_focusable"
    case emptyTree = "empty_tree"
    case noFocus = "no_focus"
    case notAdjustable = "not_adjustable"
    case noActions = "no_actions"
    case unknownAction = "unknown_action"
    case noHandler = "no_handler"
    case unknownRotor = "unknown_rotor"
    case noTarget = "no_target"
    case cannotRemoveRoot = "cannot_remove_root"
    // The session's rules.
    case treeOwned = "tree_owned"
    case limitExceeded = "limit_exceeded"
    case ownerGone = "owner_gone"
    case invalidSetting = "invalid_setting"
    case permissionDenied = "permission_denied"
    /// The daemon is stopping: it answers what it read before, and takes nothing new.
    case shuttingDown = "shutting_down"
}

/// Why the daemon refused a request: the `error` object of a failed reply.
public struct ReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// For `invalid_document`: every problem with its JSON path.
    public var problems: [DocumentProblem]

    public init(_ code: ErrorCode, _ message: String, problems: [DocumentProblem] = []) {
        self.code = code
        self.message = message
        self.problems = problems
    }

    public init(_ error: ProtocolError) {
        self.init(error.code, error.message)
    }

    public init(_ error: NarratorError) {
        var problems: [DocumentProblem] = []
        if case .invalidDocument(let document) = error { problems = document.problems }
        self.init(error.code, error.message, problems: problems)
    }

    public var description: String { message }
}
