import CSQLite
import Dispatch
import NarratorBase
import NarratorModel
import NarratorSpeechPlan
import NarratorSystem
import Synchronization

/// Writes log rows on its own thread, in batches: every row appended while a commit runs goes into
/// the next transaction (group commit). Appending never blocks, so speech never waits for the disk;
/// each row's completion runs once its transaction is durable (or failed), so a reply sent from it
/// is never about a row that could still be lost.
///
/// The writer outlives faults: when the file cannot be opened, or a commit fails in a way that may
/// leave the connection unusable (read-only, I/O error, the file moved), the rows of that batch fail
/// and the writer opens the file again, at most once per `reopenInterval`, when the next rows come.
/// A file at the path that is not a database (corrupted, or another program's) would never heal:
/// it is set aside under a dated name next to it, with its `-wal` and `-shm` files, and a fresh
/// log starts in its place (``Status/setAside`` says where it went).
public final class LogWriter: Sendable {
    public typealias Completion = @Sendable (Result<Int64, DatabaseError>) -> Void

    /// What `status` shows about the log.
    public struct Status: Sendable, Hashable {
        public var path: String
        /// True while the writer holds an open connection to the file.
        public var isOpen: Bool
        public var rowsWritten: Int
        public var rowsFailed: Int
        public var batches: Int
        public var pending: Int
        /// How many times the file was opened again after a failure.
        public var reopenings: Int
        /// The most recent failure, cleared by the next successful commit.
        public var lastError: DatabaseError?
        /// From append to commit, over the most recent rows (seconds): the latency an `announce` reply adds.
        public var commitLatencyP50: Double?
        public var commitLatencyP99: Double?
        /// The file found at `path` that was not a database, and where it was moved.
        public var setAside: LogSetAside?
    }

    private enum Item: Sendable {
        case row(LogRow, Completion?, enqueued: UInt64)
        /// Sets the outcome of a live announcement's row inserted earlier.
        case update(LogRow)
        case barrier(DispatchSemaphore)
    }

    private struct State: Sendable {
        var items: [Item] = []
        var closing = false
        /// A `flush(within:)` gave up and the writer has not got as far as its barrier since: a
        /// disk that does not answer, which `close(within:)` does not wait for again.
        var stalled = false
        var status: Status
        var latencies: [Double] = []
        var latencyCursor = 0
        var lastAnnouncementID: Int64 = 0
        var percentiles: (p50: Double?, p99: Double?)?
        var percentilesAt: UInt64 = 0
    }

    /// What the writer thread shares with callers. The thread holds only this, never the
    /// `LogWriter`, so dropping the last reference to the writer closes it.
    private final class Shared: Sendable {
        let state: Mutex<State>
        let wake = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        /// Told the writer's health after every batch and every attempt to open the file.
        let onHealth: (@Sendable (LogHealth) -> Void)?

        init(_ state: State, onHealth: (@Sendable (LogHealth) -> Void)?) {
            self.state = Mutex(state)
            self.onHealth = onHealth
        }

