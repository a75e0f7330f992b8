/// The utterance an output plays, as the failover needs it: to start it on `null` in the middle,
/// and to know how long its chunks last (the deadlines of its writes and its drain).
public struct OutputUtterance: Sendable, Hashable {
    public var id: UtteranceID
    public var kind: SpeechKind
    /// Samples per second of one channel.
    public var sampleRate: Int
    public var channels: Int

    public init(id: UtteranceID, kind: SpeechKind, sampleRate: Int, channels: Int = 1) {
        self.id = id
        self.kind = kind
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// How long `samples` samples (of all channels together) last.
    public func duration(ofSamples samples: Int) -> Duration {
        .nanoseconds(Int64(samples) * 1_000_000_000 / Int64(max(1, sampleRate * channels)))
    }
}

/// A call of the engine thread's that a device (or `null`) carries out.
public enum OutputCall: Sendable, Hashable {
    /// Open the stream (if closed) for an utterance.
    case begin(OutputUtterance)
    /// Play these samples of the utterance begun last.
    case write([Int16])
    /// Drain: return once the utterance's audio has been heard.
    case end

    /// What a status names when this call went unanswered.
    var described: String {
        switch self {
        case .begin: "opening a stream"
        case .write: "a write"
        case .end: "the drain at the end of an utterance"
        }
    }
}

/// A thread that an effect told to wait (``OutputFailoverEffect/wait(_:until:)``).
public enum OutputWait: Sendable, Hashable {
    /// The thread that created the output, for the first connection.
    case startUp
    /// The engine thread, for a device call.
    case call(DeviceCallID)
}
