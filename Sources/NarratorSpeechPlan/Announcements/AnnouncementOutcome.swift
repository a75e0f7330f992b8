import NarratorBase

/// How an announcement's life ended. Every announcement gets exactly one.
public enum AnnouncementOutcome: String, Sendable, Hashable, CaseIterable {
    /// Played to its end.
    case spoken
    /// Played to its end, but not all of it reached a sound server: the server was gone (the
    /// output fell back to null) or had stopped taking audio. Only the log says it: the queue and
    /// replays treat it as `spoken`, since it took its time as spoken speech does.
    case inaudible
    /// Started, then cut by later speech.
    case interrupted
    /// The same key was queued, speaking, or spoken within the dedup window.
    case deduplicated
    /// Its screen's rate limit was exhausted, or (coalescing) a newer announcement about the same
    /// control replaced it before it started; `duplicateOf` then names the newer one.
    case throttled
    /// It waited longer than its time to live.
    case expired
    /// The queue was full and it was the lowest-priority, oldest announcement.
    case dropped
    /// Removed by `stop`, by focus leaving its tree before it was spoken, or by the daemon stopping.
    case cancelled
}

/// Where an announcement stands after a step of the queue.
public enum AnnouncementState: Sendable, Hashable {
    /// Waiting in the queue for speech to be free.
    case queued
    /// Throttled for now but kept (coalescing): admitted when its screen's bucket refills,
    /// unless a newer announcement about the same control replaces it first.
    case deferred
    /// Handed to speech to play now.
    case released
    /// Started playing.
    case started
    /// Final.
    case ended(AnnouncementOutcome)

    /// The name used in replies, logs and traces ("queued", "spoken", ...).
    public var name: String {
        switch self {
        case .queued: "queued"
        case .deferred: "deferred"
        case .released: "speaking"
        case .started: "started"
        case .ended(let outcome): outcome.rawValue
        }
    }
}

/// One thing the queue decided, at the instant it decided it.
public struct AnnouncementDecision: Sendable, Hashable {
    public var announcement: AnnouncementID
    public var state: AnnouncementState
    public var at: MonotonicInstant
    /// For `deduplicated`: the announcement it repeated. For a coalesced `throttled`: the newer one that replaced it.
    public var duplicateOf: AnnouncementID?

    public init(announcement: AnnouncementID, state: AnnouncementState, at: MonotonicInstant, duplicateOf: AnnouncementID? = nil) {
        self.announcement = announcement
        self.state = state
        self.at = at
        self.duplicateOf = duplicateOf
    }
}

/// An announcement's whole life, emitted once with its final outcome: one row of the log.
public struct AnnouncementRecord: Sendable, Hashable {
    public var announcement: Announcement
    /// The policy that decided it (the tree's, else the queue's).
    public var policy: String
    public var outcome: AnnouncementOutcome
    public var queuedAt: MonotonicInstant
    public var startedAt: MonotonicInstant?
    public var endedAt: MonotonicInstant
    public var duplicateOf: AnnouncementID?
    /// The utterance that spoke it, when it was handed to speech.
    public var utterance: UtteranceID?

    public init(
        announcement: Announcement, policy: String, outcome: AnnouncementOutcome, queuedAt: MonotonicInstant,
        startedAt: MonotonicInstant?, endedAt: MonotonicInstant, duplicateOf: AnnouncementID?, utterance: UtteranceID? = nil
    ) {
        self.utterance = utterance
        self.announcement = announcement
        self.policy = policy
        self.outcome = outcome
        self.queuedAt = queuedAt
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.duplicateOf = duplicateOf
    }
}

/// The result of one input to the queue: decisions in order, announcements to hand to speech,
/// and the finished lives to log.
public struct AnnouncementStep: Sendable, Hashable {
    public var decisions: [AnnouncementDecision] = []
    /// Hand these to speech now, in order (each as `SpeechKind.announcement(priority)`).
    public var release: [Announcement] = []
    /// Announcements whose outcome is now final.
    public var records: [AnnouncementRecord] = []

    public init() {}

    /// The state decided for `id` in this step, the last one if there are several.
    public func state(of id: AnnouncementID) -> AnnouncementState? {
        decisions.last { $0.announcement == id }?.state
    }
}
