import NarratorCore
import NarratorSystem
import Synchronization

/// Plays what the session's speech plan says, on eSpeak NG's thread and an audio output, and
/// never makes its caller wait: ``play(_:)`` hands a job to the engine thread and ``stop(_:)``
/// cancels it and silences the output, both returning at once, so the daemon's event loop never
/// waits on synthesis or on a sound server. What happened comes back through `onEvent`.
///
/// Reports are timed to the listener, not to synthesis: `began` when the utterance's first audio
/// is handed to the output, each SSML mark when the audio reaches it (by the output's written
/// samples, see ``AudioTimeline``), `ended` when the output has played the last sample. For one
/// utterance they come in that order, and none comes once ``stop(_:)`` has returned.
///
/// It keeps no utterance state of its own: which utterance plays, waits or ends is the plan's
/// (``SpeechPlan``). All it holds is the job in flight, so that a stop can cancel its synthesis.
public final class SpeechPlayer: Sendable {
    /// What the player reports, from the engine thread or the output's own threads.
    public enum Event: Sendable, Hashable {
        /// The utterance's first audio went to the output: the listener starts hearing it (SSIP's 701 BEGIN).
        case began(UtteranceID)
        /// The audio reached the SSML `<mark name="..."/>` with this name (SSIP's 700 INDEX MARK).
        case reachedMark(UtteranceID, String)
        /// The utterance's audio ran out (or it could not be played: `problem` says why).
        case ended(UtteranceID, problem: String?)
        /// The audio output changed: a fallback to null, a stall, the sound server back.
        case outputChanged(OutputStatus)
    }

    public let engine: EspeakEngine
    public let output: any AudioOutput
    private let onEvent: @Sendable (Event) -> Void
    /// Where each utterance's reports wait for their audio to be heard.
    private let reports: ReportSchedule
    /// The job last handed to the engine, while it runs.
    private let current = Mutex<(id: UtteranceID, job: SynthesisJob)?>(nil)

    public init(engine: EspeakEngine, output: any AudioOutput, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.engine = engine
        self.output = output
        self.onEvent = onEvent
        self.reports = ReportSchedule(post: onEvent)
    }

    /// Starts the engine and opens the output for an `--audio` spec.
    public static func start(
        audio: AudioSpec, espeakDataPath: String? = nil, onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(SpeechStartError) -> SpeechPlayer {
        let engine: EspeakEngine
        do { engine = try EspeakEngine(dataPath: espeakDataPath) } catch { throw .engine(error) }
        let output: any AudioOutput
        switch audio {
        case .null:
            output = NullOutput()
        case .wav(let directory):
            do { output = try WavOutput(directory: directory) } catch { throw .output(error) }
        case .auto, .pulse:
            output = ServerOutput(spec: audio, onChange: { onEvent(.outputChanged($0)) })
        }
        return SpeechPlayer(engine: engine, output: output, onEvent: onEvent)
    }

    /// Synthesizes and plays `request` after whatever the engine is finishing (a cancelled job
    /// stops at its next chunk). Returns at once; `.began`, its marks (for SSML) and `.ended`
    /// follow as its audio is heard.
    public func play(_ request: PlayRequest) {
        let id = request.utterance.id
        let output = self.output
        let reports = self.reports
        let format = AudioFormat(sampleRate: engine.sampleRate)
        // A write that fails stops synthesis as a cancel does; this tells the two apart.
        let writeFailure = WriteFailure()
        let timeline = TimelineBox(format: format)
        /// Queues the utterance's reports, each for when it is heard.
        @Sendable func report(_ due: [(Event, MonotonicInstant)]) {
            for (event, instant) in due { reports.schedule(event, for: id, at: instant) }
        }
        @Sendable func ended(_ problem: String?) {
            report([(.ended(id, problem: problem), MonotonicClock.now())])
        }
        reports.open(id)
        let job = SynthesisJob(
            text: request.utterance.text, ssml: request.ssml, voice: request.voice, parameters: request.parameters,
            onStart: { () throws(AudioOutputError) in try output.begin(id, kind: request.utterance.kind, format: format) },
            onMark: { mark in timeline.state.withLock { $0.add(mark) } },
            onChunk: { chunk in
                // Accounted before the write, which may wait for the playhead: the chunk plays
                // once what was handed over before it has.
                let now = MonotonicClock.now()
                report(timeline.state.withLock { $0.hand(chunk.count, at: now, of: id) })
                do throws(AudioOutputError) {
                    try output.write(chunk)
                    return true
                } catch {
                    writeFailure.error.withLock { $0 = error }
                    return false
                }
            },
            onEnd: { [weak self] outcome in
                self?.current.withLock { if $0?.id == id { $0 = nil } }
                defer { reports.close(id) }
                switch outcome {
                case .skipped:
                    return
                case .cancelled:
                    if let failure = writeFailure.error.withLock({ $0 }) {
                        // Not stopped by the plan: the output refused audio. The plan must hear of it.
                        ended("\(failure)")
                        return
                    }
                    // The plan stopped it and has moved on; ending only releases the output,
                    // whose interrupt already silenced it.
                    try? output.end()
                case .outputFailed(let error):
                    ended("\(error)")
                case .engineFailed(let failure):
                    try? output.end()
                    ended("\(failure)")
                case .completed, .failed:
                    var problem: String?
                    if case .failed(let error) = outcome {
                        problem = "\(error)"
                    } else {
                        // Marks past the last sample are heard as the audio runs out; an
                        // utterance without audio still begins before it ends.
                        let now = MonotonicClock.now()
                        report(timeline.state.withLock { $0.finish(at: now, of: id) })
                    }
                    // Waits until what was written has been heard: then the utterance has ended.
                    do { try output.end() } catch { problem = problem ?? "\(error)" }
                    ended(problem)
                }
            })
        current.withLock { $0 = (id, job) }
        engine.submit(job)
    }

    /// Silences `id` now: its synthesis stops at the next chunk and the output drops what it holds.
    public func stop(_ id: UtteranceID) {
        reports.silence(id)
        let job = current.withLock { running -> SynthesisJob? in
            guard let running, running.id == id else { return nil }
            return running.job
        }
        job?.cancel()
        output.interrupt()
    }

    /// Silences whatever plays (the daemon is stopping).
    public func stopAll() {
        if let running = current.withLock({ $0 }) {
            reports.silence(running.id)
            running.job.cancel()
        }
        output.interrupt()
    }
}

/// The timeline of one utterance's audio; only the engine thread touches it (the lock is never contended).
private final class TimelineBox: Sendable {
    let state: Mutex<AudioTimeline>

    init(format: AudioFormat) {
        state = Mutex(AudioTimeline(format: format))
    }
}

/// The error of the write that stopped a job, if one did.
private final class WriteFailure: Sendable {
    let error = Mutex<AudioOutputError?>(nil)
}
