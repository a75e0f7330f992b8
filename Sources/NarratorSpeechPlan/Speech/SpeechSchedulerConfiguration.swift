/// The user-adjustable timing of the scheduler.
public struct SpeechSchedulerConfiguration: Sendable, Hashable {
    /// Whether usage hints are spoken at all.
    public var hintsEnabled: Bool
    /// The pause between the end of a focus utterance and its hint.
    public var hintDelay: Duration

    public init(hintsEnabled: Bool = true, hintDelay: Duration = .milliseconds(400)) {
        self.hintsEnabled = hintsEnabled
        self.hintDelay = hintDelay
    }
}
