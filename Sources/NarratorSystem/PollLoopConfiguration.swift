/// Limits and behaviour of a `PollLoop`.
public struct PollLoopConfiguration: Hashable, Sendable {
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
    /// After a line at least this long has been handled, freed heap memory is given back to the
    /// system (`malloc_trim`: under 1 ms after a 1 MB line, 7 ms after a 10 MB one). Parsing a
    /// large request frees its JSON in small pieces, which would otherwise stay resident.
    public var releaseMemoryAfterLineLength: Int
    /// LF-framed lines at least this long are handed to the handler as bytes (`ClientInput.largeLine`),
    /// for it to check and decode off the loop; by default none is.
    public var largeLineLength: Int

    public init(
        maximumLineLength: Int = 1 << 20,
        outputBufferLimit: Int = 4 << 20,
        readChunkSize: Int = 64 << 10,
        signals: Set<LoopSignal> = [],
        shutdownFlushTimeout: Duration = .seconds(2),
        releaseMemoryAfterLineLength: Int = 256 << 10,
        largeLineLength: Int = .max
    ) {
        precondition(maximumLineLength > 0 && outputBufferLimit > 0 && readChunkSize > 0)
        self.maximumLineLength = maximumLineLength
        self.outputBufferLimit = outputBufferLimit
        self.readChunkSize = readChunkSize
        self.signals = signals
        self.shutdownFlushTimeout = shutdownFlushTimeout
        self.releaseMemoryAfterLineLength = releaseMemoryAfterLineLength
        self.largeLineLength = largeLineLength
    }
}

/// Why `PollLoop.run` could not run or stopped.
public enum PollLoopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The inbox was already used by a run; an inbox serves one.
    case alreadyStarted
    /// Another loop in this process already receives the signals (dispositions are process-wide).
    case signalsInUse
    case system(Errno)

    public var description: String {
        switch self {
        case .alreadyStarted: return "this loop's inbox has already served a run"
        case .signalsInUse: return "another event loop in this process already handles signals"
        case .system(let error): return "event loop: \(error)"
        }
    }
}
