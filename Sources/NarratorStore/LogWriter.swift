import Foundation
import Synchronization

/// Writes log rows on its own thread, in batches: every row appended while a commit runs goes into
/// the next transaction (group commit). Appending never blocks, so speech never waits for the disk;
/// each row's completion runs once its transaction is durable (or failed), so a reply sent from it
/// is never about a row that could still be lost.
public final class LogWriter: Sendable {
    public typealias Completion = @Sendable (Result<Int64, DatabaseError>) -> Void

    /// What `status` shows about the log.
    public struct Status: Sendable, Hashable {
        public var path: String
        public var rowsWritten: Int
        public var rowsFailed: Int
        public var batches: Int
        public var pending: Int
        /// The most recent failure, cleared by the next successful commit.
        public var lastError: DatabaseError?
        /// From append to commit, over the most recent rows (seconds): the latency an `announce` reply adds.
        public var commitLatencyP50: Double?
        public var commitLatencyP99: Double?
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
        var status: Status
        var latencies: [Double] = []
        var latencyCursor = 0
        var lastAnnouncementID: Int64 = 0
    }

    /// What the writer thread shares with callers. The thread holds only this, never the
    /// `LogWriter`, so dropping the last reference to the writer closes it.
    private final class Shared: Sendable {
        let state: Mutex<State>
        let wake = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        init(_ state: State) { self.state = Mutex(state) }
    }

    public let path: String
    /// The highest live announcement id in the file when it was opened: a daemon numbers its
    /// announcements after it, so ids stay unique across restarts.
    public var lastAnnouncementID: Int64 { shared.state.withLock { $0.lastAnnouncementID } }
    /// The most rows kept waiting while the database cannot be written; older ones fail first.
    public let backlogLimit: Int
    private let shared: Shared
    private var wake: DispatchSemaphore { shared.wake }
    private var finished: DispatchSemaphore { shared.finished }

    /// Opens (creating and migrating) the database on a new writer thread.
    /// - Throws: the ``DatabaseError`` that kept it from opening; nothing is left running then.
    public init(path: String, backlogLimit: Int = 100_000, busyTimeout: Duration = .milliseconds(250)) throws(DatabaseError) {
        self.path = path
        self.backlogLimit = backlogLimit
        let shared = Shared(State(status: Status(path: path, rowsWritten: 0, rowsFailed: 0, batches: 0, pending: 0)))
        self.shared = shared
        let opened = Mutex<Result<Int64, DatabaseError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread {
            let database: Database
            let statements: Statements
            let last: Int64
            do throws(DatabaseError) {
                database = try UtteranceLog.openForWriting(path, busyTimeout: busyTimeout)
                statements = Statements(insert: try database.prepare(LogRow.insertSQL), update: try database.prepare(LogRow.updateSQL))
                last = try database.query("SELECT COALESCE(MAX(announcement), 0) FROM utterances WHERE experiment IS NULL") { $0.int64(0) }[0]
            } catch {
                opened.withLock { $0 = .failure(error) }
                ready.signal()
                shared.finished.signal()
                return
            }
            shared.state.withLock { $0.lastAnnouncementID = last }
            opened.withLock { $0 = .success(last) }
            ready.signal()
            Self.run(shared, database, statements)
            shared.finished.signal()
        }
        thread.name = "narrator.log"
        thread.start()
        ready.wait()
        switch opened.withLock({ $0 })! {
        case .failure(let error): throw error
        case .success: break
        }
    }

    private struct Statements {
        var insert: Statement
        var update: Statement
    }

    deinit {
        close()
    }

    /// Queues a row; `completion` runs on the writer thread after the row's transaction ends.
    public func append(_ row: LogRow, completion: Completion? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
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
        let done = DispatchSemaphore(value: 0)
        shared.state.withLock { $0.items.append(.barrier(done)) }
        wake.signal()
        done.wait()
    }

    /// Commits what is queued and stops the writer thread. Idempotent.
    public func close() {
        let wasClosing = shared.state.withLock { state in
            defer { state.closing = true }
            return state.closing
        }
        guard !wasClosing else { return }
        wake.signal()
        finished.wait()
        finished.signal()
    }

    public var status: Status {
        shared.state.withLock { state in
            var status = state.status
            let sorted = state.latencies.sorted()
            if !sorted.isEmpty {
                status.commitLatencyP50 = sorted[sorted.count / 2]
                status.commitLatencyP99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            }
            return status
        }
    }

    // MARK: The writer thread

    private static func run(_ shared: Shared, _ database: Database, _ statements: Statements) {
        while true {
            shared.wake.wait()
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
                commit(batch, shared, database, statements)
            }
        }
    }

    private static func commit(_ batch: [Item], _ shared: Shared, _ database: Database, _ statements: Statements) {
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
            result = Result { () throws(DatabaseError) -> [Int64] in
                try database.transaction { () throws(DatabaseError) -> [Int64] in
                    var ids: [Int64] = []
                    ids.reserveCapacity(rows.count)
                    for (row, _, _) in rows {
                        try statements.insert.run(row.values)
                        ids.append(database.lastInsertRowID)
                    }
                    // After the inserts: an update may be for a row inserted in this same batch.
                    for row in updates { try statements.update.run(row.updateValues) }
                    return ids
                }
            }
        }
        let committedAt = DispatchTime.now().uptimeNanoseconds
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
        switch result {
        case .success(let ids):
            for ((_, completion, _), id) in zip(rows, ids) { completion?(.success(id)) }
        case .failure(let error):
            for (_, completion, _) in rows { completion?(.failure(error)) }
        }
        for barrier in barriers { barrier.signal() }
    }
}
