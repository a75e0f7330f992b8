import NarratorBase

/// One row of the utterance log: an announcement or any other utterance, with its outcome.
///
/// Times are seconds: Unix time for rows the daemon writes, seconds from the trace's start for
/// replayed rows (which carry an `experiment`).
public struct LogRow: Sendable, Hashable {
    public var announcement: Int64?
    public var utterance: Int64?
    /// What the row is of; a `command` row is an SSIP `CANCEL` or `STOP`, or `stop`: what silenced
    /// speech, so that a trace of the log can replay it.
    public var kind: Kind
    public var text: String
    public var priority: String?
    public var tree: String?
    public var element: String?
    public var dedupKey: String?
    public var policy: String?
    public var clientPID: Int64?
    public var clientUID: Int64?
    public var clientName: String?
    public var queuedAt: Double
    public var startedAt: Double?
    public var endedAt: Double?
    public var outcome: Outcome
    public var duplicateOf: Int64?
    public var interruptedBy: Interruption?
    public var experiment: String?
    /// The connection it came on (the daemon's number for it).
    public var connection: Int64?
    /// The command that asked for it: SSIP's `SPEAK`, `CHAR`, `KEY` or `SOUND_ICON`; for a
    /// command row, the command (`CANCEL self`, `STOP all`, `stop`).
    public var command: String?

    public init(
        announcement: Int64? = nil, utterance: Int64? = nil, kind: Kind, text: String, priority: String? = nil, tree: String? = nil,
        element: String? = nil, dedupKey: String? = nil, policy: String? = nil, clientPID: Int64? = nil, clientUID: Int64? = nil,
        clientName: String? = nil, queuedAt: Double, startedAt: Double? = nil, endedAt: Double? = nil, outcome: Outcome,
        duplicateOf: Int64? = nil, interruptedBy: Interruption? = nil, experiment: String? = nil, connection: Int64? = nil, command: String? = nil
    ) {
        self.announcement = announcement
        self.utterance = utterance
        self.kind = kind
        self.text = text
        self.priority = priority
        self.tree = tree
        self.element = element
        self.dedupKey = dedupKey
        self.policy = policy
        self.clientPID = clientPID
        self.clientUID = clientUID
        self.clientName = clientName
        self.queuedAt = queuedAt
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.duplicateOf = duplicateOf
        self.interruptedBy = interruptedBy
        self.experiment = experiment
        self.connection = connection
        self.command = command
    }

    /// An announcement's life as a row; `seconds` turns the queue's instants into the row's clock.
    public init(_ record: AnnouncementRecord, experiment: String? = nil, seconds: (MonotonicInstant) -> Double) {
        let a = record.announcement
        self.init(
            announcement: Int64(a.id.rawValue), utterance: record.utterance.map { Int64($0.rawValue) }, kind: .announcement, text: a.text, priority: a.priority.rawValue, tree: a.tree,
            element: a.element, dedupKey: a.key, policy: record.policy, queuedAt: seconds(record.queuedAt),
            startedAt: record.startedAt.map(seconds), endedAt: seconds(record.endedAt), outcome: .ended(record.outcome),
            duplicateOf: record.duplicateOf.map { Int64($0.rawValue) }, experiment: experiment)
    }

    /// Another utterance's life as a row (an SSIP message's kind is `ssip`, with its priority).
    public init(_ record: SpeechRecord, policy: String? = nil, experiment: String? = nil, seconds: (MonotonicInstant) -> Double) {
        let kind: Kind
        var priority: String?
        switch record.kind {
        case .focus: kind = .focus
        case .hint: kind = .hint
        case .value: kind = .value
        case .speak: kind = .speak
        case .ssip(let ssipPriority):
            kind = .ssip
            priority = ssipPriority.rawValue
        case .announcement(let announcementPriority):
            // Announcements have rows of their own (an ``AnnouncementRecord``); the plan makes no
            // speech record of one, but if it did this is the row it would be.
            kind = .announcement
            priority = announcementPriority.rawValue
        }
        self.init(
            utterance: record.utterance.rawValue == 0 ? nil : Int64(record.utterance.rawValue), kind: kind, text: record.text, priority: priority,
            tree: record.tree,
            element: record.element, policy: policy, queuedAt: seconds(record.queuedAt), startedAt: record.startedAt.map(seconds),
            endedAt: seconds(record.endedAt), outcome: .ended(record.outcome), interruptedBy: record.interruptedBy.map(Interruption.speech),
            experiment: experiment)
    }
}

