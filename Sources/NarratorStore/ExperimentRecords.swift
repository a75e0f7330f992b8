
/// An experiment's row with its record (`experiments.record`, schema 4): what `narratorctl
/// experiment` writes and what `--rerun` reads back.
extension UtteranceLog {
    /// Records an experiment: its traces and policies (as replay's rows do, comma-separated) and its record as JSON.
    public static func insertExperiment(
        id: String, traces: [String], policies: [String], record: String, createdAt: Double, into database: Database
    ) throws(DatabaseError) {
        try database.prepare("INSERT INTO experiments (id, created_at, trace, policies, record) VALUES (?, ?, ?, ?, ?)")
            .run([.text(id), .real(createdAt), .text(traces.joined(separator: ",")), .text(policies.joined(separator: ",")), .text(record)])
    }

    /// What is stored about experiment `id`.
    public enum StoredExperiment: Sendable, Equatable {
        case record(String)
        /// The id exists but has no record (a `replay`, or a database from before schema 4).
        case noRecord
        /// No such id; `known` lists the ids the file holds, newest first.
        case missing(known: [String])
    }

    public static func experiment(_ id: String, in database: Database) throws(DatabaseError) -> StoredExperiment {
        let found = try database.query("SELECT record FROM experiments WHERE id = ?", [.text(id)]) { $0.string(0) }
        if let first = found.first { return first.map(StoredExperiment.record) ?? .noRecord }
        let known = try database.query("SELECT id FROM experiments ORDER BY created_at DESC") { $0.string(0) ?? "" }
        return .missing(known: known)
    }
}
