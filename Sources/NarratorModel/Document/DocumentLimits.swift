/// Bounds on what one tree document may contain, so that one client cannot exhaust the daemon.
public struct DocumentLimits: Equatable, Sendable {
    /// Deepest nesting of nodes (the root is depth 1).
    public var maxDepth: Int
    /// Most nodes in one tree.
    public var maxNodes: Int
    /// Longest id, label, hint, action or rotor name, in characters.
    public var maxStringLength: Int
    /// Longest value, in characters: a text field's value is its text, and an editor's document
    /// is far longer than any label.
    public var maxValueLength: Int

    public init(maxDepth: Int = 256, maxNodes: Int = 2_000_000, maxStringLength: Int = 4096, maxValueLength: Int = 1_048_576) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxStringLength = maxStringLength
        self.maxValueLength = maxValueLength
    }

    public static let `default` = DocumentLimits()

    /// The longest value taken: never shorter than a name may be.
    package var valueLimit: Int { Swift.max(maxValueLength, maxStringLength) }

    /// A JSON parser that admits documents within these limits (each node level nests an
    /// object inside a `children` array, plus a few levels of properties).
    public var parser: JSONParser { JSONParser(maxDepth: 2 * maxDepth + 8) }
}
