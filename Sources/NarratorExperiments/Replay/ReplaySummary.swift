import NarratorBase
import NarratorModel
import NarratorSpeechPlan

/// One policy's row in the replay comparison: what happened to the trace's messages (its
/// announcements and Speech Dispatcher clients' messages: what apps asked to be heard) under it.
public struct ReplaySummary: Sendable, Hashable {
    public var policy: String
    /// Announcements and SSIP messages.
    public var announcements: Int
    /// How many messages ended with each outcome (every outcome present, zeros included).
    public var counts: [AnnouncementOutcome: Int]
    /// Queued to started, in seconds, of the messages that started (nil when none did).
    public var latencyP50: Double?
    public var latencyP95: Double?
    public var latencyP99: Double?
    /// Seconds of speech: every announcement and focus utterance, started to ended.
    public var speechTime: Double
    /// Focus utterances cut by an announcement: the user lost where they were.
    public var focusInterruptions: Int

    public init(policy: String, records: [AnnouncementRecord], speech: [SpeechRecord]) {
        self.policy = policy
        let messages = speech.filter { if case .ssip = $0.kind { true } else { false } }
        announcements = records.count + messages.count
        var counts = Dictionary(uniqueKeysWithValues: AnnouncementOutcome.allCases.map { ($0, 0) })
        for record in records { counts[record.outcome, default: 0] += 1 }
        for message in messages { counts[message.outcome, default: 0] += 1 }
        self.counts = counts
        let latencies = (records.compactMap { record in record.startedAt.map { ($0 - record.queuedAt).asSeconds } }
            + messages.compactMap { message in message.startedAt.map { ($0 - message.queuedAt).asSeconds } }).sorted()
        func percentile(_ p: Double) -> Double? { NearestRank.percentile(latencies, p) }
        latencyP50 = percentile(0.5)
        latencyP95 = percentile(0.95)
        latencyP99 = percentile(0.99)
        let announcementTime = records.compactMap { r in r.startedAt.map { (r.endedAt - $0).asSeconds } }.reduce(0, +)
        let focusTime = speech.compactMap { r in r.startedAt.map { (r.endedAt - $0).asSeconds } }.reduce(0, +)
        speechTime = announcementTime + focusTime
        focusInterruptions = speech.filter { record in
            if case .announcement = record.interruptedBy, record.kind == .focus { return true }
            return false
        }.count
    }

    /// The comparison table `narratorctl replay` prints: one row per policy.
    public static func table(_ summaries: [ReplaySummary]) -> String {
        let outcomes = AnnouncementOutcome.allCases
        let headings = ["POLICY"] + outcomes.map { $0.rawValue.uppercased() } + ["P50 S", "P95 S", "P99 S", "SPEECH S", "FOCUS CUT"]
        func seconds(_ value: Double?) -> String { value.map { ValueFormat.decimal(($0 * 100).rounded() / 100, separator: ".") } ?? "-" }
        let rows = summaries.map { summary in
            [summary.policy] + outcomes.map { String(summary.counts[$0] ?? 0) }
                + [seconds(summary.latencyP50), seconds(summary.latencyP95), seconds(summary.latencyP99), seconds(summary.speechTime),
                   String(summary.focusInterruptions)]
        }
        let widths = headings.indices.map { column in (rows.map { $0[column].count } + [headings[column].count]).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        return ([line(headings)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    public var json: JSONValue {
        var counts = JSONObject()
        for outcome in AnnouncementOutcome.allCases { counts[outcome.rawValue] = .number(Double(self.counts[outcome] ?? 0)) }
        return [
            "policy": .string(policy), "announcements": .number(Double(announcements)), "outcomes": .object(counts),
            "latency": ["p50": .optional(latencyP50), "p95": .optional(latencyP95), "p99": .optional(latencyP99)],
            "speechSeconds": .number(speechTime), "focusInterruptions": .number(Double(focusInterruptions)),
        ]
    }
}
