/// The user-adjustable timing of the scheduler, and whether it speaks at all.
public struct SpeechSchedulerConfiguration: Sendable, Hashable {
    /// Whether usage hints are spoken at all.
    public var hintsEnabled: Bool
    /// The pause between the end of a focus utterance and its hint.
    public var hintDelay: Duration
    /// Speech on (the user's `speech` setting): off, every new utterance is dropped
    /// (``SpeechEvent/DropReason/speechOff``), and what waits with it; what plays ends as it would.
    public var speechEnabled: Bool

    public init(hintsEnabled: Bool = true, hintDelay: Duration = .milliseconds(400), speechEnabled: Bool = true) {
        self.hintsEnabled = hintsEnabled
        self.hintDelay = hintDelay
        self.speechEnabled = speechEnabled
    }
}
