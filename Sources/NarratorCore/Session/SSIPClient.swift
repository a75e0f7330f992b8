/// What the session knows about one Speech Dispatcher (SSIP) connection beyond its
/// ``ClientRecord``: its settings, a SPEAK whose data is still arriving, and a pause.
struct SSIPClient: Sendable {
    var settings = SSIPSettings()
    /// Reading a SPEAK's data lines, until the line holding only ".".
    var reader: SSIPMessageReader?
    /// A data line of this SPEAK was too long for the framing: the message is refused at its end.
    var readerOverflowed = false
    /// Between `BLOCK BEGIN` and `BLOCK END`: its messages are spoken one after another.
    var inBlock = false
    /// Between `PAUSE` and `RESUME`: new messages are held, not spoken.
    var paused = false
    /// Messages held while paused (and the one cut by the pause), spoken in order on `RESUME`.
    var held: [SSIPMessage] = []
    /// Until when its events are held after its latest `225` (``SSIPEventHold``).
    var eventsHeldUntil: MonotonicInstant?
}

/// One SSIP message, from its `225` reply to its final event: what it says, in whose voice,
/// and what of it the listener has heard. While it is spoken it lives with its utterance in the
/// speech plan (``SpeechPlan/ssipMessage(_:)``); while its client is paused, in ``SSIPClient/held``.
struct SSIPMessage: Sendable, Equatable {
    /// The number the client was given (`225-<id>`) and its events carry.
    var id: UInt64
    var client: ClientID
    var clientName: String
    var priority: SSIPPriority
    /// Sent inside a `BLOCK`: it waits for the block's earlier messages instead of replacing them.
    var inBlock = false
    /// What eSpeak NG is given: the text, SSML when ``ssml``.
    var text: String
    /// What the client sent, for the log (the text before spelling mode spelled it out).
    var sent: String
    /// What deduplication compares (``Announcement/normalizedKey(_:)`` of the words spoken),
    /// taken once when the message arrives; a message resumed after a pause keeps it.
    var key: String
    /// The command that sent it: only a `SPEAK` is judged by the gate.
    var command: SSIPSpeechCommand
    var ssml: Bool
    /// The client's settings when it sent the message: they stay with the message.
    var settings: SSIPSettings
    /// The client process, for the log.
    var credentials: Credentials?
    /// When it was acknowledged, for the log.
    var queuedAt: MonotonicInstant
    /// The listener heard its start (`701 BEGIN` went out).
    var began = false
    /// The last index mark the audio reached: a paused message resumes from it.
    var lastMark: String?
    /// Being withdrawn by its client's `PAUSE`: its end is a pause, not a cancel.
    var pausing = false
    /// Was cut by a pause after it began (`705 RESUMED` goes out when it starts again).
    var resumed = false
}
