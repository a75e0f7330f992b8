import NarratorBase

/// The life of one utterance that is not an announcement (focus, hint, value, speak): one row of the log.
public struct SpeechRecord: Sendable, Hashable {
    public var utterance: UtteranceID
    public var kind: SpeechKind
    public var text: String
    public var tree: String?
    public var element: String?
    public var queuedAt: MonotonicInstant
    public var startedAt: MonotonicInstant?
    public var endedAt: MonotonicInstant
    /// `spoken`, `interrupted` (by later speech) or `cancelled` (never started, or stopped).
    public var outcome: AnnouncementOutcome
    /// What cut it, when it was interrupted by later speech.
    public var interruptedBy: SpeechKind?

    public init(
        utterance: UtteranceID, kind: SpeechKind, text: String, tree: String?, element: String?, queuedAt: MonotonicInstant,
        startedAt: MonotonicInstant?, endedAt: MonotonicInstant, outcome: AnnouncementOutcome, interruptedBy: SpeechKind?
    ) {
        self.utterance = utterance
        self.kind = kind
        self.text = text
        self.tree = tree
        self.element = element
        self.queuedAt = queuedAt
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.interruptedBy = interruptedBy
    }
}
