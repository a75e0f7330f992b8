import Foundation
import NarratorSpeechPlan
import NarratorStore
import Synchronization
import Testing

@Suite("Log writer: batched group commit on its own thread")
struct LogWriterTests {
    @Test("every appended row is committed, its completion gets its id, and a reader sees it while the writer runs")
    func commitsAndCompletes() throws {
        let path = try temporaryDirectory() + "/log.db"
        let writer = try LogWriter(path: path)
        let ids = Mutex<[Int64: Int64]>([:])
        for n in 1...500 {
            writer.append(row(Int64(n))) { result in
                if case .success(let id) = result { ids.withLock { $0[Int64(n)] = id } }
            }
        }
        writer.flush()
        #expect(ids.withLock { $0.count } == 500)
        let status = writer.status
        #expect(status.rowsWritten == 500)
        #expect(status.pending == 0)
        #expect(status.batches >= 1 && status.batches <= 500)
        #expect(status.commitLatencyP99 != nil)
        // A second connection (as the sqlite3 shell would be) reads while the writer is open.
        let reader = try UtteranceLog.openForReading(path)
        let rows = try UtteranceLog.rows(LogFilter(), in: reader)
        #expect(rows.count == 500)
        #expect(rows.first?.row == row(1))
        #expect(ids.withLock { $0[1] } == rows.first?.id)
        writer.close()
    }

    @Test("the writer reports its health after each batch, before the batch's completions run")
    func healthComesBeforeCompletions() throws {
        let path = try temporaryDirectory() + "/log.db"
        let reported = Mutex<[LogHealth]>([])
        let writer = try LogWriter(path: path, onHealth: { health in reported.withLock { $0.append(health) } })
        let seenByCompletion = Mutex<Int?>(nil)
        writer.append(row(1)) { _ in
            // Whoever answers a client from here must already know this batch's figures.
            seenByCompletion.withLock { $0 = reported.withLock { $0.last?.rowsWritten } }
        }
        writer.flush()
        #expect(seenByCompletion.withLock { $0 } == 1)
        #expect(reported.withLock { $0.first?.isOpen } == true, "opening the file was reported too")
        #expect(writer.health.rowsWritten == 1 && writer.health.path == path)
        writer.close()
    }

    @Test("a locked database fails the batch with reason locked, status shows it, and writing resumes after")
    func lockedDatabase() throws {
        let path = try temporaryDirectory() + "/log.db"
        let writer = try LogWriter(path: path, busyTimeout: .milliseconds(50))
        let blocker = try Database(path: path)
        try blocker.execute("BEGIN IMMEDIATE")
        let failure = Mutex<DatabaseError?>(nil)
        writer.append(row(1)) { result in
            if case .failure(let error) = result { failure.withLock { $0 = error } }
        }
        writer.flush()
        #expect(failure.withLock { $0 }?.reason == "locked")
        #expect(writer.status.lastError?.reason == "locked")
        #expect(writer.status.rowsFailed == 1)
        try blocker.execute("ROLLBACK")
        let succeeded = Mutex(false)
        writer.append(row(2)) { result in
            if case .success = result { succeeded.withLock { $0 = true } }
        }
        writer.flush()
        #expect(succeeded.withLock { $0 })
        #expect(writer.status.lastError == nil)
    }

    @Test("dropping the last reference to a writer commits what it holds and stops its thread")
    func deinitCloses() throws {
        let path = try temporaryDirectory() + "/log.db"
        do {
            let writer = try LogWriter(path: path)
            for n in 1...100 { writer.append(row(Int64(n))) }
        }
        let db = try UtteranceLog.openForReading(path)
        #expect(try db.query("SELECT COUNT(*) FROM utterances") { $0.int64(0) } == [100])
    }

    @Test("an update fills in the outcome of a row appended earlier, even in the same batch")
    func updates() throws {
        let path = try temporaryDirectory() + "/log.db"
        let writer = try LogWriter(path: path)
        writer.append(row(7, outcome: .queued))
        var final = row(7, outcome: .ended(.spoken), started: 7.5, ended: 9)
        final.utterance = 3
        writer.update(final)
        writer.flush()
        let db = try UtteranceLog.openForReading(path)
        #expect(try UtteranceLog.rows(LogFilter(), in: db).map(\.row) == [final])
        writer.close()
        // A writer reopening the file numbers announcements after the ones it holds.
        #expect(try LogWriter(path: path).lastAnnouncementID == 7)
    }

