import CSQLite
import NarratorSpeechPlan

/// A failed SQLite call: the result code, SQLite's own message, and what Narrator was doing.
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (`SQLITE_READONLY_DBMOVED`, `SQLITE_FULL`, ...).
    public var extendedCode: Int32
    public var message: String
    /// What was being done ("open /path", "insert a log row", the SQL statement).
    public var context: String

    public init(extendedCode: Int32, message: String, context: String) {
        self.extendedCode = extendedCode
        self.message = message
        self.context = context
    }

    /// The primary result code (`SQLITE_READONLY`, `SQLITE_BUSY`, `SQLITE_FULL`, ...).
    public var code: Int32 { extendedCode & 0xFF }

    /// A short stable name for the problem, for replies and `status` ("readonly", "disk_full", "locked", ...).
    public var reason: String {
        switch code {
        case SQLITE_READONLY: "readonly"
        case SQLITE_FULL: "disk_full"
        case SQLITE_BUSY, SQLITE_LOCKED: "locked"
        case SQLITE_CANTOPEN: "cannot_open"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "corrupt"
        case SQLITE_IOERR: "io_error"
        case SQLITE_PERM, SQLITE_AUTH: "permission_denied"
        default: "sqlite_error"
        }
    }

    public var description: String {
        let advice: String
        switch code {
        case SQLITE_READONLY, SQLITE_PERM: advice = " (check the file's and its directory's permissions)"
        case SQLITE_FULL: advice = " (free disk space)"
        case SQLITE_BUSY, SQLITE_LOCKED: advice = " (another process holds a write lock; close it)"
        case SQLITE_CANTOPEN: advice = " (does the directory exist and can this user write it?)"
        default: advice = ""
        }
        return "\(context): \(message) [SQLite code \(extendedCode)]\(advice)"
    }

    /// Whether the connection that reported this may stay broken after the cause is gone, so that
    /// the writer should open the file again: a read-only or moved file, an I/O error, a file that
    /// could not be opened. A full disk, a lock or a bad statement heal on the same connection.
    public var leavesConnectionUnusable: Bool {
        switch code {
        case SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_PERM: true
        default: false
        }
    }

    /// Whether the file is not a database SQLite can use (not one at all, or a corrupted one): it
    /// will not heal by opening it again.
    public var meansNotADatabase: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    /// Rows that arrive while no connection is open (and no open has been tried yet).
    static let notOpen = DatabaseError(extendedCode: SQLITE_CANTOPEN, message: "the log is not open", context: "write a log row")

    /// The error a handle reports after a failed call.
    static func last(_ handle: OpaquePointer?, code: Int32, context: String) -> DatabaseError {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        return DatabaseError(extendedCode: extended == 0 ? code : extended, message: message, context: context)
    }
}

extension DatabaseError {
    /// The failure as the session and `status` carry it: the stable reason and the message.
    public var problem: LogProblem { LogProblem(reason: reason, message: description) }
}
