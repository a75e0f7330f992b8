import NarratorSpeechPlan
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
        rows.append(row(11, outcome: .ended(.throttled), tree: "settings", queued: 11))
        rows.append(row(12, outcome: .ended(.deduplicated), priority: "low", queued: 12))
        rows.append(row(13, outcome: .ended(.interrupted), tree: "settings", priority: "high", queued: 13, started: 13, ended: 13.5))
        rows.append(LogRow(utterance: 1, kind: .focus, text: "OK, button", tree: "chat", queuedAt: 14, startedAt: 14, endedAt: 15, outcome: .ended(.spoken)))
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

/// Rows of two SSIP clients, a look-alike and a JSON client, as narratord logs them.
@Suite("The log by client: SSIP applications and JSON clients")
struct LogClientTests {
    static func ssip(_ n: Double, _ name: String?, priority: String = "message", outcome: LogRow.Outcome = .ended(.spoken)) -> LogRow {
        LogRow(
            kind: .ssip, text: "ssip \(n)", priority: priority, policy: "default", clientPID: 7, clientUID: 1000, clientName: name,
            queuedAt: n, startedAt: n, endedAt: n + 0.5, outcome: outcome)
    }

    func sample() throws -> Database {
        let db = try UtteranceLog.openForWriting(try temporaryDirectory() + "/log.db")
        var mail = row(5)
        mail.clientName = "mail"
        try UtteranceLog.insert(
            [
                Self.ssip(1, "user:orca:default"), Self.ssip(2, "Unknown:Orca:speech", priority: "important", outcome: .ended(.interrupted)),
                Self.ssip(3, "orca", priority: "text"), Self.ssip(4, "root:spd-say:main", priority: "text"),
                Self.ssip(6, "user:orcax:main", priority: "progress", outcome: .ended(.throttled)), mail, Self.ssip(7, nil, priority: "notification"),
            ], into: db)
        return db
    }

    @Test("--client matches the whole name or an SSIP row's application, in any case, and nothing longer")
    func filter() throws {
        let db = try sample()
        func texts(_ client: String) throws -> [String] { try UtteranceLog.rows(LogFilter(client: client), in: db).map(\.row.text) }
        #expect(try texts("orca") == ["ssip 1.0", "ssip 2.0", "ssip 3.0"])
        #expect(try texts("ORCA") == ["ssip 1.0", "ssip 2.0", "ssip 3.0"])
        #expect(try texts("user:orca:default") == ["ssip 1.0"])
        #expect(try texts("spd-say") == ["ssip 4.0"])
        #expect(try texts("orcax") == ["ssip 6.0"])
        #expect(try texts("mail") == ["message 5"])
        #expect(try texts("orc").isEmpty)
        #expect(try texts("user").isEmpty)
        // A bound value, not SQL.
        #expect(try texts("orca' OR 1=1 --").isEmpty)
        #expect(try UtteranceLog.rows(LogFilter(outcome: "spoken", client: "orca"), in: db).map(\.row.text) == ["ssip 1.0", "ssip 3.0"])
    }

    @Test("stats count per client (application, else name) and show SSIP priorities as ssip-PRIORITY")
    func statistics() throws {
        let db = try sample()
        let stats = try UtteranceLog.statistics(LogFilter(), in: db)
        // "Orca" and "orca" are one client, as --client finds them.
        #expect(stats.byClient.map { "\($0.0) \($0.1)" } == ["orca 3", "- 1", "mail 1", "orcax 1", "spd-say 1"])
        #expect(stats.byPriority.map(\.0).sorted() == ["default", "ssip-important", "ssip-message", "ssip-notification", "ssip-progress", "ssip-text"])
        #expect(stats.byPriority.first { $0.0 == "ssip-text" }?.1 == 2)
        let orca = try UtteranceLog.statistics(LogFilter(client: "orca"), in: db)
        #expect(orca.total == 3 && orca.interruptions == 1)
        #expect(orca.byClient.map(\.0) == ["orca"])
        #expect(orca.byClient.first?.1 == 3)
    }

    @Test("a row's client in Swift is the one SQL groups by (in lower case)")
    func label() throws {
        let db = try sample()
        let rows = try UtteranceLog.rows(LogFilter(), in: db).map(\.row)
        #expect(rows.map { $0.client ?? "-" } == ["orca", "Orca", "orca", "spd-say", "mail", "orcax", "-"])
        let grouped = try UtteranceLog.statistics(LogFilter(), in: db).byClient
        for (name, count) in grouped { #expect(rows.filter { ($0.client?.lowercased() ?? "-") == name }.count == count, "\(name)") }
        #expect(LogRow(kind: .ssip, text: "", clientName: "user::x", queuedAt: 0, outcome: .ended(.spoken)).client == "user::x")
        #expect(LogRow(kind: .ssip, text: "", clientName: "user:app", queuedAt: 0, outcome: .ended(.spoken)).client == "app")
        // A JSON client's name is its own, colons and all.
        #expect(LogRow(kind: .announcement, text: "", clientName: "a:b:c", queuedAt: 0, outcome: .ended(.spoken)).client == "a:b:c")
        #expect(LogRow(kind: .ssip, text: "", clientName: "", queuedAt: 0, outcome: .ended(.spoken)).client == nil)
    }
}