    @Test("a database that cannot be opened is reported before anything runs")
    func cannotOpen() throws {
        let directory = try temporaryDirectory()
        _ = FileManager.default.createFile(atPath: directory + "/file", contents: Data("x".utf8))
        do {
            _ = try LogWriter(path: directory + "/file/log.db")
            Issue.record("opened a database under a regular file")
        } catch {
            #expect(error.reason == "cannot_open")
        }
    }

    @Test("a writer started while its file cannot be opened fails rows with the reason, then opens it when it can")
    func opensLateWhenTheFaultClears() throws {
        let directory = try temporaryDirectory()
        let blocked = directory + "/state"
        _ = FileManager.default.createFile(atPath: blocked, contents: Data("not a directory".utf8))
        let writer = LogWriter.starting(path: blocked + "/log.db", reopenInterval: .milliseconds(50))
        #expect(!writer.status.isOpen)
        #expect(writer.status.lastError?.reason == "cannot_open")
        let first = Mutex<Result<Int64, DatabaseError>?>(nil)
        writer.append(row(1)) { result in first.withLock { $0 = result } }
        writer.flush()
        #expect(throws: DatabaseError.self) { try first.withLock { $0 }?.get() }
        #expect(writer.status.rowsFailed == 1)

        // The fault clears: the writer opens the file by itself (status says so) and rows commit.
        try FileManager.default.removeItem(atPath: blocked)
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: false)
        let deadline = ContinuousClock.now + .seconds(30)
        while !writer.status.isOpen && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(writer.status.isOpen)
        #expect(writer.status.lastError == nil)
        #expect(writer.status.reopenings == 1)
        let second = Mutex<Result<Int64, DatabaseError>?>(nil)
        writer.append(row(2)) { result in second.withLock { $0 = result } }
        writer.flush()
        #expect(try second.withLock { $0 }?.get() != nil)
        writer.close()
        let db = try UtteranceLog.openForReading(blocked + "/log.db")
        #expect(try db.query("SELECT announcement FROM utterances") { $0.int64(0) } == [2])
    }

    @Test("an update touches only its own row, not an earlier daemon's row with the same announcement number")
    func updatesMatchTheirOwnRow() throws {
        let path = try temporaryDirectory() + "/log.db"
        let writer = try LogWriter(path: path)
        let earlier = row(1, outcome: .ended(.spoken), started: 0.5, ended: 1)
        writer.append(earlier)
        var later = row(1, outcome: .queued)
        later.queuedAt = 500
        writer.append(later)
        later.outcome = .ended(.cancelled)
        later.endedAt = 501
        writer.update(later)
        writer.flush()
        writer.close()
        let db = try UtteranceLog.openForReading(path)
        #expect(try UtteranceLog.rows(LogFilter(), in: db).map(\.row) == [earlier, later])
    }

    @Test("SIGKILL: every acknowledged row is in the database afterwards, and integrity_check is ok")
    func durableAfterSIGKILL() throws {
        let path = try temporaryDirectory() + "/killed.db"
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: productsDirectory + "/narrator-log-probe")
        probe.arguments = [path]
        let output = Pipe()
        probe.standardOutput = output
        try probe.run()
        var text = ""
        let reader = output.fileHandleForReading
        // Wait for a few hundred acknowledgements, then kill it mid-stream.
        while text.split(separator: "\n").count < 300 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(probe.processIdentifier, SIGKILL)
        probe.waitUntilExit()
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        #expect(probe.terminationReason == .uncaughtSignal)
        let acknowledged = Set(text.split(separator: "\n").compactMap { line in line.hasPrefix("ack ") ? Int64(line.dropFirst(4)) : nil })
        #expect(acknowledged.count >= 300)
        let db = try UtteranceLog.openForWriting(path)
        #expect(try db.integrityCheck() == ["ok"])
        let stored = Set(try db.query("SELECT announcement FROM utterances") { $0.int64(0) })
        #expect(acknowledged.isSubset(of: stored))
    }
}
