import NarratorBase
import NarratorModel
import NarratorSpeechPlan

/// The settings-file writes a session waits for, and what waits on them: the `set` each one
/// answers and the shutdown (what the connection sent after its `set` waits in ``InputHolds``).
/// A write that takes longer than ``Session/settingsWriteBound`` is given up on (its `set` is
/// refused), so a stuck disk holds nobody up for longer than that.
struct SettingsWrites: Sendable {
    struct Waiting: Sendable {
        /// Who sent the `set`; nil for the daemon's own change, or for writing the settings in force again.
        var client: ClientID?
        var id: JSONValue?
        /// The setting changed; nil when the settings in force are written again.
        var key: String?
        var settings: SpeechSettings
        /// When the write is given up on.
        var deadline: MonotonicInstant
    }

    var waiting: [Ticket: Waiting] = [:]
    /// Writes given up on whose result has not come back yet.
    var abandoned: Set<Ticket> = []
    /// A write given up on was written after all, so the file may hold a setting not in force:
    /// once no write waits, the settings in force are written again.
    var rewriteWhenSettled = false
    /// The session has shut down and says so (`SessionEffect.shutDown`) once no write waits.
    var shutDownWhenSettled = false

    /// The newest settings being written: a further `set` builds on them, so that two in flight keep both.
    var newest: SpeechSettings? { waiting.max { $0.key < $1.key }?.value.settings }

    /// When the oldest waiting write is given up on.
    var deadline: MonotonicInstant? { waiting.values.map(\.deadline).min() }
}
