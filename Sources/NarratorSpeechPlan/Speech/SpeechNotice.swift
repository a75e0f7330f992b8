import NarratorBase

/// One step in an utterance's life, with what it says and what it is about.
public struct SpeechNotice: Equatable, Sendable {
    public var utterance: UtteranceID
    public var kind: SpeechKind
    public var phase: SpeechEvent.Phase
    public var at: MonotonicInstant
    public var text: String?
    public var tree: String?
    public var element: String?
    /// The engine asked to say it (`started`, once narratord has more than eSpeak NG).
    public var engine: String?
    /// A `finished` utterance that played to its end while the sound server was gone: the log
    /// says `inaudible` for it, and so does the event's `outcome`.
    public var inaudible: Bool

    public init(
        utterance: UtteranceID, kind: SpeechKind, phase: SpeechEvent.Phase, at: MonotonicInstant, text: String?, tree: String?, element: String?,
        engine: String? = nil, inaudible: Bool = false
    ) {
        self.utterance = utterance
        self.kind = kind
        self.phase = phase
        self.at = at
        self.text = text
        self.tree = tree
        self.element = element
        self.engine = engine
        self.inaudible = inaudible
    }

    /// The word the log records for this utterance, once it has ended: the phase's, except
    /// that speech nobody could hear is `inaudible`.
    public var outcome: AnnouncementOutcome? {
        inaudible && phase == .finished ? .inaudible : phase.outcome
    }
}

extension SpeechEvent.Phase {
    /// The name in `speech` events: queued, started, finished, interrupted, dropped.
    public var name: String {
        switch self {
        case .queued: "queued"
        case .started: "started"
        case .finished: "finished"
        case .interrupted: "interrupted"
        case .dropped: "dropped"
        }
    }

    /// The outcome the log records for an utterance that ended in this phase, so that events and
    /// `narratorctl log` use one vocabulary: `spoken`, `interrupted` (by other speech), or
    /// `cancelled` (stopped, or dropped before it started); nil for a phase that is not final.
    public var outcome: AnnouncementOutcome? {
        switch self {
        case .queued, .started: nil
        case .finished: .spoken
        case .interrupted(let by): by == nil ? .cancelled : .interrupted
        case .dropped: .cancelled
        }
    }
}
