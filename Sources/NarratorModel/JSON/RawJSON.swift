/// The text of one JSON value that a parser has already checked, kept as bytes to be decoded
/// later: a register request's document, which the tree decoder reads straight from its bytes.
public struct RawJSON: Equatable, Sendable {
    /// UTF-8 JSON text, syntactically valid and nested no deeper than the parser that checked it allows.
    public let bytes: [UInt8]

    /// Only the parser makes these from bytes it has checked.
    init(validated bytes: UnsafeBufferPointer<UInt8>) { self.bytes = Array(bytes) }

    /// Checks `text` with `parser`, whose nesting bound then holds for whoever decodes it.
    public init(_ text: String, checkedBy parser: JSONParser = DocumentLimits.default.parser) throws(JSONSyntaxError) {
        _ = try parser.parse(text)
        bytes = Array(text.utf8)
    }
}