        /// The current health. Percentiles are sorted out of the lock, and at most every 250 ms
        /// when reporting after each batch (a busy writer commits hundreds of batches a second).
        func health(fresh: Bool) -> LogHealth {
            let now = MonotonicClock.now().nanoseconds
            let (status, latencies, last, cached) = state.withLock { state in
                // Another thread may have stored a later instant since `now` was read: then they are fresh.
                let stale = fresh || state.percentiles == nil || (now > state.percentilesAt && now - state.percentilesAt > 250_000_000)
                return (state.status, stale ? state.latencies : nil, state.lastAnnouncementID, state.percentiles)
            }
            var percentiles = cached
            if var latencies {
                latencies.sort()
                percentiles = latencies.isEmpty
                    ? (nil, nil) : (latencies[latencies.count / 2], latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))])
                state.withLock { state in
                    state.percentiles = percentiles
                    state.percentilesAt = now
                }
            }
            return LogHealth(
                path: status.path, isOpen: status.isOpen, rowsWritten: status.rowsWritten, rowsFailed: status.rowsFailed, pending: status.pending,
                reopenings: status.reopenings, problem: status.lastError.map(\.problem), commitLatencyP50: percentiles?.p50 ?? nil,
                commitLatencyP99: percentiles?.p99 ?? nil, lastAnnouncementID: last, setAside: status.setAside)
        }

        func reportHealth() {
            guard let onHealth else { return }
            onHealth(health(fresh: false))
        }
    }

    /// How the writer thread opens the file; only that thread calls it.
    private struct Opener: Sendable {
        var path: String
        var busyTimeout: Duration
        var reopenInterval: Duration
    }

    public let path: String
    /// The highest live announcement id in the file when it was last opened: a daemon numbers its
    /// announcements after it, so ids stay unique across restarts (and across a late open).
    public var lastAnnouncementID: Int64 { shared.state.withLock { $0.lastAnnouncementID } }
    /// The most rows kept waiting while the database cannot be written; older ones fail first.
    public let backlogLimit: Int
    private let shared: Shared
    private var wake: DispatchSemaphore { shared.wake }
    private var finished: DispatchSemaphore { shared.finished }

    /// Opens (creating and migrating) the database on a new writer thread.
    /// - Throws: the ``DatabaseError`` that kept it from opening; nothing is left running then.
    public convenience init(
        path: String, backlogLimit: Int = 100_000, busyTimeout: Duration = .milliseconds(250), reopenInterval: Duration = .seconds(1),
        onHealth: (@Sendable (LogHealth) -> Void)? = nil
    ) throws(DatabaseError) {
        try self.init(
            path: path, backlogLimit: backlogLimit, busyTimeout: busyTimeout, reopenInterval: reopenInterval, mustOpen: true, firstOpenWait: nil,
            onHealth: onHealth)
    }

    /// Starts a writer even when the file cannot be opened yet (a read-only or missing directory, a
    /// full disk): rows fail with the reason (see `status`) until an open succeeds, which is tried
    /// again at most once per `reopenInterval` when rows arrive. What a daemon wants: speech must
    /// not depend on the log, and the log must come back by itself when the fault clears.
    ///
    /// - Parameter onHealth: told the writer's health, on its thread, after every batch and every
    ///   attempt to open the file (how the daemon's session learns what `status` shows).
    ///
    /// - Parameter firstOpenWait: how long start-up waits for the first attempt to open the file.
    ///   A disk that does not answer (a hung network mount, a FIFO in the file's place) would hold
    ///   the daemon's start-up forever; past the bound the writer is returned with ``Status/lastError``
    ///   saying so, and the open goes on in the background (rows wait in the backlog for it).
    public static func starting(
        path: String, backlogLimit: Int = 100_000, busyTimeout: Duration = .milliseconds(250), reopenInterval: Duration = .seconds(1),
        firstOpenWait: Duration = .seconds(2), onHealth: (@Sendable (LogHealth) -> Void)? = nil
    ) -> LogWriter {
        do {
            return try LogWriter(
                path: path, backlogLimit: backlogLimit, busyTimeout: busyTimeout, reopenInterval: reopenInterval, mustOpen: false,
                firstOpenWait: firstOpenWait, onHealth: onHealth)
        } catch {
            preconditionFailure("a writer that need not open cannot fail to start: \(error)")
        }
    }

    private init(
        path: String, backlogLimit: Int, busyTimeout: Duration, reopenInterval: Duration, mustOpen: Bool, firstOpenWait: Duration?,
        onHealth: (@Sendable (LogHealth) -> Void)?
    ) throws(DatabaseError) {
        self.path = path
        self.backlogLimit = backlogLimit
        let shared = Shared(
            State(status: Status(path: path, isOpen: false, rowsWritten: 0, rowsFailed: 0, batches: 0, pending: 0, reopenings: 0)), onHealth: onHealth)
        self.shared = shared
        let opener = Opener(path: path, busyTimeout: busyTimeout, reopenInterval: reopenInterval)
        let firstOpen = Mutex<DatabaseError?>(nil)
        let ready = DispatchSemaphore(value: 0)
        DetachedThread.start(name: "narrator.log") {
            Self.run(shared, opener) { error in
                firstOpen.withLock { $0 = error }
                ready.signal()
                return error == nil || !mustOpen
            }
            shared.finished.signal()
        }
        guard let firstOpenWait else {
            ready.wait()
            if mustOpen, let error = firstOpen.withLock({ $0 }) { throw error }
            return
        }
        if ready.wait(timeout: .now() + .nanoseconds(Int(firstOpenWait.nanosecondsClamped))) == .timedOut {
            let stuck = DatabaseError(
                extendedCode: SQLITE_IOERR, message: "the first open did not finish within \(JSONWriter.format(firstOpenWait.asSeconds)) s (the disk does not answer)",
                context: "open \(path)")
            // Unless the open finished meanwhile: then its own outcome stands.
            let told = shared.state.withLock { state in
                guard !state.status.isOpen, state.status.lastError == nil else { return false }
                state.status.lastError = stuck
                return true
            }
            if told { shared.reportHealth() }
        }
    }

    /// An open database and its prepared statements.
    private final class Connection {
        let database: Database
        let insert: Statement
        let update: Statement

        init(_ database: Database) throws(DatabaseError) {
            self.database = database
            insert = try database.prepare(LogRow.insertSQL)
            update = try database.prepare(LogRow.updateSQL)
        }
    }

    /// Opens the file, records what `status` and `lastAnnouncementID` show, or records the failure.
    /// A file that is not a database is set aside first, and a fresh one opened in its place.
    private static func open(_ opener: Opener, _ shared: Shared, first: Bool) throws(DatabaseError) -> Connection {
        do throws(DatabaseError) {
            let connection: Connection
            let last: Int64
            do throws(DatabaseError) {
                (connection, last) = try connect(opener)
            } catch {
                guard error.meansNotADatabase else { throw error }
                let aside = try setAside(opener.path, because: error)
                shared.state.withLock { $0.status.setAside = aside }
                (connection, last) = try connect(opener)
            }
            shared.state.withLock { state in
                state.lastAnnouncementID = max(state.lastAnnouncementID, last)
                state.status.isOpen = true
                state.status.lastError = nil
                if !first { state.status.reopenings += 1 }
            }
            shared.reportHealth()
            return connection
        } catch {
            shared.state.withLock { state in
                state.status.isOpen = false
                state.status.lastError = error
            }
            shared.reportHealth()
            throw error
        }
    }

    /// Opens the database with its statements, and reads the highest live announcement id.
    private static func connect(_ opener: Opener) throws(DatabaseError) -> (Connection, Int64) {
        // Checked before SQLite opens it: SQLite removes a journal it cannot use when the failed
        // connection closes, and the journal goes with the file that is set aside.
        if !hasDatabaseHeader(opener.path) {
            throw DatabaseError(extendedCode: SQLITE_NOTADB, message: "file is not a database", context: "open \(opener.path)")
        }
        let database = try UtteranceLog.openForWriting(opener.path, busyTimeout: opener.busyTimeout)
        let connection = try Connection(database)
        let last = try database.query("SELECT COALESCE(MAX(announcement), 0) FROM utterances WHERE experiment IS NULL") { $0.int64(0) }[0]
        return (connection, last)
    }

    /// Whether the file at `path` is missing, empty (SQLite makes a new database of both) or starts
    /// with SQLite's header.
    static func hasDatabaseHeader(_ path: String) -> Bool {
        guard let header = try? Syscall.readFile(path, limit: 16) else { return true }
        return header.isEmpty || header == Array("SQLite format 3\0".utf8)
    }

    /// Renames the file at `path` (and its `-wal` and `-shm` files, which belong to it) to a dated
    /// name next to it: `narrator.db.corrupt-2026-12-01-055300` (then `-2`, ... if that is taken).
    static func setAside(_ path: String, because error: DatabaseError) throws(DatabaseError) -> LogSetAside {
        // Local time, as DateFormatter gave it before (the format has no zone).
        let stem = path + ".corrupt-" + WallClock.localTime("%Y-%m-%d-%H%M%S")
        var target = stem
        var attempt = 2
        while Syscall.exists(target) || Syscall.exists(target + "-wal") {
            target = stem + "-\(attempt)"
            attempt += 1
        }
        // The journals first, then the file: a journal left behind would be read into the fresh
        // log, so if any rename fails, those done are undone and the file stays where it is.
        var moved: [(from: String, to: String)] = []
        for suffix in ["-wal", "-shm", ""] where suffix.isEmpty || Syscall.exists(path + suffix) {
            do {
                try Syscall.rename(path + suffix, to: target + suffix)
            } catch let failure {
                for undo in moved.reversed() { try? Syscall.rename(undo.to, to: undo.from) }
                throw DatabaseError(
                    extendedCode: error.extendedCode,
                    message: "\(error.message), and it could not be set aside as \(target + suffix): \(failure.message)", context: error.context)
            }
            moved.append((path + suffix, target + suffix))
        }
        return LogSetAside(path: target, reason: error.message)
    }

    deinit {
        close()
    }

    /// Queues a row; `completion` runs on the writer thread after the row's transaction ends.
    public func append(_ row: LogRow, completion: Completion? = nil) {
        let now = MonotonicClock.now().nanoseconds
        let overflow: Item? = shared.state.withLock { state in
            state.items.append(.row(row, completion, enqueued: now))
            state.status.pending += 1
            guard state.items.count > backlogLimit, let index = state.items.firstIndex(where: { if case .row = $0 { true } else { false } }) else {
                return nil
            }
            state.status.pending -= 1
            state.status.rowsFailed += 1
            return state.items.remove(at: index)
        }
        if case .row(_, let dropped?, _) = overflow {
            dropped(.failure(DatabaseError(extendedCode: 13, message: "the log backlog is full (\(backlogLimit) rows)", context: "append a log row")))
        }
        wake.signal()
    }

    /// Queues the outcome of a live announcement whose row was appended before (matched by `row.announcement`).
    public func update(_ row: LogRow) {
        shared.state.withLock { $0.items.append(.update(row)) }
        wake.signal()
    }

    /// Waits until every row appended before the call is committed or failed.
    public func flush() {
        _ = flush(within: nil)
    }

    /// Waits until every row appended before the call is committed or failed, or until `timeout`
    /// has passed (a disk that does not answer): returns how many rows were still waiting then,
    /// 0 when none was.
    @discardableResult
    public func flush(within timeout: Duration?) -> Int {
        let done = DispatchSemaphore(value: 0)
        // After `close` the thread is gone and would never signal: everything is committed already.
        guard shared.state.withLock({ state in
            if !state.closing { state.items.append(.barrier(done)) }
            return !state.closing
        }) else { return 0 }
        wake.signal()
        guard let timeout else {
            done.wait()
            return 0
        }
        if done.wait(for: timeout) { return 0 }
        return shared.state.withLock { state in
            state.stalled = true
            return state.status.pending
        }
    }

    /// Commits what is queued and stops the writer thread. Idempotent.
    public func close() {
        _ = close(within: nil)
    }

    /// Commits what is queued and stops the writer thread, waiting at most `timeout` for it (not
    /// at all after a `flush(within:)` that gave up, while the writer has not caught up); false
    /// when it had not stopped by then (its disk does not answer), and what it still holds goes
    /// with the process. Idempotent: a later call returns at once.
    @discardableResult
    public func close(within timeout: Duration?) -> Bool {
        let (wasClosing, stalled) = shared.state.withLock { state in
            defer { state.closing = true }
            return (state.closing, state.stalled)
        }
        guard !wasClosing else { return true }
        wake.signal()
        guard let timeout else {
            finished.wait()
            return true
        }
        return finished.wait(for: stalled ? .zero : timeout)
    }

    /// The writer's health as `status` shows it (the value `onHealth` reports).
    public var health: LogHealth { shared.health(fresh: true) }

    public var status: Status {
        // Copied under the lock, sorted outside it: the writer thread takes the same lock per batch.
        var (status, latencies) = shared.state.withLock { ($0.status, $0.latencies) }
        latencies.sort()
        if !latencies.isEmpty {
            status.commitLatencyP50 = latencies[latencies.count / 2]
            status.commitLatencyP99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        }
        return status
    }

    // MARK: The writer thread

    /// The writer thread's life. `started` learns how the first open went and says whether to go on.
    /// The connection lives only here, so it is closed (and the WAL checkpointed) before `run` returns.
    private static func run(_ shared: Shared, _ opener: Opener, started: (DatabaseError?) -> Bool) {
        var connection: Connection?
        do throws(DatabaseError) {
            connection = try open(opener, shared, first: true)
            _ = started(nil)
        } catch {
            guard started(error) else { return }
        }
        var nextAttempt = MonotonicClock.now()
        if connection == nil { nextAttempt = nextAttempt + opener.reopenInterval }
        defer { connection = nil }
        while true {
            if connection == nil {
                // While broken, try again on a timer too, so `status` clears without waiting for a row.
                if !shared.wake.wait(for: opener.reopenInterval) {
                    nextAttempt = MonotonicClock.now() + opener.reopenInterval
                    connection = try? open(opener, shared, first: false)
                    continue
                }
            } else {
                shared.wake.wait()
            }
            while true {
                let (batch, closing) = shared.state.withLock { state -> ([Item], Bool) in
                    let taken = state.items
                    state.items.removeAll(keepingCapacity: true)
                    return (taken, state.closing)
                }
                if batch.isEmpty {
                    if closing { return }
                    break
                }
                let hasWork = batch.contains { if case .barrier = $0 { false } else { true } }
                if connection == nil, hasWork, MonotonicClock.now() >= nextAttempt {
                    nextAttempt = MonotonicClock.now() + opener.reopenInterval
                    connection = try? open(opener, shared, first: false)
                }
                if let failure = commit(batch, shared, connection), failure.leavesConnectionUnusable {
                    // Open again with the next rows: a remounted or replaced file needs a new connection.
                    connection = nil
                    nextAttempt = MonotonicClock.now()
                    shared.state.withLock { $0.status.isOpen = false }
                }
            }
        }
    }

    /// Commits `batch` in one transaction (or fails its rows when there is no connection) and
    /// returns the failure, if any.
    private static func commit(_ batch: [Item], _ shared: Shared, _ connection: Connection?) -> DatabaseError? {
        var rows: [(LogRow, Completion?, UInt64)] = []
        var updates: [LogRow] = []
        var barriers: [DispatchSemaphore] = []
        for item in batch {
            switch item {
            case .row(let row, let completion, let enqueued): rows.append((row, completion, enqueued))
            case .update(let row): updates.append(row)
            case .barrier(let semaphore): barriers.append(semaphore)
            }
        }
        var result: Result<[Int64], DatabaseError> = .success([])
        if !rows.isEmpty || !updates.isEmpty {
            if let connection {
                let database = connection.database
                result = Result { () throws(DatabaseError) -> [Int64] in
                    try database.transaction { () throws(DatabaseError) -> [Int64] in
                        var ids: [Int64] = []
                        ids.reserveCapacity(rows.count)
                        for (row, _, _) in rows {
                            try connection.insert.run(row.values)
                            ids.append(database.lastInsertRowID)
                        }
                        // After the inserts: an update may be for a row inserted in this same batch.
                        for row in updates { try connection.update.run(row.updateValues) }
                        return ids
                    }
                }
            } else {
                let reason = shared.state.withLock { $0.status.lastError }
                result = .failure(reason ?? .notOpen)
            }
        }
        let committedAt = MonotonicClock.now().nanoseconds
        shared.state.withLock { state in
            state.status.pending -= rows.count
            switch result {
            case .success:
                guard !rows.isEmpty else { return }
                state.status.rowsWritten += rows.count
                state.status.batches += 1
                state.status.lastError = nil
                for (_, _, enqueued) in rows {
                    let latency = Double(committedAt - enqueued) / 1e9
                    if state.latencies.count < 4096 {
                        state.latencies.append(latency)
                    } else {
                        state.latencies[state.latencyCursor] = latency
                        state.latencyCursor = (state.latencyCursor + 1) % 4096
                    }
                }
            case .failure(let error):
                state.status.rowsFailed += rows.count
                state.status.lastError = error
            }
        }
        // Reported before the completions: whoever is told a row's fate (and answers a client)
        // already knows the health that goes with it.
        if !rows.isEmpty || !updates.isEmpty { shared.reportHealth() }
        switch result {
        case .success(let ids):
            for ((_, completion, _), id) in zip(rows, ids) { completion?(.success(id)) }
        case .failure(let error):
            for (_, completion, _) in rows { completion?(.failure(error)) }
        }
        if !barriers.isEmpty { shared.state.withLock { $0.stalled = false } }
        for barrier in barriers { barrier.signal() }
        if case .failure(let error) = result { return error }
        return nil
    }
}
