import CSQLite

/// A value bound to a statement parameter.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    public static func optional(_ value: Double?) -> SQLValue { value.map(SQLValue.real) ?? .null }
    public static func optional(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
}

/// A prepared statement, reset and rebound for each use.
public final class Statement {
    let handle: OpaquePointer
    let database: Database
    let sql: String

    init(_ handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to parameters 1, 2, ...
    public func bind(_ values: [SQLValue]) throws(DatabaseError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .integer(let n): status = sqlite3_bind_int64(handle, index, n)
            case .real(let x): status = sqlite3_bind_double(handle, index, x)
            case .text(let s): status = sqlite3_bind_text(handle, index, s, -1, narrator_sqlite_transient())
            }
            guard status == SQLITE_OK else { throw DatabaseError.last(database.handle, code: status, context: "bind parameter \(index) of \(Database.shorten(sql))") }
        }
    }

    /// Advances: true when a row is ready to read, false when the statement is done.
    public func step() throws(DatabaseError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status:
            let error = DatabaseError.last(database.handle, code: status, context: Database.shorten(sql))
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds, runs to completion, and resets (for INSERT, UPDATE, DELETE).
    public func run(_ values: [SQLValue]) throws(DatabaseError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    public func string(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }
}