extension LogRow {
    /// What a row is of. The log's file has no check on the column and migrations never rewrite
    /// it, so a file written by an older daemon can hold other names (before the `ssip` kind an
    /// SSIP message's row said `ssip-message`, `ssip-text`, ...): those are kept as `unknown`,
    /// to be shown as they are and left out of traces.
    public enum Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        case announcement, focus, hint, value, speak, ssip, command
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "announcement": self = .announcement
            case "focus": self = .focus
            case "hint": self = .hint
            case "value": self = .value
            case "speak": self = .speak
            case "ssip": self = .ssip
            case "command": self = .command
            default: self = .unknown(rawValue)
            }
        }

        /// The name the log's file stores.
        public var rawValue: String {
            switch self {
            case .announcement: "announcement"
            case .focus: "focus"
            case .hint: "hint"
            case .value: "value"
            case .speak: "speak"
            case .ssip: "ssip"
            case .command: "command"
            case .unknown(let name): name
            }
        }
    }

    /// Where a row's utterance or command ended up. A live announcement's row is written with its
    /// first state (`queued`, `deferred`, `speaking`, `started`) and updated with its final outcome.
    public enum Outcome: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// A final outcome (what an announcement queue, the speech plan or an SSIP gate decided).
        case ended(AnnouncementOutcome)
        case queued, deferred, speaking, started
        /// A command row: the command was carried out.
        case done
        /// A name this version does not know, from a file an older daemon wrote (see ``Kind``).
        case unknown(String)

        /// An announcement's state after a step of its queue.
        public init(_ state: AnnouncementState) {
            switch state {
            case .queued: self = .queued
            case .deferred: self = .deferred
            case .released: self = .speaking
            case .started: self = .started
            case .ended(let outcome): self = .ended(outcome)
            }
        }

        public init(rawValue: String) {
            switch rawValue {
            case "queued": self = .queued
            case "deferred": self = .deferred
            case "speaking": self = .speaking
            case "started": self = .started
            case "done": self = .done
            default: self = AnnouncementOutcome(rawValue: rawValue).map(Outcome.ended) ?? .unknown(rawValue)
            }
        }

        /// The name the log's file stores (an ended outcome's own name).
        public var rawValue: String {
            switch self {
            case .ended(let outcome): outcome.rawValue
            case .queued: "queued"
            case .deferred: "deferred"
            case .speaking: "speaking"
            case .started: "started"
            case .done: "done"
            case .unknown(let name): name
            }
        }

        /// The final outcome, if the row has one.
        public var ended: AnnouncementOutcome? {
            if case .ended(let outcome) = self { outcome } else { nil }
        }
    }

    /// What cut an utterance short or withdrew it: newer speech of some kind, the client's
    /// connection closing, a key echo, or an SSIP `PAUSE`.
    public enum Interruption: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        case speech(SpeechKind)
        case disconnect, key, pause
        /// A name this version does not know, from a file an older daemon wrote (see ``Kind``).
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "disconnect": self = .disconnect
            case "key": self = .key
            case "pause": self = .pause
            default:
                // Only a name that reads back as itself: `announcement` alone would be stored again as `announcement-default`.
                if let kind = SpeechKind(name: rawValue), kind.name == rawValue {
                    self = .speech(kind)
                } else {
                    self = .unknown(rawValue)
                }
            }
        }

        /// The name the log's file stores (a speech kind's ``SpeechKind/name``).
        public var rawValue: String {
            switch self {
            case .speech(let kind): kind.name
            case .disconnect: "disconnect"
            case .key: "key"
            case .pause: "pause"
            case .unknown(let name): name
            }
        }
    }
}

extension LogRow.Kind {
    public var description: String { rawValue }
}

extension LogRow.Outcome {
    public var description: String { rawValue }
}

extension LogRow.Interruption {
    public var description: String { rawValue }
}
