import NarratorSpeechPlan

/// Which rows `narratorctl log` and `stats` look at.
public struct LogFilter: Sendable, Hashable {
    /// Rows queued at or after this time (the row's clock: Unix seconds, or trace seconds in an experiment).
    public var since: Double?
    public var outcome: String?
    public var tree: String?
    /// Only rows of this experiment; nil means live rows (no experiment).
    public var experiment: String?
    public var policy: String?
    /// Rows of this client: its whole name, or an SSIP row's application ("orca" for
    /// "user:orca:default"), ignoring (ASCII) case.
    public var client: String?
    public var limit: Int?
    /// Rows queued before this time.
    public var until: Double?
    /// Whether command rows (kind `command`: SSIP `CANCEL` and `STOP`, `stop`) are included;
    /// they are not utterances, and only a trace needs them.
    public var commands = false

    public init(
        since: Double? = nil, outcome: String? = nil, tree: String? = nil, experiment: String? = nil, policy: String? = nil, client: String? = nil,
        limit: Int? = nil, until: Double? = nil, commands: Bool = false
    ) {
        self.since = since
        self.outcome = outcome
        self.tree = tree
        self.experiment = experiment
        self.policy = policy
        self.client = client
        self.limit = limit
        self.until = until
        self.commands = commands
    }

    var whereClause: (sql: String, arguments: [SQLValue]) {
        // Each filter is a fixed condition with bound values (one per "?"): nothing a user types becomes SQL.
        let filters: [(condition: String, value: SQLValue?)] = [
            ("queued_at >= ?", since.map(SQLValue.real)), ("queued_at < ?", until.map(SQLValue.real)), ("outcome = ?", outcome.map(SQLValue.text)), ("tree = ?", tree.map(SQLValue.text)),
            ("policy = ?", policy.map(SQLValue.text)), ("experiment = ?", experiment.map(SQLValue.text)),
            ("(client_name = ? COLLATE NOCASE OR \(UtteranceLog.ssipApplication) = ? COLLATE NOCASE)", client.map(SQLValue.text)),
        ]
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        for (condition, value) in filters {
            guard let value else { continue }
            conditions.append(condition)
            arguments += Array(repeating: value, count: condition.count { $0 == "?" })
        }
        if experiment == nil { conditions.append("experiment IS NULL") }
        if !commands { conditions.append("kind != 'command'") }
        return ("WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}

/// What `narratorctl stats` reports.
public struct LogStatistics: Sendable, Hashable {
    public var total: Int
    public var byOutcome: [(String, Int)]
    public var byTree: [(String, Int)]
    public var byPriority: [(String, Int)]
    /// Per client as `LogRow.client` names it, in lower case ("Orca" and "orca" are one, as for
    /// `LogFilter.client`); "-" for rows without one.
    public var byClient: [(String, Int)]
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
            && a.byPriority.elementsEqual(b.byPriority, by: ==) && a.byClient.elementsEqual(b.byClient, by: ==)
            && a.latencyP50 == b.latencyP50 && a.latencyP95 == b.latencyP95
            && a.latencyP99 == b.latencyP99 && a.speechTime == b.speechTime && a.interruptions == b.interruptions
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(total) }
}

extension UtteranceLog {
    /// SQL for an SSIP row's application, the second field of its "user:application:component"
    /// name (to the end when there is no third); NULL for other rows and when that field is empty.
    /// `LogRow.ssipApplication` is the same in Swift.
    static let ssipApplication: String = {
        let rest = "substr(client_name, instr(client_name, ':') + 1)"
        let field = "CASE WHEN instr(\(rest), ':') > 0 THEN substr(\(rest), 1, instr(\(rest), ':') - 1) ELSE \(rest) END"
        return "(CASE WHEN kind = 'ssip' AND instr(client_name, ':') > 0 THEN NULLIF(\(field), '') END)"
    }()

    /// SQL for `LogRow.client`: an SSIP row's application, else the client's name; NULL for none.
    static let clientLabel = "NULLIF(COALESCE(\(ssipApplication), client_name), '')"

    /// Rows matching `filter`, newest last (the most recent `limit` when there is one).
    public static func rows(_ filter: LogFilter, in database: Database) throws(DatabaseError) -> [(id: Int64, row: LogRow)] {
        let (clause, arguments) = filter.whereClause
        let limit = filter.limit.map { " LIMIT \($0)" } ?? ""
        // A file no daemon has opened since schema 4 has no connection or command yet.
        let columns = try Schema.userVersion(database) >= 4 ? LogRow.columns : LogRow.columnsBeforeVersion4
        let sql = "SELECT * FROM (SELECT id, \(columns) FROM utterances \(clause) ORDER BY queued_at DESC, id DESC\(limit)) ORDER BY queued_at, id"
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
        func percentile(_ p: Double) -> Double? { NearestRank.percentile(latencies, p) }
        return LogStatistics(
            total: Int(totals.0), byOutcome: try counts("outcome"), byTree: try counts("tree"),
            byPriority: try counts("CASE WHEN kind = 'announcement' THEN priority WHEN kind = 'ssip' THEN 'ssip-' || COALESCE(priority, '-') ELSE kind END"),
            byClient: try counts("lower(\(clientLabel))"), latencyP50: percentile(0.5),
            latencyP95: percentile(0.95), latencyP99: percentile(0.99), speechTime: totals.1, interruptions: Int(totals.2))
    }
}

extension LogRow {
    /// Who spoke, as `log` and `stats` name it: an SSIP row's application ("orca" for
    /// "user:orca:default"), else the client's name (a JSON client's `hello`); nil for none.
    public var client: String? {
        if let application = ssipApplication { return application }
        return clientName?.isEmpty == false ? clientName : nil
    }

    /// The second field of an SSIP row's "user:application:component" name (to the end when
    /// there is no third), nil for other rows or an empty field (as `UtteranceLog.ssipApplication`).
    public var ssipApplication: String? {
        guard kind == .ssip, let name = clientName else { return nil }
        let fields = name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, !fields[1].isEmpty else { return nil }
        return String(fields[1])
    }
}
