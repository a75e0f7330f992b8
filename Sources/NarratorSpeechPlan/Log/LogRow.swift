import NarratorBase

/// One row of the utterance log: an announcement or any other utterance, with its outcome.
///
/// Times are seconds: Unix time for rows the daemon writes, seconds from the trace's start for
/// replayed rows (which carry an `experiment`).
public struct LogRow: Sendable, Hashable {
    public var announcement: Int64?
    public var utterance: Int64?
    /// "announcement", "focus", "hint", "value", "speak", "ssip", or "command" (an SSIP `CANCEL`
    /// or `STOP`, or `stop`: what silenced speech, so that a trace of the log can replay it).
    public var kind: String
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
    public var outcome: String
    public var duplicateOf: Int64?
    public var interruptedBy: String?
    public var experiment: String?
    /// The connection it came on (the daemon's number for it).
    public var connection: Int64?
    /// The command that asked for it: SSIP's `SPEAK`, `CHAR`, `KEY` or `SOUND_ICON`; for a
    /// command row, the command (`CANCEL self`, `STOP all`, `stop`).
    public var command: String?

    public init(
        announcement: Int64? = nil, utterance: Int64? = nil, kind: String, text: String, priority: String? = nil, tree: String? = nil,
        element: String? = nil, dedupKey: String? = nil, policy: String? = nil, clientPID: Int64? = nil, clientUID: Int64? = nil,
        clientName: String? = nil, queuedAt: Double, startedAt: Double? = nil, endedAt: Double? = nil, outcome: String,
        duplicateOf: Int64? = nil, interruptedBy: String? = nil, experiment: String? = nil, connection: Int64? = nil, command: String? = nil
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
            announcement: Int64(a.id.rawValue), utterance: record.utterance.map { Int64($0.rawValue) }, kind: "announcement", text: a.text, priority: a.priority.rawValue, tree: a.tree,
            element: a.element, dedupKey: a.key, policy: record.policy, queuedAt: seconds(record.queuedAt),
            startedAt: record.startedAt.map(seconds), endedAt: seconds(record.endedAt), outcome: record.outcome.rawValue,
            duplicateOf: record.duplicateOf.map { Int64($0.rawValue) }, experiment: experiment)
    }

    /// Another utterance's life as a row (an SSIP message's kind is `ssip`, with its priority).
    public init(_ record: SpeechRecord, policy: String? = nil, experiment: String? = nil, seconds: (MonotonicInstant) -> Double) {
        var kind = record.kind.name
        var priority: String?
        if case .ssip(let ssipPriority) = record.kind {
            kind = "ssip"
            priority = ssipPriority.rawValue
        }
        self.init(
            utterance: record.utterance.rawValue == 0 ? nil : Int64(record.utterance.rawValue), kind: kind, text: record.text, priority: priority,
            tree: record.tree,
            element: record.element, policy: policy, queuedAt: seconds(record.queuedAt), startedAt: record.startedAt.map(seconds),
            endedAt: seconds(record.endedAt), outcome: record.outcome.rawValue, interruptedBy: record.interruptedBy?.name,
            experiment: experiment)
    }
}
