/// The five priorities of a client's message (Speech Dispatcher's, which SSIP's
/// `SET SELF PRIORITY` names), deciding how it meets the speech already playing or waiting
/// (docs/ssip.md has the table). The scheduler applies them; SSIP only spells them.
public enum MessagePriority: String, Sendable, Hashable, CaseIterable {
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
}
