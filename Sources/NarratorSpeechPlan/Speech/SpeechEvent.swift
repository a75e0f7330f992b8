import NarratorBase

/// A step in an utterance's life, stamped with the monotonic instant it happened.
///
/// Every utterance gets `queued`, then either `started` followed by `finished` or `interrupted`,
/// or `dropped` when it was discarded before it started.
public struct SpeechEvent: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        case queued
        case started
        case finished
        /// Stopped while playing; `by` is the utterance that took over, nil for an explicit stop.
        case interrupted(by: UtteranceID?)
        /// Discarded before it started.
        case dropped(DropReason)
    }

    /// Why an utterance never started.
    public enum DropReason: String, Sendable, Hashable, CaseIterable {
        /// Focus (or a value, or direct speech) moved on before it started.
        case focusMoved
        /// Hints are switched off.
        case hintsDisabled
        /// The focus utterance this hint belongs to did not finish.
        case focusInterrupted
        /// There was no focus utterance for this hint to follow.
        case noFocus
        /// A client asked to stop all speech.
        case stopped
        /// Its SSIP client cancelled its own speech (`CANCEL`).
        case cancelled
        /// A newer SSIP message of the kind that replaces it arrived first (a text, a progress report).
        case superseded
        /// An SSIP notification that arrived while other speech played or waited.
        case busy
        /// Its SSIP client paused; it is spoken when the client resumes.
        case paused
        /// The rest of long text a key echo stopped, held to go on after it: speech that would
        /// have cut the text had it been playing came first (``SpeechPolicy``).
        case cutWhileHeld
        /// Speech is off (the user's `speech` setting).
        case speechOff
    }

    public var utterance: UtteranceID
    public var kind: SpeechKind
    public var phase: Phase
    public var at: MonotonicInstant

    public init(utterance: UtteranceID, kind: SpeechKind, phase: Phase, at: MonotonicInstant) {
        self.utterance = utterance
        self.kind = kind
        self.phase = phase
        self.at = at
    }

    /// True for the phases after which no further event comes for this utterance.
    public var isFinal: Bool {
        switch phase {
        case .queued, .started: false
        case .finished, .interrupted, .dropped: true
        }
    }
}
