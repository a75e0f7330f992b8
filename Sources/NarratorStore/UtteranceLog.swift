import CSQLite
import Glibc
import NarratorSpeechPlan
import NarratorSystem

/// Opening the log database the way every Narrator component does: WAL, current schema.
public enum UtteranceLog {
    /// Opens `path` for writing (creating it and its directory), in WAL mode, migrated to the current schema.
    public static func openForWriting(_ path: String, busyTimeout: Duration = .milliseconds(250)) throws(DatabaseError) -> Database {
        let directory = Syscall.parentDirectory(of: path)
        if !directory.isEmpty {
            try? Syscall.makeDirectories(directory, mode: 0o700)
        }
        do throws(DatabaseError) {
            let database = try Database(path: path, mode: .create, busyTimeout: busyTimeout)
            try database.enableWAL()
            try Schema.migrate(database)
            return database
        } catch {
            throw readOnlyCause(of: error, path: path, directory: directory) ?? error
        }
    }

    /// SQLite says "unable to open database file" when the directory cannot take the WAL files;
    /// when the real cause is a directory or file this process cannot write (a read-only mount:
    /// `access` reports it even to root), say that instead, with the `readonly` reason.
    static func readOnlyCause(of error: DatabaseError, path: String, directory: String) -> DatabaseError? {
        guard [SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM].contains(error.code) else { return nil }
        let blocked: String
        if !directory.isEmpty, Syscall.exists(directory), !Syscall.isAccessible(directory, W_OK) {
            blocked = directory
        } else if Syscall.exists(path), !Syscall.isAccessible(path, W_OK) {
            blocked = path
        } else {
            return nil
        }
        return DatabaseError(
            extendedCode: SQLITE_READONLY, message: "\(blocked) cannot be written (a read-only filesystem, or no write permission)",
            context: "open \(path)")
    }

    /// Opens `path` for queries; the file must exist.
    public static func openForReading(_ path: String) throws(DatabaseError) -> Database {
        let database = try Database(path: path, mode: .readOnly, busyTimeout: .seconds(2))
        let version = try Schema.userVersion(database)
        guard version >= 1 else {
            throw DatabaseError(extendedCode: 1, message: "not a Narrator log (schema version 0)", context: "open \(path)")
        }
        return database
    }

    /// Inserts rows in one transaction (replays, tests, benchmarks' baseline).
    public static func insert(_ rows: [LogRow], into database: Database) throws(DatabaseError) {
        let statement = try database.prepare(LogRow.insertSQL)
        try database.transaction { () throws(DatabaseError) in
            for row in rows { try statement.run(row.values) }
        }
    }

    /// Records an experiment (one replay of a trace under some policies).
    public static func insertExperiment(id: String, trace: String, policies: [String], createdAt: Double, into database: Database) throws(DatabaseError) {
        try database.prepare("INSERT INTO experiments (id, created_at, trace, policies) VALUES (?, ?, ?, ?)")
            .run([.text(id), .real(createdAt), .text(trace), .text(policies.joined(separator: ","))])
    }
}
