import NarratorBase

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
    /// Its part in the key echo rule (``SpeechPolicy/holds(_:for:)``): an SSIP key echo holds
    /// long SSIP text instead of cutting it.
    public var echo: KeyEcho

    public init(id: UtteranceID, kind: SpeechKind, text: String, language: String? = nil, client: ClientID? = nil, echo: KeyEcho = .none) {
        self.id = id
        self.kind = kind
        self.text = text
        self.language = language
        self.client = client
        self.echo = echo
    }
}

/// What an utterance is to the key echo rule: a typed key is heard at once, and long text it
/// comes in the middle of goes on after it (``SpeechPolicy/holds(_:for:)``).
public enum KeyEcho: Sendable, Hashable {
    /// Neither: cut and cutting as its kind says.
    case none
    /// An SSIP CHAR or KEY.
    case key
    /// An SSIP message of route ``SpeechRoute/long`` (more than `long-text-words` words).
    case longText
}
