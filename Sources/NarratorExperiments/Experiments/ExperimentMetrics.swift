import NarratorBase
import NarratorModel
import NarratorSpeechPlan

/// What one policy did to one trace, in the figures an experiment compares.
///
/// Computed from the simulation's lives alone (``measure(records:speech:length:late:)``), so a new
/// kind of message replayed later is counted without changing the simulation: announcements and
/// SSIP messages are *messages*; focus, hint, value and speak are the *user's own speech*.
public struct ExperimentMetrics: Sendable, Equatable {
    /// Messages replayed (every outcome).
    public var messages: Int
    /// Messages per outcome, every outcome present.
    public var outcomes: [AnnouncementOutcome: Int]
    /// Queued to started, seconds, of every message that started, ascending (pooled for the
    /// all-traces figures; not part of the record).
    public var latencies: [Double]
    /// Words heard: of messages and the user's own speech, all of each one spoken to its end, and
    /// of one cut short the fraction of its length that played.
    public var wordsHeard: Double
    /// The user's own utterances cut by a message.
    public var focusCut: Int
    /// Messages that started more than `late` seconds after they were queued.
    public var tooLate: Int

    public init(messages: Int, outcomes: [AnnouncementOutcome: Int], latencies: [Double], wordsHeard: Double, focusCut: Int, tooLate: Int) {
        self.messages = messages
        self.outcomes = Dictionary(uniqueKeysWithValues: AnnouncementOutcome.allCases.map { ($0, outcomes[$0] ?? 0) })
        self.latencies = latencies.sorted()
        self.wordsHeard = wordsHeard
        self.focusCut = focusCut
        self.tooLate = tooLate
    }

    /// Messages never heard at all: every outcome but `spoken` and `interrupted` (a duplicate
    /// counts: a wider dedup window is not free). The Pareto front's x.
    public var unheard: Int { messages - outcomes[.spoken, default: 0] - outcomes[.interrupted, default: 0] }

    public var p50: Double? { NearestRank.percentile(latencies, 0.50) }
    public var p95: Double? { NearestRank.percentile(latencies, 0.95) }
    public var p99: Double? { NearestRank.percentile(latencies, 0.99) }

    /// The figures of one cell: the simulation's announcement `records` and other `speech`, with
    /// `length` giving each text's full length (to tell how much of a cut one was heard).
    public static func measure(records: [AnnouncementRecord], speech: [SpeechRecord], length: (String) -> Duration, late: Double) -> ExperimentMetrics {
        struct Life {
            var text: String, queuedAt: MonotonicInstant, startedAt: MonotonicInstant?, endedAt: MonotonicInstant, outcome: AnnouncementOutcome
        }
        var messages = records.map { Life(text: $0.announcement.text, queuedAt: $0.queuedAt, startedAt: $0.startedAt, endedAt: $0.endedAt, outcome: $0.outcome) }
        var own: [Life] = []
        var focusCut = 0
        for record in speech {
            let life = Life(text: record.text, queuedAt: record.queuedAt, startedAt: record.startedAt, endedAt: record.endedAt, outcome: record.outcome)
            if isMessage(record.kind) {
                messages.append(life)
            } else {
                own.append(life)
                if record.outcome == .interrupted, let cutter = record.interruptedBy, isMessage(cutter) { focusCut += 1 }
            }
        }
        var outcomes: [AnnouncementOutcome: Int] = [:]
        var latencies: [Double] = []
        for message in messages {
            outcomes[message.outcome, default: 0] += 1
            if let started = message.startedAt { latencies.append((started - message.queuedAt).asSeconds) }
        }
        func heard(_ life: Life) -> Double {
            guard let started = life.startedAt else { return 0 }
            let words = Double(SSMLText.plain(life.text).split(whereSeparator: \.isWhitespace).count)
            guard life.outcome == .interrupted else { return life.outcome == .spoken ? words : 0 }
            let full = length(life.text).asSeconds
            guard full > 0 else { return 0 }
            return words * min(1, max(0, (life.endedAt - started).asSeconds / full))
        }
        return ExperimentMetrics(
            messages: messages.count, outcomes: outcomes, latencies: latencies,
            wordsHeard: (messages + own).map(heard).reduce(0, +), focusCut: focusCut, tooLate: latencies.filter { $0 > late }.count)
    }

    /// Whether speech of this kind is a message (an app's or an SSIP client's), not the user's own.
    static func isMessage(_ kind: SpeechKind) -> Bool {
        switch kind {
        case .announcement, .ssip: true
        case .focus, .hint, .value, .speak: false
        }
    }

    /// The figures of several cells as one (a policy over all its traces): counts summed,
    /// latencies pooled before the percentiles are taken.
    public static func combined(_ cells: [ExperimentMetrics]) -> ExperimentMetrics {
        var outcomes: [AnnouncementOutcome: Int] = [:]
        for cell in cells { for (outcome, count) in cell.outcomes { outcomes[outcome, default: 0] += count } }
        return ExperimentMetrics(
            messages: cells.map(\.messages).reduce(0, +), outcomes: outcomes, latencies: cells.flatMap(\.latencies),
            wordsHeard: cells.map(\.wordsHeard).reduce(0, +), focusCut: cells.map(\.focusCut).reduce(0, +), tooLate: cells.map(\.tooLate).reduce(0, +))
    }

    /// The figures a record keeps and a rerun compares, by name, in a stable order (nil: no
    /// message started, so there is no latency).
    public var figures: [(name: String, value: Double?)] {
        [
            ("messages", Double(messages)), ("started", Double(latencies.count)), ("p50", p50), ("p95", p95), ("p99", p99),
            ("wordsHeard", wordsHeard), ("unheard", Double(unheard)),
        ] + AnnouncementOutcome.allCases.map { ($0.rawValue, Double(outcomes[$0] ?? 0)) } + [("focusCut", Double(focusCut)), ("tooLate", Double(tooLate))]
    }

    public var json: JSONValue {
        .object(JSONObject(figures.map { JSONObject.Member(key: $0.name, value: .optional($0.value)) }))
    }
}
