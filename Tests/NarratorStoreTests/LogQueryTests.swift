import NarratorCore
import NarratorStore
import Testing

@Suite("Log queries behind narratorctl log and stats")
struct LogQueryTests {
    func sample() throws -> Database {
        let db = try UtteranceLog.openForWriting(try temporaryDirectory() + "/log.db")
        var rows: [LogRow] = []
        for n in 1...10 {
            rows.append(row(Int64(n), queued: Double(n), started: Double(n) + Double(n) / 10, ended: Double(n) + Double(n) / 10 + 1))
        }
        rows.append(row(11, outcome: "throttled", tree: "settings", queued: 11))
        rows.append(row(12, outcome: "deduplicated", priority: "low", queued: 12))
        rows.append(row(13, outcome: "interrupted", tree: "settings", priority: "high", queued: 13, started: 13, ended: 13.5))
        rows.append(LogRow(utterance: 1, kind: "focus", text: "OK, button", tree: "chat", queuedAt: 14, startedAt: 14, endedAt: 15, outcome: "spoken"))
        var replayed = row(99)
        replayed.experiment = "e1"
        rows.append(replayed)
        try UtteranceLog.insert(rows, into: db)
        return db
    }

    @Test("filters by time, outcome and tree; limit keeps the most recent; experiments stay apart")
    func filters() throws {
        let db = try sample()
        #expect(try UtteranceLog.rows(LogFilter(), in: db).count == 14)
        #expect(try UtteranceLog.rows(LogFilter(since: 12), in: db).map(\.row.announcement) == [12, 13, nil])
        #expect(try UtteranceLog.rows(LogFilter(outcome: "throttled"), in: db).map(\.row.announcement) == [11])
        #expect(try UtteranceLog.rows(LogFilter(tree: "settings"), in: db).map(\.row.announcement) == [11, 13])
        #expect(try UtteranceLog.rows(LogFilter(limit: 2), in: db).map(\.row.text) == ["message 13", "OK, button"])
        #expect(try UtteranceLog.rows(LogFilter(experiment: "e1"), in: db).map(\.row.announcement) == [99])
    }

    @Test("statistics: counts per outcome, tree and priority, latency percentiles, speech time, interruptions")
    func statistics() throws {
        let stats = try UtteranceLog.statistics(LogFilter(), in: try sample())
        #expect(stats.total == 14)
        #expect(stats.byOutcome.map(\.0) == ["spoken", "deduplicated", "interrupted", "throttled"])
        #expect(stats.byOutcome.first?.1 == 11)
        #expect(stats.byTree.map(\.0) == ["chat", "settings"])
        #expect(stats.byPriority.first { $0.0 == "focus" }?.1 == 1)
        #expect(stats.byPriority.first { $0.0 == "high" }?.1 == 1)
        // Latencies 0.1 ... 1.0 and 0 (the high one): the median is 0.5.
        #expect(abs((stats.latencyP50 ?? 0) - 0.5) < 1e-9)
        #expect(abs((stats.latencyP99 ?? 0) - 1.0) < 1e-9)
        #expect(abs(stats.speechTime - 11.5) < 1e-9)
        #expect(stats.interruptions == 1)
    }
}
