import NarratorSpeechPlan

/// The PCM layout handed to outputs: signed 16-bit native-endian samples.
public struct AudioFormat: Sendable, Hashable {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int = 1) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// How long `samples` samples (of all channels together) last.
    public func duration(ofSamples samples: Int) -> Duration {
        .nanoseconds(Int64(samples) * 1_000_000_000 / Int64(sampleRate * channels))
    }
}

/// A failure of an audio output, with the device's error code where there is one.
public enum AudioOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No sound server or audio device could be reached.
    case deviceUnavailable(String)
    case openFailed(code: Int32, message: String)
    case writeFailed(code: Int32, message: String)
    case fileFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .deviceUnavailable(let detail):
            "no audio device reachable: \(detail)"
        case .openFailed(let code, let message):
            "could not open the audio stream: \(message) (code \(code))"
        case .writeFailed(let code, let message):
            "audio write failed: \(message) (code \(code))"
        case .fileFailed(let path, let reason):
            "could not write '\(path)': \(reason)"
        }
    }
}

/// Where synthesized PCM goes.
///
/// `begin`, `write` and `end` are called on one thread (the engine thread), once per utterance,
/// in that order. A `begin` that throws ends the utterance there: neither `write` nor `end`
/// follows it. After a `begin` that returned, `end` is called even after an interrupt.
///
/// `interrupt` may be called from any thread at any time. It silences the current utterance (drops
/// queued audio and flushes the device buffer), and the pending and later `write`/`end` calls of
/// that utterance return promptly without producing sound. The outputs the daemon uses
/// (``NullOutput``, ``WavOutput`` and ``ServerOutput``) return from it without waiting on a device;
/// only the raw device (``PulseOutput``) may block in its flush, so ``ServerOutput`` never calls
/// that on the caller's thread.
///
/// `status` may be read from any thread and never waits on a device either.
public protocol AudioOutput: AnyObject, Sendable {
    /// The output in use, e.g. "pulse", "null", "wav:/tmp/captions" (`status.active`).
    var name: String { get }
    /// What `status` reports: the output in use, and whether (and why) it is a fallback.
    var status: OutputStatus { get }
    func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) throws(AudioOutputError)
    /// Hands over PCM; may block to keep pace with playback.
    func write(_ samples: [Int16]) throws(AudioOutputError)
    /// Waits until what was written has been heard.
    func end() throws(AudioOutputError)
    /// Silences the current utterance; callable from any thread (see above for what it may wait on).
    func interrupt()
    /// Closes the device's stream between utterances so that the sound server can suspend its sink;
    /// the next `begin` opens it again. Called on the thread that calls `begin`, never while an
    /// utterance plays. Outputs without a stream do nothing.
    func standBy()
}

extension AudioOutput {
    public func standBy() {}
}
