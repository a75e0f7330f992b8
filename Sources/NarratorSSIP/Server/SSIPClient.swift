import NarratorBase
import NarratorSpeechPlan

/// What the SSIP server knows about one connection: who it is, its settings, a SPEAK whose
/// data is still arriving, and a pause. (Its held events are the server's ``SSIPEventHold``.)
struct SSIPClient: Sendable {
    /// The client process, for the log.
    let credentials: Credentials
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
}

/// One SSIP message, from its `225` reply to its final event: what it says, in whose voice,
/// and what of it the listener has heard. While it is spoken it lives with its utterance in the
/// speech plan (``SpeechPlan/message(_:)``); while its client is paused, in ``SSIPClient/held``.
public struct SSIPMessage: PlannedMessage {
    /// The number the client was given (`225-<id>`) and its events carry.
    var id: UInt64
    public var client: ClientID
    var clientName: String
    var priority: MessagePriority
    /// Sent inside a `BLOCK`: it waits for the block's earlier messages instead of replacing them.
    var inBlock = false
    /// What eSpeak NG is given: the text, SSML when ``ssml``.
    public var text: String
    /// What the client sent, for the log (the text before spelling mode spelled it out).
    var sent: String
    /// What deduplication compares (``Announcement/normalizedKey(_:)`` of the words spoken),
    /// taken once when the message arrives; a message resumed after a pause keeps it.
    var key: String
    /// The command that sent it: only a `SPEAK` is judged by the gate.
    package var command: SSIPSpeechCommand
    package var ssml: Bool
    /// The client's settings when it sent the message: they stay with the message.
    package var settings: SSIPSettings
    /// The client process, for the log.
    var credentials: Credentials?
    /// When it was acknowledged, for the log.
    var queuedAt: MonotonicInstant
    /// The listener heard its start (`701 BEGIN` went out).
    var began = false
    /// The last index mark the audio reached: a paused message resumes from it.
    var lastMark: String?
    /// Where in ``text`` (a UTF-8 byte offset) the sentence the listener is hearing starts, as the
    /// player reported it (``SessionInput/speechReached(_:offset:)``): plain text goes on from it.
    var sentence: Int?
    /// Stopped by a key echo and going on after it, as another utterance (``SpeechPolicy``):
    /// the end of this part is no event to its client.
    var heldByKey = false
    /// Being withdrawn by its client's `PAUSE`: its end is a pause, not a cancel.
    var pausing = false
    /// Was cut by a pause after it began (`705 RESUMED` goes out when it starts again).
    var resumed = false
}

extension SSIPMessage {
    /// What is left to say when it is cut and goes on: SSML from the last index mark the listener
    /// heard, plain text from the start of the sentence the listener was hearing, else all of it.
    var remainder: String {
        ssml ? Self.remainder(ofSSML: text, after: lastMark) : Self.remainder(of: text, fromByte: sentence)
    }

    /// The message as it goes on after a cut: it says ``remainder``, and where the listener is in
    /// it starts over (the player's offsets and marks are of the new text).
    var goingOn: SSIPMessage {
        var rest = self
        rest.text = remainder
        rest.lastMark = nil
        rest.sentence = nil
        rest.heldByKey = false
        return rest
    }

    /// A key echo cut it: this part's end is no event to its client, and the rest goes on.
    public mutating func cutByKeyEcho() -> SSIPMessage {
        heldByKey = true
        return goingOn
    }

    /// `text` from UTF-8 byte `offset` on; all of it when there is no offset, or when it is past
    /// the end or inside a character (then it is no sentence start the player reported of this text).
    static func remainder(of text: String, fromByte offset: Int?) -> String {
        guard let offset, offset > 0 else { return text }
        let bytes = text.utf8
        guard offset < bytes.count else { return text }
        let index = bytes.index(bytes.startIndex, offsetBy: offset)
        guard index.samePosition(in: text.unicodeScalars) != nil else { return text }
        return String(text.unicodeScalars[index...])
    }

    /// SSML after its index mark `mark` (its `<speak ...>` kept), else all of it.
    static func remainder(ofSSML text: String, after mark: String?) -> String {
        guard let mark else { return text }
        for quote in ["\"", "'"] {
            let tag = "<mark name=\(quote)\(mark)\(quote)"
            guard let range = text.firstRange(of: tag) else { continue }
            let speakOpen = text.firstRange(of: "<speak")
            let head = speakOpen.flatMap { open in text[open.lowerBound...].firstIndex(of: ">").map { String(text[open.lowerBound...$0]) } } ?? ""
            return head + text[range.lowerBound...]
        }
        return text
    }
}
