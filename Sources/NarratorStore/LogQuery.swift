import NarratorCore
/// Which rows `narratorctl log` and `stats` look at.
public struct LogFilter: Sendable, Hashable {
    /// Rows queued at or after this time (the row's clock: Unix seconds, or trace seconds in an experiment).
    public var since: Double?
    public var outcome: String?
    public var tree: String?
    /// Only rows of this experiment; nil means live rows (no experiment).
    public var experiment: String?
    public var policy: String?
    public var limit: Int?

    public init(since: Double? = nil, outcome: String? = nil, tree: String? = nil, experiment: String? = nil, policy: String? = nil, limit: Int? = nil) {
        self.since = since
        self.outcome = outcome
        self.tree = tree
        self.experiment = experiment
        self.policy = policy
        self.limit = limit
    }

    var whereClause: (sql: String, arguments: [SQLValue]) {
        // Each filter is a fixed condition with a bound value: nothing a user types becomes SQL.
        let filters: [(condition: String, value: SQLValue?)] = [
            ("queued_at >=", since.map(SQLValue.real)), ("outcome =", outcome.map(SQLValue.text)), ("tree =", tree.map(SQLValue.text)),
            ("policy =", policy.map(SQLValue.text)), ("experiment =", experiment.map(SQLValue.text)),
        ]
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        for (condition, value) in filters {
            guard let value else { continue }
            conditions.append(condition + " ?")
            arguments.append(value)
        }
        if experiment == nil { conditions.append("experiment IS NULL") }
        return ("WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}

/// What `narratorctl stats` reports.
public struct LogStatistics: Sendable, Hashable {
    public var total: Int
    public var byOutcome: [(String, Int)]
    public var byTree: [(String, Int)]
    public var byPriority: [(String, Int)]
    /// Queued to started, in seconds, of announcements that started.
    public var latencyP50: Double?
    public var latencyP95: Double?
    public var latencyP99: Double?
    /// Seconds of speech (started to ended) of every row.
    public var speechTime: Double
    /// Utterances cut by later speech.
    public var interruptions: Int

    public static func == (a: LogStatistics, b: LogStatistics) -> Bool {
        a.total == b.total && a.byOutcome.elementsEqual(b.byOutcome, by: ==) && a.byTree.elementsEqual(b.byTree, by: ==)
            && a.byPriority.elementsEqual(b.byPriority, by: ==) && a.latencyP50 == b.latencyP50 && a.latencyP95 == b.latencyP95
            && a.latencyP99 == b.latencyP99 && a.speechTime == b.speechTime && a.interruptions == b.interruptions
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(total) }
}

extension UtteranceLog {
    /// Rows matching `filter`, newest last (the most recent `limit` when there is one).
    public static func rows(_ filter: LogFilter, in database: Database) throws(DatabaseError) -> [(id: Int64, row: LogRow)] {
        let (clause, arguments) = filter.whereClause
        let limit = filter.limit.map { " LIMIT \($0)" } ?? ""
        let sql = "SELECT * FROM (SELECT id, \(LogRow.columns) FROM utterances \(clause) ORDER BY queued_at DESC, id DESC\(limit)) ORDER BY queued_at, id"
        return try database.query(sql, arguments, row: LogRow.read)
    }

    /// Counts, latency percentiles, speech time and interruptions of the rows matching `filter`.
    public static func statistics(_ filter: LogFilter, in database: Database) throws(DatabaseError) -> LogStatistics {
        let (clause, arguments) = filter.whereClause
        func counts(_ column: String) throws(DatabaseError) -> [(String, Int)] {
            try database.query(
                "SELECT COALESCE(\(column), '-'), COUNT(*) FROM utterances \(clause) GROUP BY 1 ORDER BY 2 DESC, 1", arguments
            ) { ($0.string(0) ?? "-", Int($0.int64(1))) }
        }
        let latencies = try database.query(
            "SELECT started_at - queued_at FROM utterances \(clause) AND kind = 'announcement' AND started_at IS NOT NULL ORDER BY 1",
            arguments
        ) { $0.double(0) }
        let totals = try database.query(
            "SELECT COUNT(*), COALESCE(SUM(ended_at - started_at), 0), COALESCE(SUM(outcome = 'interrupted'), 0) FROM utterances \(clause)",
            arguments
        ) { ($0.int64(0), $0.double(1), $0.int64(2)) }[0]
        func percentile(_ p: Double) -> Double? {
            latencies.isEmpty ? nil : latencies[min(latencies.count - 1, Int((p * Double(latencies.count - 1)).rounded()))]
        }
        return LogStatistics(
            total: Int(totals.0), byOutcome: try counts("outcome"), byTree: try counts("tree"),
            byPriority: try counts("CASE WHEN kind = 'announcement' THEN priority ELSE kind END"), latencyP50: percentile(0.5),
            latencyP95: percentile(0.95), latencyP99: percentile(0.99), speechTime: totals.1, interruptions: Int(totals.2))
    }
}
