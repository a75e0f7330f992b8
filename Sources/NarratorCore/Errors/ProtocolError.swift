/// A request the daemon cannot take as written: malformed JSON, an unknown command, a missing or
/// mistyped field. `code` is stable for scripts; `message` names the field (as a JSON path).
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case malformedJSON = "malformed_json"
        case notAnObject = "not_an_object"
        case unknownCommand = "unknown_command"
        case missingField = "missing_field"
        case invalidField = "invalid_field"
        case unknownField = "unknown_field"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
