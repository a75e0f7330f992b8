import CSQLite

/// One SQLite connection, used from one thread (SQLite's own locking covers other processes).
///
/// A thin typed wrapper in the spirit of GRDB: every call that can fail throws a ``DatabaseError``
/// carrying SQLite's result code and message.
public final class Database {
    public enum Mode: Sendable {
        /// Open for reading only (the CLI's `log` and `stats`).
        case readOnly
        /// Open for reading and writing, creating the file if needed.
        case create
    }

    public let path: String
    let handle: OpaquePointer

    /// Opens (or creates) the database at `path`; `busyTimeout` bounds how long a statement waits
    /// for another process's lock before failing with `SQLITE_BUSY`.
    public init(path: String, mode: Mode = .create, busyTimeout: Duration = .milliseconds(250)) throws(DatabaseError) {
        var handle: OpaquePointer?
        let flags: Int32 =
            switch mode {
            case .readOnly: SQLITE_OPEN_READONLY
            case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let error = DatabaseError.last(handle, code: status, context: "open \(path)")
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(clamping: busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000))
        self.path = path
        self.handle = handle
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            throw DatabaseError(extendedCode: sqlite3_extended_errcode(handle), message: text, context: Self.shorten(sql))
        }
    }

    /// Compiles a statement for repeated use.
    public func prepare(_ sql: String) throws(DatabaseError) -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw DatabaseError.last(handle, code: status, context: Self.shorten(sql))
        }
        return Statement(statement, database: self, sql: sql)
    }

    /// The rows of a query, each read by `row`.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [], row: (Statement) -> T) throws(DatabaseError) -> [T] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() { rows.append(row(statement)) }
        return rows
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Switches to write-ahead logging, so readers (the `sqlite3` shell, `narratorctl log`) never
    /// block the writer; `synchronous=FULL` makes each commit durable before it is acknowledged.
    public func enableWAL() throws(DatabaseError) {
        let mode = try query("PRAGMA journal_mode=WAL") { $0.string(0) ?? "" }.first ?? ""
        guard mode.lowercased() == "wal" else {
            throw DatabaseError(extendedCode: SQLITE_ERROR, message: "journal mode stayed \(mode)", context: "enable WAL on \(path)")
        }
        try execute("PRAGMA synchronous=FULL")
    }

    /// `PRAGMA integrity_check`: "ok", or the problems found.
    public func integrityCheck() throws(DatabaseError) -> [String] {
        try query("PRAGMA integrity_check") { $0.string(0) ?? "" }
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    static func shorten(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: " ") }.joined(separator: " ")
        return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}
