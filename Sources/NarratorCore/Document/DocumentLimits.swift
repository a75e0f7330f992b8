/// Bounds on what one tree document may contain, so that one client cannot exhaust the daemon.
public struct DocumentLimits: Equatable, Sendable {
    /// Deepest nesting of nodes (the root is depth 1).
    public var maxDepth: Int
    /// Most nodes in one tree.
    public var maxNodes: Int
    /// Longest id, label, value, hint, action or rotor name, in characters.
    public var maxStringLength: Int

    public init(maxDepth: Int = 256, maxNodes: Int = 2_000_000, maxStringLength: Int = 4096) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxStringLength = maxStringLength
    }

    public static let `default` = DocumentLimits()

    /// A JSON parser that admits documents within these limits (each node level nests an
    /// object inside a `children` array, plus a few levels of properties).
    public var parser: JSONParser { JSONParser(maxDepth: 2 * maxDepth + 8) }
}
