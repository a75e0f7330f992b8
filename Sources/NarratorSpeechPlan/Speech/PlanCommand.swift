/// What the speech layer must do to follow the plan: the scheduler's command, with the client's
/// message a play speaks, so that whoever carries it out has the message's voice and prosody at
/// hand rather than looking it up again by utterance.
public enum PlanCommand<Message: PlannedMessage>: Sendable, Equatable {
    /// Synthesize and play this utterance now, which speaks `Message` when a client sent one.
    case play(UtteranceRequest, Message?)
    /// Silence this utterance at once: stop synthesis, drop queued audio, flush the device.
    case stop(UtteranceID)
}
