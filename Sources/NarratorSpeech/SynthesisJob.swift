import NarratorCore
import Synchronization

/// One utterance for the engine: text, voice and prosody, and what to do with each PCM chunk.
///
/// The handlers run on the engine thread, in order: `onStart` before the first chunk, `onChunk`
/// for every chunk (return false to stop), `onEnd` after the last one, even when cancelled (with ``Outcome/skipped`` and no `onStart`
/// when cancelled before it started). When `onStart` throws (the output could not begin the
/// utterance), nothing is synthesized and `onEnd` gets ``Outcome/outputFailed(_:)``.
/// ``cancel()`` may be called from any thread; synthesis stops before the next chunk.
public final class SynthesisJob: Sendable {
    /// How a job ended.
    public enum Outcome: Sendable, Hashable {
        case completed(samples: Int)
        case cancelled(samples: Int)
        case failed(EspeakError)
        /// Cancelled before it started: `onStart` was not called.
        case skipped
        /// `onStart` threw: the output could not begin the utterance, so nothing was synthesized.
        case outputFailed(AudioOutputError)

        /// Whether `onStart` ran and returned, so that the output began this utterance and must be
        /// ended (false for ``skipped`` and ``outputFailed(_:)``).
        public var startedOutput: Bool {
            switch self {
            case .completed, .cancelled, .failed: true
            case .skipped, .outputFailed: false
            }
        }
    }

    public let text: String
    public let voice: VoiceChoice
    public let parameters: VoiceParameters
    let onStart: @Sendable () throws(AudioOutputError) -> Void
    let onChunk: @Sendable ([Int16]) -> Bool
    let onEnd: @Sendable (Outcome) -> Void
    private let cancelled = Atomic<Bool>(false)

    public init(
        text: String,
        voice: VoiceChoice = .standard,
        parameters: VoiceParameters = VoiceParameters(),
        onStart: @escaping @Sendable () throws(AudioOutputError) -> Void = {},
        onChunk: @escaping @Sendable ([Int16]) -> Bool,
        onEnd: @escaping @Sendable (Outcome) -> Void
    ) {
        self.text = text
        self.voice = voice
        self.parameters = parameters
        self.onStart = onStart
        self.onChunk = onChunk
        self.onEnd = onEnd
    }

    /// Stops synthesis before the next chunk (or before it starts).
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}

/// The state of the job being synthesized, reached from the C callback through `user_data`.
final class SynthesisRun {
    let job: SynthesisJob
    var samples = 0
    var stopped = false

    init(job: SynthesisJob) {
        self.job = job
    }

    /// Handles one callback; returns 1 to make eSpeak NG abort synthesis.
    func deliver(_ wav: UnsafeMutablePointer<Int16>?, count: Int) -> Int32 {
        if stopped || job.isCancelled {
            stopped = true
            return 1
        }
        guard let wav, count > 0 else { return 0 }
        samples += count
        let chunk = Array(UnsafeBufferPointer(start: wav, count: count))
        if !job.onChunk(chunk) || job.isCancelled {
            stopped = true
            return 1
        }
        return 0
    }
}
