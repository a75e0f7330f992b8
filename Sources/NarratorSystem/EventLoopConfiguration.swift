/// Limits and behaviour of an `EventLoop`.
public struct EventLoopConfiguration: Hashable, Sendable {
    /// Longest accepted line in bytes, newline excluded; longer ones become `.lineTooLong`.
    public var maximumLineLength: Int
    /// Most bytes queued for one client before it is disconnected as too slow.
    public var outputBufferLimit: Int
    /// How much is read from one client per wake-up, so a flooding client cannot starve others.
    public var readChunkSize: Int
    /// Signals turned into `ConnectionHandler.signal` callbacks while the loop runs.
    public var signals: Set<LoopSignal>
    /// How long shutdown waits for clients to take their pending output.
    public var shutdownFlushTimeout: Duration

    public init(
        maximumLineLength: Int = 1 << 20,
        outputBufferLimit: Int = 4 << 20,
        readChunkSize: Int = 64 << 10,
        signals: Set<LoopSignal> = [],
        shutdownFlushTimeout: Duration = .seconds(2)
    ) {
        precondition(maximumLineLength > 0 && outputBufferLimit > 0 && readChunkSize > 0)
        self.maximumLineLength = maximumLineLength
        self.outputBufferLimit = outputBufferLimit
        self.readChunkSize = readChunkSize
        self.signals = signals
        self.shutdownFlushTimeout = shutdownFlushTimeout
    }
}

/// Why `EventLoop.run` could not run or stopped.
public enum EventLoopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `run` was called a second time; a loop runs once.
    case alreadyStarted
    /// Another loop in this process already receives the signals (dispositions are process-wide).
    case signalsInUse
    case system(Errno)

    public var description: String {
        switch self {
        case .alreadyStarted: return "this event loop has already been run"
        case .signalsInUse: return "another event loop in this process already handles signals"
        case .system(let error): return "event loop: \(error)"
        }
    }
}
