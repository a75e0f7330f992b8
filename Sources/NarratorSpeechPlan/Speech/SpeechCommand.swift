/// What the runtime must do to follow the scheduler.
public enum SpeechCommand: Sendable, Hashable {
    /// Synthesize and play this utterance now (nothing else is playing).
    case play(UtteranceRequest)
    /// Silence this utterance at once: stop synthesis, drop queued audio, flush the device.
    case stop(UtteranceID)
}

/// The result of feeding one input to the scheduler: commands in order, and the events they caused.
public struct SpeechSchedulerStep: Sendable, Hashable {
    public var commands: [SpeechCommand] = []
    public var events: [SpeechEvent] = []

    public init(commands: [SpeechCommand] = [], events: [SpeechEvent] = []) {
        self.commands = commands
        self.events = events
    }
}
