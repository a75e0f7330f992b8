import Foundation
import NarratorExperiments
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import NarratorStore
import NarratorSystem

/// `narratorctl log` and `narratorctl stats`: read the SQLite log directly, daemon or not.
enum LogCommand {
    /// The file to read: `--db`; else, for a replay's experiment, the replay database (where replay
    /// records them); else, for live rows, the log of the daemon that answers at the socket; else
    /// (no daemon) the default.
    /// Unless `--db` chose it, the file is named on stderr, so that nobody reads one log thinking
    /// it is another.
    static func locate(_ request: LogRequest, command: String, environment: [String: String], console: Console) -> String {
        if let database = request.database { return database }
        if request.experiment != nil {
            let replays = LogTime.defaultReplayDatabase(environment)
            console.err("narratorctl \(command): reading \(replays) (where replay records experiments unless given --db)\n")
            return replays
        }
        let fallback = LogTime.defaultDatabase(environment)
        let socket = SocketPath.resolve(flag: request.socket, environment: environment, uid: getuid()).path
        guard let path = daemonLogPath(socket: socket) else {
            console.err("narratorctl \(command): reading \(fallback) (no narratord answered at \(socket) to say where its log is)\n")
            return fallback
        }
        console.err("narratorctl \(command): reading \(path), the log of narratord at \(socket)\n")
        return path
    }

