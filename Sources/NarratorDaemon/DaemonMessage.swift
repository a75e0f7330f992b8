import NarratorBase
import NarratorCommandLine
import NarratorCore
import NarratorSpeech

/// What the daemon's other threads post to its event loop. A fact the session takes as it is
/// (speech began or ended, a log row committed, the settings file written, the timer due) is
/// posted as the ``SessionInput`` it becomes, so it is named once; the rest is what the shell
/// itself finishes first. Nothing else crosses threads: the speech player and the log writer
/// hold no reference to the loop's handler, only the loop's `post`.
enum DaemonMessage: Sendable {
    /// An input for the session, fed to it as it is.
    case session(SessionInput)
    /// A large request line or a large tree's update the session handed out, prepared off the
    /// loop (``RequestPreparation``): the request, or the line refused as not UTF-8. The shell
    /// notes the tree it replaces (to free it off the loop), then feeds it as `.prepared`.
    case prepared(ClientID, PreparedRequest)
    /// The configuration file read again after SIGHUP, off the loop.
    case configurationRead(Result<DaemonOptions.Action, UsageError>)
    /// The SSIP socket's path was taken by another server (and taken back, or left to it).
    case ssipSocket(SSIPSocketGuard.Report)
}
