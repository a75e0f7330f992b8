/// A request the daemon cannot take as written: malformed JSON, an unknown command, a missing or
/// mistyped field. `code` is stable for scripts; `message` names the field (as a JSON path).
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One of the request's own codes (`malformed_json` ... `unknown_field`) in the one list of codes.
    public typealias Code = ErrorCode

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
