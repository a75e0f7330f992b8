/// A registered tree: one app window or screen, as in a tree document (format version 1).
public struct TreeDocument: Equatable, Sendable {
    /// The tree's name, unique among registered trees ("player").
    public var name: String
    /// Spoken when focus moves into this tree from another one.
    public var title: String?
    /// BCP 47 language tag ("en", "de-DE"): picks the phrase table and the voice.
    public var language: String?
    public var root: Node {
        // Any change to the nodes (in place included) makes the decoder's index stale.
        didSet { idIndex = nil }
    }
    /// Audit rules switched off for this tree (`"audit": {"ignore": [...]}`).
    public var auditIgnore: [AuditRule]

    /// Each id's slot in pre-order, as the decoder found it: compiling the tree takes it
    /// instead of hashing every id a second time. Nil when unknown or stale.
    package var idIndex: [String: Int32]?

    public init(name: String, title: String? = nil, language: String? = nil, root: Node, auditIgnore: [AuditRule] = []) {
        self.name = name
        self.title = title
        self.language = language
        self.root = root
        self.auditIgnore = auditIgnore
    }

    /// Equal documents have the same content; whether an id index came with them does not matter.
    public static func == (a: TreeDocument, b: TreeDocument) -> Bool {
        a.name == b.name && a.title == b.title && a.language == b.language && a.root == b.root
            && a.auditIgnore == b.auditIgnore
    }
}
