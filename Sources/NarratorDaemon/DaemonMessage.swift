import NarratorBase
import NarratorCommandLine
import NarratorCore
import NarratorProtocol
import NarratorSpeech
import NarratorSpeechPlan

/// What the daemon's other threads post to its event loop: each becomes one ``SessionInput``.
/// Nothing else crosses threads: the speech player and the log writer hold no reference to the
/// loop's handler, only the loop's `post`.
enum DaemonMessage: Sendable {
    /// From the speech player: an utterance ended, or the audio output changed.
    case speech(SpeechPlayer.Event)
    /// From the log writer: a row appended with a ticket was committed or failed.
    case logWritten(Ticket, Result<Void, LogProblem>)
    /// From the log writer: its figures after a batch or an attempt to open the file.
    case logHealth(LogHealth)
    /// The session's timer is due.
    case timerFired
    /// The settings file was written (or could not be), off the loop.
    case settingsSaved(Ticket, Result<Void, SpeechSettingsError>)
    /// A large request line from a client, prepared off the loop (``RequestPreparation``): the
    /// request, or the line refused as not UTF-8.
    case prepared(ClientID, SessionInput)
    /// The configuration file read again after SIGHUP, off the loop.
    case configurationRead(Result<DaemonOptions.Action, UsageError>)
    /// The SSIP socket's path was taken by another server (and taken back, or left to it).
    case ssipSocket(SSIPSocketGuard.Report)
}
