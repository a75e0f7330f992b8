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
    case notInTable = "not_in_table"
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
