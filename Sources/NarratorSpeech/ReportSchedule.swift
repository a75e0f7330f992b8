import Dispatch
import NarratorBase
import NarratorSpeechPlan
import NarratorSystem
import Synchronization

/// Posts the player's reports when the listener hears them: each is queued with the instant its
/// audio is heard, and goes out at that instant, in the order queued (so an utterance's `began`,
/// marks and `ended` keep their order even when a later one is due first: that one then releases
/// the earlier ones). Nothing is posted for an utterance once ``silence(_:)`` returned, because
/// the post itself happens under the same lock (it is `LoopInbox.post`: a few instructions).
///
/// Timers run on a serial dispatch queue of its own, so no caller waits for a report.
final class ReportSchedule: Sendable {
    private struct Pending {
        let utterance: UtteranceID
        let event: SpeechPlayer.Event
        let due: MonotonicInstant
    }

    private struct State {
        var queue: [Pending] = []
        /// The utterances that may still queue reports, and whether each was silenced.
        var live: [UtteranceID: Bool] = [:]
    }

    private let state = Mutex(State())
    private let timers = DispatchQueue(label: "narrator.speech.reports")
    private let post: @Sendable (SpeechPlayer.Event) -> Void

    init(post: @escaping @Sendable (SpeechPlayer.Event) -> Void) {
        self.post = post
    }

    /// `utterance` may now queue reports (called by `play`).
    func open(_ utterance: UtteranceID) {
        state.withLock { $0.live[utterance] = false }
    }

    /// `utterance` will queue no more (its job ended); what it queued still goes out.
    func close(_ utterance: UtteranceID) {
        state.withLock { _ = $0.live.removeValue(forKey: utterance) }
    }

    /// Drops what `utterance` queued and will queue: it was stopped.
    func silence(_ utterance: UtteranceID) {
        state.withLock { state in
            state.queue.removeAll { $0.utterance == utterance }
            if state.live[utterance] != nil { state.live[utterance] = true }
        }
    }

    /// Queues `event` to go out at `due` (at once if that has passed), after everything queued before it.
    func schedule(_ event: SpeechPlayer.Event, for utterance: UtteranceID, at due: MonotonicInstant) {
        let queued = state.withLock { state -> Bool in
            guard state.live[utterance] != true else { return false }
            state.queue.append(Pending(utterance: utterance, event: event, due: due))
            return true
        }
        guard queued else { return }
        let wait = due - MonotonicClock.now()
        if wait <= .zero {
            drain()
        } else {
            arm(after: wait)
        }
    }

    private func arm(after wait: Duration) {
        timers.asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, wait.nanosecondsClamped)))) { [weak self] in
            self?.drain()
        }
    }

    /// Posts, in order, everything up to the last report that is due.
    private func drain() {
        let early = state.withLock { state -> Duration? in
            let now = MonotonicClock.now()
            guard let last = state.queue.lastIndex(where: { $0.due <= now }) else {
                // A timer that fired a little early: look again when the first one is due.
                return state.queue.first.map { $0.due - now }
            }
            for pending in state.queue[...last] { post(pending.event) }
            state.queue.removeFirst(last + 1)
            return nil
        }
        if let early { arm(after: early) }
    }
}

/// When each sample of one utterance is heard, worked out as the engine thread hands chunks to
/// the output: a chunk starts playing when the one before it has played, or when it is handed over
/// if the output ran dry. This is the accounting ``RealTimePlayhead`` keeps for `null` and WAV
/// (exactly), and what a sound server does once its stream runs (its own latency comes on top).
struct AudioTimeline {
    /// The format of the audio being handed over: another one's when a failed engine's utterance
    /// goes on in eSpeak NG's.
    var format: AudioFormat
    /// Samples handed to the output so far.
    private(set) var written = 0
    /// Where the job being synthesized starts in the utterance's audio: an engine counts its
    /// samples from its job's start, and the rest of a failed engine's utterance is a job of its own.
    private var jobStart = 0
    /// When the last sample handed over will have been heard; nil before the first chunk.
    private(set) var heardUntil: MonotonicInstant?
    /// Reports at a position in the audio (marks, sentences) that has not been handed over yet, in order.
    private var positioned: [(sample: Int, event: SpeechPlayer.Event)] = []

    init(format: AudioFormat) {
        self.format = format
    }

    /// The utterance goes on in a job of its own (in `format`), after what was handed over so far.
    mutating func continueJob(in format: AudioFormat) {
        self.format = format
        jobStart = written
    }

    /// An SSML mark the engine reported (its sample counted from the job's start).
    mutating func add(_ mark: SynthesisJob.Mark, of utterance: UtteranceID) {
        positioned.append((jobStart + mark.sample, .reachedMark(utterance, mark.name)))
    }

    /// A sentence the engine reported; `textStart` is where the job's text starts in the utterance's
    /// (a failed engine's rest is a suffix of it), so that the offset is one of the utterance's text.
    mutating func add(_ sentence: SynthesisJob.Sentence, textStart: Int, of utterance: UtteranceID) {
        positioned.append((jobStart + sentence.sample, .reached(utterance, offset: textStart + sentence.offset)))
    }

    /// Accounts for a chunk of `count` samples handed over `now`, and returns the reports its
    /// audio brings, with when each is heard: `began` with the first chunk, and the marks and
    /// sentences it holds.
    mutating func hand(_ count: Int, at now: MonotonicInstant, of utterance: UtteranceID) -> [(SpeechPlayer.Event, MonotonicInstant)] {
        var reports: [(SpeechPlayer.Event, MonotonicInstant)] = []
        let start = max(heardUntil ?? now, now)
        if heardUntil == nil { reports.append((.began(utterance), start)) }
        let first = written
        written += count
        heardUntil = start + format.duration(ofSamples: count)
        while let next = positioned.first, next.sample < written {
            positioned.removeFirst()
            reports.append((next.event, start + format.duration(ofSamples: max(0, next.sample - first))))
        }
        return reports
    }

    /// The reports still owed once synthesis completed: `began` if no audio came at all, and the
    /// marks (and sentences) at or past the end of the audio, heard when the audio runs out.
    mutating func finish(at now: MonotonicInstant, of utterance: UtteranceID) -> [(SpeechPlayer.Event, MonotonicInstant)] {
        var reports: [(SpeechPlayer.Event, MonotonicInstant)] = []
        if heardUntil == nil { reports.append((.began(utterance), now)) }
        let end = max(heardUntil ?? now, now)
        reports += positioned.map { ($0.event, end) }
        positioned.removeAll()
        return reports
    }
}
