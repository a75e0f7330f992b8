/// How the utterance log is doing, as its writer last reported it: what `status` shows under `log`.
///
/// The writer runs on its own thread; it reports a fresh value after each batch and each attempt
/// to open the file, and the session keeps the latest.
public struct LogHealth: Equatable, Sendable {
    public var path: String
    /// True while the writer holds an open connection to the file.
    public var isOpen: Bool
    public var rowsWritten: Int
    public var rowsFailed: Int
    /// Rows handed to the writer and not yet committed or failed.
    public var pending: Int
    /// How many times the file was opened again after a failure.
    public var reopenings: Int
    /// The most recent failure, cleared by the next successful commit.
    public var problem: LogProblem?
    /// From append to commit over the most recent rows, in seconds: the latency an `announce` reply adds.
    public var commitLatencyP50: Double?
    public var commitLatencyP99: Double?
    /// The highest live announcement id in the file: the session numbers new announcements after it,
    /// so ids stay unique across restarts (and across a file opened late).
    public var lastAnnouncementID: Int64
    /// The file found at `path` that was not a database, set aside so that a fresh log could start.
    public var setAside: LogSetAside?

    public init(
        path: String, isOpen: Bool = false, rowsWritten: Int = 0, rowsFailed: Int = 0, pending: Int = 0, reopenings: Int = 0,
        problem: LogProblem? = nil, commitLatencyP50: Double? = nil, commitLatencyP99: Double? = nil, lastAnnouncementID: Int64 = 0,
        setAside: LogSetAside? = nil
    ) {
        self.path = path
        self.isOpen = isOpen
        self.rowsWritten = rowsWritten
        self.rowsFailed = rowsFailed
        self.pending = pending
        self.reopenings = reopenings
        self.problem = problem
        self.commitLatencyP50 = commitLatencyP50
        self.commitLatencyP99 = commitLatencyP99
        self.lastAnnouncementID = lastAnnouncementID
        self.setAside = setAside
    }

    /// Open, and the last commit (if any) succeeded.
    public var isWriting: Bool { isOpen && problem == nil }
}

/// Why a row could not be written: a stable reason (`readonly`, `locked`, `full`, `cannot_open`,
/// `corrupt`, ...) and SQLite's message with what the writer was doing.
public struct LogProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var message: String

    public init(reason: String, message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}

/// A file at the log's path that was not a database (corrupted, or another program's file): it was
/// renamed to `path` (with its `-wal` and `-shm` files) and a fresh log started in its place.
public struct LogSetAside: Hashable, Sendable {
    /// Where the file is now, next to the log, under a dated name.
    public var path: String
    /// Why it could not be used, as SQLite said it.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
