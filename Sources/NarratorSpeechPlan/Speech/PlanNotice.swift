/// One step in an utterance's life as the plan tells it: the notice for subscribers, and the
/// client's message the utterance speaks, as it was at that step (its final one: as it ended),
/// so that the event to the client is worded from it without a lookup by utterance.
public struct PlanNotice<Message: PlannedMessage>: Sendable, Equatable {
    public var notice: SpeechNotice
    /// Nil for speech no client sent (announcements, focus, direct speech).
    public var message: Message?

    public init(_ notice: SpeechNotice, message: Message? = nil) {
        self.notice = notice
        self.message = message
    }
}
