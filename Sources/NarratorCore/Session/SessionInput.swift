import NarratorBase
import NarratorEngines
import NarratorProtocol
import NarratorSpeechPlan

/// Everything that can happen to the daemon, as a value: what its shells (the socket loop, the
/// speech layer, the log writer, the settings file, signals) feed into ``Session/handle(_:at:)``.
public enum SessionInput: Sendable {
    /// A connection was accepted, with what the kernel says about its peer (`SO_PEERCRED`).
    case connected(ClientID, Credentials)
    /// A request line, decoded, or why it could not be.
    case request(ClientID, Result<Request, RequestFailure>)
    /// A JSON request line too large to decode on the loop (at least the daemon's threshold):
    /// the session has it prepared off the loop (``SessionEffect/prepare(_:_:)``) when its turn
    /// comes, or decodes it itself once it is shutting down.
    case largeLine(ClientID, LargeLine)
    /// A request line prepared before it came in (decoded, a `register`'s tree compiled, an
    /// update applied to a copy of its tree): the result of ``SessionEffect/prepare(_:_:)`` or
    /// ``SessionEffect/prepareUpdate(_:_:)``, after which what the connection sent goes on.
    case prepared(ClientID, PreparedRequest)
    /// A Speech Dispatcher (SSIP) connection was accepted on the SSIP socket.
    case ssipConnected(ClientID, Credentials)
    /// One line from an SSIP connection (its CRLF removed; bytes that are not UTF-8 replaced).
    case ssipLine(ClientID, String)
    /// The listener started hearing this utterance (its first audio reached the output).
    case speechBegan(UtteranceID)
    /// The audio reached an SSML index mark (`<mark name="..."/>`) of this utterance.
    case speechReachedMark(UtteranceID, String)
    /// The listener started hearing the sentence that starts at this UTF-8 byte offset of the
    /// utterance's text (by the audio timeline, not when it was synthesized).
    case speechReached(UtteranceID, offset: Int)
    /// A line the framing refused before decoding.
    case rejectedLine(ClientID, LineProblem)
    /// The connection is gone (closed by either side, or failed).
    case disconnected(ClientID)
    /// The speech layer played this utterance to its end, or gave up on it (`problem` says why).
    case speechEnded(UtteranceID, problem: String?)
    /// The audio output changed (fallback to null, stalled, back to the sound server).
    case outputChanged(OutputStatus)
    /// An engine started, failed or came back (``EngineHealth``).
    case engineChanged(EngineName, EngineHealth)
    /// The timer the session last set (``SessionEffect/setTimer(_:)``) is due.
    case timerFired
    /// A row appended with a ticket was committed, or failed.
    case logWritten(Ticket, Result<Void, LogProblem>)
    /// The log writer's latest figures.
    case logHealth(LogHealth)
    /// The settings file was written (``SessionEffect/saveSettings(_:_:)``), or could not be.
    case settingsSaved(Ticket, Result<Void, SpeechSettingsError>)
    /// A setting the daemon itself changes (its configuration file was read again).
    case changeSetting(key: String, value: String)
    /// The daemon is asked to stop (SIGTERM, SIGINT).
    case shutdown
    /// Everything that was ready when the daemon's loop last woke (lines from every connection,
    /// posted messages, a due timer) has been fed: the speech the batch started is handed to the
    /// player now (``SessionEffect/play(_:)``), less what the same batch stopped. When the daemon
    /// is idle a batch is one input.
    case batchEnded
}

/// Why a line was refused before it could be decoded.
public enum LineProblem: Sendable, Hashable {
    /// Longer than the daemon accepts (`--max-message`); it was discarded.
    case tooLong(limit: Int)
    /// Not valid UTF-8; discarded.
    case invalidUTF8
}

/// Names a piece of work the session handed out (a log row, a settings write) so that its
/// result, coming back as an input, finds the reply that waits for it.
public struct Ticket: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: Ticket, b: Ticket) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "ticket \(rawValue)" }
}
