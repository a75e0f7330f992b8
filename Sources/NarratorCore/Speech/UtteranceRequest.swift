/// Identifies one utterance from request to its final event.
public struct UtteranceID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: UtteranceID, rhs: UtteranceID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "#\(rawValue)" }
}

/// Something the core wants spoken: the text, what it is for, and the tree's language.
public struct UtteranceRequest: Sendable, Hashable {
    public var id: UtteranceID
    public var kind: SpeechKind
    public var text: String
    /// The tree's language (BCP 47, e.g. "en-GB"); picks the voice unless the user chose one.
    public var language: String?
    /// The connection that asked for it, when its own commands may cancel or replace it (SSIP).
    public var client: ClientID?

    public init(id: UtteranceID, kind: SpeechKind, text: String, language: String? = nil, client: ClientID? = nil) {
        self.id = id
        self.kind = kind
        self.text = text
        self.language = language
        self.client = client
    }
}
