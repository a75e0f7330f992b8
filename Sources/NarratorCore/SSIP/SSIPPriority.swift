/// The five priorities of Speech Dispatcher's SSIP (`SET SELF PRIORITY`), which decide how a
/// client's message meets the speech already playing or waiting (docs/ssip.md has the table).
public enum SSIPPriority: String, Sendable, Hashable, CaseIterable {
    /// Interrupts everything but another important message; never dropped or throttled.
    case important
    /// Waits behind important and other messages; cuts text and notifications.
    case message
    /// Cut by any newer text or message.
    case text
    /// Dropped when anything else speaks; a newer notification cuts it.
    case notification
    /// The first and the last of a burst are spoken, those in between dropped.
    case progress

    /// Parses SSIP's spelling, which clients send in any case (`TEXT`, `message`).
    public init?(ssip word: some StringProtocol) {
        self.init(rawValue: word.lowercased())
    }
}
