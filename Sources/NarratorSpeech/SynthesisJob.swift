import CEspeak
import NarratorEngines
import Synchronization

/// One utterance for the engine: text, voice and prosody, and what to do with each PCM chunk.
///
/// The handlers run on the engine thread, in order: `onStart` before the first chunk, `onChunk`
/// for every chunk (return false to stop), `onMark` for each SSML `<mark>` before the chunk that
/// holds its position (also the marks eSpeak NG loses after a full stop, see ``SSMLSegments``),
/// `onSentence` for each sentence of plain text before the chunk its audio starts in (not for
/// SSML, whose positions are in the markup), `onEnd` after the last one, even when cancelled (with ``Outcome/skipped`` and no `onStart`
/// when cancelled before it started). When `onStart` throws (the output could not begin the
/// utterance), nothing is synthesized and `onEnd` gets ``Outcome/outputFailed(_:)``.
/// ``cancel()`` may be called from any thread; synthesis stops before the next chunk.
public final class SynthesisJob: Sendable {
    /// How a job ended.
    public enum Outcome: Sendable, Hashable {
        case completed(samples: Int)
        case cancelled(samples: Int)
        case failed(SynthesisError)
        /// The engine crashed or stopped answering mid-job and was given up; the failure holds
        /// what was not heard yet, for the fallback engine.
        case engineFailed(EngineFailure)
        /// Cancelled before it started: `onStart` was not called.
        case skipped
        /// `onStart` threw: the output could not begin the utterance, so nothing was synthesized.
        case outputFailed(AudioOutputError)

        /// Whether `onStart` ran and returned, so that the output began this utterance and must be
        /// ended (false for ``skipped`` and ``outputFailed(_:)``).
        public var startedOutput: Bool {
            switch self {
            case .completed, .cancelled, .failed, .engineFailed: true
            case .skipped, .outputFailed: false
            }
        }
    }

    /// An SSML `<mark name="..."/>` and where in the utterance's audio it falls.
    public struct Mark: Sendable, Hashable {
        public var name: String
        /// The sample (counted from the utterance's first) at which the audio reaches the mark.
        public var sample: Int

        public init(name: String, sample: Int) {
            self.name = name
            self.sample = sample
        }
    }

    /// Where a sentence of the job's text starts, in the text and in the audio.
    public struct Sentence: Sendable, Hashable {
        /// The UTF-8 byte offset in ``SynthesisJob/text`` where the sentence starts (its first word).
        public var offset: Int
        /// The sample (counted from the job's first) at which its audio starts.
        public var sample: Int

        public init(offset: Int, sample: Int) {
            self.offset = offset
            self.sample = sample
        }
    }

    public let text: String
    /// Whether `text` is SSML (synthesized with eSpeak NG's `espeakSSML`).
    public let ssml: Bool
    public let voice: VoiceChoice
    public let parameters: VoiceParameters
    let onStart: @Sendable () throws(AudioOutputError) -> Void
    let onChunk: @Sendable ([Int16]) -> Bool
    let onMark: @Sendable (Mark) -> Void
    let onSentence: @Sendable (Sentence) -> Void
    let onEnd: @Sendable (Outcome) -> Void
    private let cancelled = Atomic<Bool>(false)
    /// What ``cancel()`` must also do for the engine running the job (see ``whenCancelled(_:)``).
    private let cancelHandler = Mutex<(@Sendable () -> Void)?>(nil)

    public init(
        text: String,
        ssml: Bool = false,
        voice: VoiceChoice = .standard,
        parameters: VoiceParameters = VoiceParameters(),
        onStart: @escaping @Sendable () throws(AudioOutputError) -> Void = {},
        onMark: @escaping @Sendable (Mark) -> Void = { _ in },
        onSentence: @escaping @Sendable (Sentence) -> Void = { _ in },
        onChunk: @escaping @Sendable ([Int16]) -> Bool,
        onEnd: @escaping @Sendable (Outcome) -> Void
    ) {
        self.text = text
        self.ssml = ssml
        self.onMark = onMark
        self.onSentence = onSentence
        self.voice = voice
        self.parameters = parameters
        self.onStart = onStart
        self.onChunk = onChunk
        self.onEnd = onEnd
    }

