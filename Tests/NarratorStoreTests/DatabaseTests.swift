import CSQLite
import Foundation
import NarratorStore
import Testing

@Suite("SQLite wrapper and schema, on real files")
struct DatabaseTests {
    @Test("a new log is in WAL mode at the current schema version, and reopening it changes nothing")
    func schema() throws {
        let path = try temporaryDirectory() + "/log.db"
        do {
            let db = try UtteranceLog.openForWriting(path)
            #expect(try Schema.userVersion(db) == Schema.version)
            #expect(try db.query("PRAGMA journal_mode") { $0.string(0) } == ["wal"])
            try UtteranceLog.insert([row(1)], into: db)
        }
        let again = try UtteranceLog.openForWriting(path)
        #expect(try Schema.userVersion(again) == Schema.version)
        #expect(try again.query("SELECT COUNT(*) FROM utterances") { $0.int64(0) } == [1])
    }

    @Test("an old log is migrated forward, keeping its rows")
    func migration() throws {
        let path = try temporaryDirectory() + "/old.db"
        do {
            let db = try Database(path: path)
            try db.execute(Schema.migrations[0])
            try db.execute("PRAGMA user_version = 1")
            try db.execute("INSERT INTO utterances (kind, text, queued_at, outcome) VALUES ('focus', 'OK, button', 1, 'spoken')")
        }
        let db = try UtteranceLog.openForWriting(path)
        #expect(try Schema.userVersion(db) == Schema.version)
        #expect(try db.query("SELECT name FROM sqlite_master WHERE name = 'utterances_outcome'") { $0.string(0) } == ["utterances_outcome"])
        #expect(try db.query("SELECT text FROM utterances") { $0.string(0) } == ["OK, button"])
    }

    @Test("a log from a newer Narrator is refused with advice")
    func newerSchema() throws {
        let path = try temporaryDirectory() + "/new.db"
        try Database(path: path).execute("PRAGMA user_version = 99")
        do {
            _ = try UtteranceLog.openForWriting(path)
            Issue.record("opened a newer schema")
        } catch {
            #expect(error.description.contains("schema version 99 is newer"))
        }
    }

    @Test("errors carry SQLite's result code, its message and a reason")
    func errors() throws {
        let directory = try temporaryDirectory()
        do {
            _ = try Database(path: directory + "/missing/dir/log.db")
            Issue.record("opened a file in a missing directory")
        } catch {
            #expect(error.code == SQLITE_CANTOPEN)
            #expect(error.reason == "cannot_open")
        }
        let path = directory + "/log.db"
        _ = try UtteranceLog.openForWriting(path)
        let reader = try UtteranceLog.openForReading(path)
        do {
            try UtteranceLog.insert([row(1)], into: reader)
            Issue.record("wrote through a read-only connection")
        } catch {
            #expect(error.code == SQLITE_READONLY)
            #expect(error.reason == "readonly")
        }
        do {
            _ = try reader.prepare("SELECT nope FROM utterances")
            Issue.record("prepared a bad statement")
        } catch {
            #expect(error.message.contains("no such column: nope"))
        }
    }
}