    /// Where the daemon at `socket` writes its log (its `status`), or nil when none answers.
    /// The wait is bounded: a daemon that does not answer must not hang a command that can do
    /// without it.
    static func daemonLogPath(socket: String) -> String? {
        guard let client = try? UnixClient(connectingTo: socket) else { return nil }
        defer { client.close() }
        guard (try? client.send(line: Request(id: 1, command: .status).line)) != nil,
            let line = try? client.readLine(timeout: .seconds(5)),
            case .reply(let reply)? = try? ServerMessage(line: line, answering: .status),
            case .success(.status(let status)) = reply.outcome
        else { return nil }
        let path = status.log.path
        // A relative --db is relative to the daemon's working directory, not ours.
        if !path.hasPrefix("/"), let directory = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(status.pid)/cwd") {
            return directory + "/" + path
        }
        return path
    }

    static func open(_ request: LogRequest, command: String, environment: [String: String], console: Console) -> Database? {
        let path = locate(request, command: command, environment: environment, console: console)
        guard FileManager.default.fileExists(atPath: path) else {
            let remedy = request.experiment != nil ? "run narratorctl replay" : "start narratord"
            console.err("narratorctl: no log at \(path) (\(remedy), or pass --db PATH)\n")
            return nil
        }
        do {
            return try UtteranceLog.openForReading(path)
        } catch {
            console.err("narratorctl: \(error)\n")
            return nil
        }
    }

    static func filter(_ request: LogRequest) -> LogFilter {
        let now = Date().timeIntervalSince1970
        return LogFilter(
            since: request.since.flatMap { LogTime.parse($0, now: now) }, outcome: request.outcome,
            tree: request.tree, experiment: request.experiment, policy: request.policy, client: request.client, limit: request.limit,
            until: request.until.flatMap { LogTime.parse($0, now: now) }, commands: request.format == .trace)
    }

    static func log(_ request: LogRequest, environment: [String: String], console: Console) -> ExitStatus {
        guard let database = open(request, command: "log", environment: environment, console: console) else { return .refused }
        let rows: [(id: Int64, row: LogRow)]
        do {
            rows = try UtteranceLog.rows(filter(request), in: database)
        } catch {
            console.err("narratorctl log: \(error)\n")
            return .refused
        }
        switch request.format {
        case .json: console.out(JSONValue.array(rows.map { json($0.id, $0.row) }).prettyText + "\n")
        case .csv: console.out(csv(rows))
        case .table: console.out(table(rows, experiment: request.experiment != nil))
        case .trace:
            let trace = LogTrace(rows: rows.map(\.row))
            console.out(trace.text(source: "narratorctl log --trace"))
            let start = rows.first.map { LogTime.format($0.row.queuedAt, experiment: false) } ?? "-"
            console.err("narratorctl log: \(trace.events.count) events from \(rows.count) rows, from \(start)\n")
            for (what, count) in trace.notCarried { console.err("narratorctl log: not carried by the trace: \(count) \(what)\n") }
        }
        return .success
    }

    static func stats(_ request: LogRequest, json: Bool, environment: [String: String], console: Console) -> ExitStatus {
        guard let database = open(request, command: "stats", environment: environment, console: console) else { return .refused }
        let stats: LogStatistics
        do {
            stats = try UtteranceLog.statistics(filter(request), in: database)
        } catch {
            console.err("narratorctl stats: \(error)\n")
            return .refused
        }
        func counts(_ pairs: [(String, Int)]) -> JSONValue { .object(JSONObject(pairs.map { .init(key: $0.0, value: .number(Double($0.1))) })) }
        if json || request.format == .json {
            let object: JSONValue = [
                "rows": .number(Double(stats.total)), "outcomes": counts(stats.byOutcome), "trees": counts(stats.byTree),
                "priorities": counts(stats.byPriority), "clients": counts(stats.byClient),
                "latency": ["p50": .optional(stats.latencyP50), "p95": .optional(stats.latencyP95), "p99": .optional(stats.latencyP99)],
                "speechSeconds": .number(stats.speechTime), "interruptions": .number(Double(stats.interruptions)),
            ]
            console.out(object.prettyText + "\n")
            return .success
        }
        func line(_ title: String, _ pairs: [(String, Int)]) -> String {
            "\(title): " + (pairs.isEmpty ? "-" : pairs.map { "\($0.0) \($0.1)" }.joined(separator: ", ")) + "\n"
        }
        func ms(_ value: Double?) -> String { value.map { String(format: "%.0f ms", $0 * 1000) } ?? "-" }
        var text = "rows: \(stats.total)\n"
        text += line("outcome", stats.byOutcome)
        text += line("tree", stats.byTree)
        text += line("priority/kind", stats.byPriority)
        text += line("client", stats.byClient)
        text += "queued to started: p50 \(ms(stats.latencyP50)), p95 \(ms(stats.latencyP95)), p99 \(ms(stats.latencyP99))\n"
        text += String(format: "speech time: %.1f s\n", stats.speechTime)
        text += "interruptions of ongoing speech: \(stats.interruptions)\n"
        console.out(text)
        return .success
    }

    static func json(_ id: Int64, _ row: LogRow) -> JSONValue {
        func int(_ n: Int64?) -> JSONValue { n.map { .number(Double($0)) } ?? .null }
        return [
            "id": .number(Double(id)), "announcement": int(row.announcement), "utterance": int(row.utterance), "kind": .string(row.kind.rawValue),
            "text": .string(row.text), "priority": .optional(row.priority), "tree": .optional(row.tree), "element": .optional(row.element),
            "key": .optional(row.dedupKey), "policy": .optional(row.policy),
            "client": ["pid": int(row.clientPID), "uid": int(row.clientUID), "name": .optional(row.clientName)],
            "queued": .number(row.queuedAt), "started": .optional(row.startedAt), "ended": .optional(row.endedAt),
            "outcome": .string(row.outcome.rawValue), "duplicate_of": int(row.duplicateOf), "interrupted_by": .optional(row.interruptedBy?.rawValue),
            "experiment": .optional(row.experiment),
        ]
    }

    /// `client` (who spoke, as the table's CLIENT) comes last, so the columns before it keep their places.
    static let csvColumns = [
        "id", "announcement", "utterance", "kind", "text", "priority", "tree", "element", "key", "policy", "client_pid", "client_uid",
        "client_name", "queued", "started", "ended", "outcome", "duplicate_of", "interrupted_by", "experiment", "client",
    ]

    static func csv(_ rows: [(id: Int64, row: LogRow)]) -> String {
        func field(_ text: String?) -> String {
            guard let text else { return "" }
            return text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func number(_ n: Double?) -> String { n.map { String(format: "%.6f", $0) } ?? "" }
        var out = csvColumns.joined(separator: ",") + "\n"
        for (id, r) in rows {
            let cells: [String] = [
                String(id), r.announcement.map(String.init) ?? "", r.utterance.map(String.init) ?? "", field(r.kind.rawValue), field(r.text),
                field(r.priority), field(r.tree), field(r.element), field(r.dedupKey), field(r.policy), r.clientPID.map(String.init) ?? "",
                r.clientUID.map(String.init) ?? "", field(r.clientName), number(r.queuedAt), number(r.startedAt), number(r.endedAt),
                field(r.outcome.rawValue), r.duplicateOf.map(String.init) ?? "", field(r.interruptedBy?.rawValue), field(r.experiment), field(r.client),
            ]
            out += cells.joined(separator: ",") + "\n"
        }
        return out
    }

    static func table(_ rows: [(id: Int64, row: LogRow)], experiment: Bool) -> String {
        let headings = ["QUEUED", "ID", "KIND", "PRIORITY", "TREE", "CLIENT", "POLICY", "OUTCOME", "WAIT", "TEXT"]
        let cells = rows.map { id, r -> [String] in
            let wait = r.startedAt.map { String(format: "%.0fms", ($0 - r.queuedAt) * 1000) } ?? "-"
            var outcome = r.outcome.rawValue
            if let of = r.duplicateOf { outcome += " (of \(of))" }
            if let by = r.interruptedBy { outcome += " (by \(by.rawValue))" }
            return [
                LogTime.format(r.queuedAt, experiment: experiment), r.announcement.map { "A\($0)" } ?? "U\(r.utterance ?? id)", r.kind.rawValue,
                r.priority ?? "-", r.tree ?? "-", r.client ?? "-", r.policy ?? "-", outcome, wait, r.text,
            ]
        }
        let widths = headings.indices.dropLast().map { column in
            (cells.map { DisplayWidth.of($0[column]) } + [headings[column].count]).max()! + 2
        }
        func line(_ row: [String]) -> String {
            zip(row.dropLast(), widths).map { DisplayWidth.padded($0, to: $1) }.joined() + row.last!
        }
        return ([line(headings)] + cells.map(line)).joined(separator: "\n") + "\n" + (rows.isEmpty ? "(no rows)\n" : "")
    }
}
