import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorProtocol
import NarratorSSIP
import NarratorSpeechPlan

/// What the session asks its shells to do, as a value: the only way it acts on the world.
/// The daemon carries effects out in order; tests compare them exactly.
public enum SessionEffect: Sendable, Equatable {
    /// Send one line (a reply or an event) to a connection.
    case send(ClientID, ServerMessage)
    /// Send a reply or event to an SSIP connection, written as is (its lines end in CRLF).
    case sendSSIP(ClientID, SSIPOutput)
    /// Close a connection once what was sent to it has been written.
    case close(ClientID)
    /// Start playing an utterance now (nothing else plays). Given when the batch of inputs that
    /// started it ends (``SessionInput/batchEnded``), and only if the batch did not stop it too.
    case play(PlayRequest)
    /// Start an engine process now: a setting or an SSIP client chose it, and its first utterance
    /// should not wait for it to start (Piper loads its model for a second or two).
    case warmUp(engine: EngineName)
    /// Stop the engine processes after this long unused (nil: never): the `engine-idle` setting
    /// changed. Each starts again at its next use.
    case engineIdle(Duration?)
    /// Silence an utterance at once (one that was handed out with `play`).
    case stopSpeech(UtteranceID)
    /// Append a row to the log; with a ticket, its result comes back as ``SessionInput/logWritten(_:_:)``.
    case appendLog(LogRow, Ticket?)
    /// Set the final outcome of an announcement's row appended before.
    case updateLog(LogRow)
    /// Write the speech settings to their file; the result comes back as ``SessionInput/settingsSaved(_:_:)``.
    case saveSettings(SpeechSettings, Ticket)
    /// Prepare a JSON connection's large line off the loop (check it is UTF-8, decode it, compile
    /// a `register`'s tree: ``PreparedRequest``) and feed the result back as
    /// ``SessionInput/prepared(_:_:)``; what the connection sent after it waits for that.
    case prepare(ClientID, LargeLine)
    /// Apply an update to a copy of its large tree off the loop (``PreparedUpdate``) and feed the
    /// result back as ``SessionInput/prepared(_:_:)``; what the connection sent after it waits for that.
    case prepareUpdate(ClientID, UpdateToPrepare)
    /// Feed ``SessionInput/timerFired`` at this instant (replacing any timer set before).
    case setTimer(MonotonicInstant)
    case cancelTimer
    /// A line for the daemon's journal.
    case journal(LogLevel, String)
    /// Every outcome is final and every row handed out: finish what is written and stop serving.
    case shutDown
}
