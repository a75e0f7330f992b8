import NarratorBase

/// What a client's message is to the speech plan, which carries it with its utterance and hands it
/// back when the utterance's life ends (``PlanStep/endedMessages``). The plan knows no protocol:
/// the SSIP server's message conforms; speech with no client message uses `Never`.
public protocol PlannedMessage: Sendable, Equatable {
    /// What is spoken.
    var text: String { get }
    /// Who sent it.
    var client: ClientID { get }
    /// A key echo cut this message short (``SpeechPolicy``): marks it so, since its end is then no
    /// event to its client, and returns what is left of it, said after the echo.
    mutating func cutByKeyEcho() -> Self
}

/// A plan that carries no client's message (announcements, focus speech, a replay without SSIP).
extension Never: PlannedMessage {
    public var text: String { switch self {} }
    public var client: ClientID { switch self {} }
    public mutating func cutByKeyEcho() -> Never { switch self {} }
}
