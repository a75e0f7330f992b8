/// A registered tree: one app window or screen, as in a tree document (format version 1).
public struct TreeDocument: Equatable, Sendable {
    /// The tree's name, unique among registered trees ("player").
    public var name: String
    /// Spoken when focus moves into this tree from another one.
    public var title: String?
    /// BCP 47 language tag ("en", "de-DE"): picks the phrase table and the voice.
    public var language: String?
    public var root: Node
    /// Audit rules switched off for this tree (`"audit": {"ignore": [...]}`).
    public var auditIgnore: [AuditRule]

    public init(name: String, title: String? = nil, language: String? = nil, root: Node, auditIgnore: [AuditRule] = []) {
        self.name = name
        self.title = title
        self.language = language
        self.root = root
        self.auditIgnore = auditIgnore
    }
}