    /// Stops synthesis before the next chunk (or before it starts).
    public func cancel() {
        let handler = cancelHandler.withLock { handler in
            cancelled.store(true, ordering: .releasing)
            defer { handler = nil }
            return handler
        }
        handler?()
    }

    /// Registers what ``cancel()`` must do besides raising the flag: an engine that does not
    /// look at the flag between chunks (an engine process, whose synthesis runs elsewhere) is
    /// told at once. Called once, when the job is given to the engine; a job cancelled already
    /// runs `handler` now. The handler runs once at most, on the thread that cancels.
    public func whenCancelled(_ handler: @escaping @Sendable () -> Void) {
        let cancelledAlready = cancelHandler.withLock { registered in
            if cancelled.load(ordering: .acquiring) { return true }
            registered = handler
            return false
        }
        if cancelledAlready { handler() }
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}

/// The state of the job being synthesized, reached from the C callback through `user_data`.
final class SynthesisRun {
    let job: SynthesisJob
    /// Samples delivered so far, over every piece the utterance is synthesized in.
    var samples = 0
    /// Samples delivered before the piece being synthesized: eSpeak NG counts each call's mark
    /// positions from that call's start, so they are shifted by this.
    var segmentStart = 0
    var stopped = false
    /// Turns eSpeak NG's character positions into the UTF-8 offsets sentences are reported in.
    private var positions: ScalarOffsets

    init(job: SynthesisJob) {
        self.job = job
        self.positions = ScalarOffsets(job.text)
    }

    /// Handles one callback; returns 1 to make eSpeak NG abort synthesis. The marks among
    /// `events` (which eSpeak NG hands over with the chunk that holds them) go out first.
    func deliver(_ wav: UnsafeMutablePointer<Int16>?, count: Int, events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
        if stopped || job.isCancelled {
            stopped = true
            return 1
        }
        if var event = events {
            while event.pointee.type != espeakEVENT_LIST_TERMINATED {
                if event.pointee.type == espeakEVENT_MARK, let name = event.pointee.id.name {
                    job.onMark(SynthesisJob.Mark(name: String(cString: name), sample: segmentStart + Int(event.pointee.sample)))
                } else if event.pointee.type == espeakEVENT_SENTENCE, !job.ssml,
                    let offset = positions.utf8Offset(ofScalar: Int(event.pointee.text_position) - 1)
                {
                    // eSpeak NG counts characters (Unicode scalars) from 1, at the sentence's first word.
                    job.onSentence(SynthesisJob.Sentence(offset: offset, sample: segmentStart + Int(event.pointee.sample)))
                }
                event += 1
            }
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

/// The UTF-8 offset of the n-th Unicode scalar of a text, found by walking forward from the last
/// one asked for (eSpeak NG reports positions in order, so a long text is walked once).
struct ScalarOffsets {
    private let scalars: String.UnicodeScalarView
    private var index: String.UnicodeScalarView.Index
    private var scalar = 0
    private var offset = 0

    init(_ text: String) {
        scalars = text.unicodeScalars
        index = scalars.startIndex
    }

    /// The UTF-8 offset where scalar `n` (from 0) starts; nil when the text has fewer.
    mutating func utf8Offset(ofScalar n: Int) -> Int? {
        guard n >= 0 else { return nil }
        if n < scalar {
            index = scalars.startIndex
            scalar = 0
            offset = 0
        }
        while scalar < n {
            guard index < scalars.endIndex else { return nil }
            offset += UTF8.width(scalars[index])
            index = scalars.index(after: index)
            scalar += 1
        }
        return index < scalars.endIndex ? offset : nil
    }
}
