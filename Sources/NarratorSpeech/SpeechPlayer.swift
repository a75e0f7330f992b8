import NarratorBase
import NarratorEngines
import NarratorSpeechPlan
import NarratorSystem
import Synchronization

/// Plays what the session's speech plan says, on eSpeak NG's thread and an audio output, and
/// never makes its caller wait: ``play(_:)`` hands a job to the engine thread and ``stop(_:)``
/// cancels it and silences the output, both returning at once, so the daemon's event loop never
/// waits on synthesis or on a sound server. What happened comes back through `onEvent`.
///
/// Reports are timed to the listener, not to synthesis: `began` when the utterance's first audio
/// is handed to the output, each SSML mark and each sentence of plain text when the audio reaches
/// it (by the output's written samples, see ``AudioTimeline``), `ended` when the output has
/// played the last sample. For one
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
        /// The listener starts hearing the sentence that starts at this UTF-8 byte offset of the
        /// utterance's text (plain text only: eSpeak NG's sentence events, engines' `S` frames).
        /// What a cut utterance goes on from.
        case reached(UtteranceID, offset: Int)
        /// The utterance's audio ran out (or it could not be played: `problem` says why).
        case ended(UtteranceID, problem: String?)
        /// The audio output changed: a fallback to null, a stall, the sound server back.
        case outputChanged(OutputStatus)
        /// An engine process started, failed or came back.
        case engineChanged(EngineName, EngineHealth)
    }

    /// eSpeak NG: the engine for what no other is asked for, and what speaks when another fails.
    public let engine: EspeakEngine
    /// Every engine by name, eSpeak NG's included.
    public let engines: [EngineName: any Synthesizer]
    public let output: any AudioOutput
    private let onEvent: @Sendable (Event) -> Void
    /// Where each utterance's reports wait for their audio to be heard.
    private let reports: ReportSchedule
    /// One utterance at the output at a time, whichever engine's thread hands its audio over.
    private let turn: OutputTurn
    /// The job last handed to an engine, while it runs.
    private let current = Mutex<(id: UtteranceID, job: SynthesisJob)?>(nil)

    public init(
        engine: EspeakEngine, others: [any Synthesizer] = [], output: any AudioOutput, onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.engine = engine
        var engines: [EngineName: any Synthesizer] = [engine.engineName: engine]
        for other in others { engines[other.engineName] = other }
        self.engines = engines
        self.output = output
        self.onEvent = onEvent
        self.reports = ReportSchedule(post: onEvent)
        self.turn = OutputTurn(output: output)
    }

    /// Starts the engine and opens the output for an `--audio` spec.
    public static func start(
        audio: AudioSpec, espeakDataPath: String? = nil, others: [any Synthesizer] = [], onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(SpeechStartError) -> SpeechPlayer {
        let engine: EspeakEngine
        do { engine = try EspeakEngine(dataPath: espeakDataPath) } catch { throw .engine(error) }
        return try start(audio: audio, engine: engine, others: others, onEvent: onEvent)
    }

    /// Opens the output for an `--audio` spec, with eSpeak NG already started.
    public static func start(
        audio: AudioSpec, engine: EspeakEngine, others: [any Synthesizer] = [], onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws(SpeechStartError) -> SpeechPlayer {
        let output: any AudioOutput
        switch audio {
        case .null:
            output = NullOutput()
        case .wav(let directory):
            do { output = try WavOutput(directory: directory) } catch { throw .output(error) }
        case .auto, .pulse:
            output = ServerOutput(spec: audio, onChange: { onEvent(.outputChanged($0)) })
        }
        return SpeechPlayer(engine: engine, others: others, output: output, onEvent: onEvent)
    }

    /// Synthesizes and plays `request` on its engine after whatever that engine is finishing (a
    /// cancelled job stops at its next chunk). Returns at once; `.began`, its marks (for SSML) and
    /// `.ended` follow as its audio is heard. An engine that is restarting is not waited for:
    /// eSpeak NG says it; one that fails mid-utterance has eSpeak NG say the rest.
    public func play(_ request: PlayRequest) {
        let id = request.utterance.id
        reports.open(id)
        var synthesizer: any Synthesizer = engines[request.engine] ?? engine
        var text = request.utterance.text
        var ssml = request.ssml
        var voice = request.voice
        if !synthesizer.health.serves {
            synthesizer = engine
            voice = Self.fallbackVoice(for: request)
        } else if synthesizer !== engine, ssml {
            // Engine processes take plain text: the markup's words are read, its marks not reported.
            text = SSMLText.plain(text)
            ssml = false
        }
        submit(request, text: text, ssml: ssml, voice: voice, on: synthesizer, continuing: nil)
    }

    /// Where `text`, what a job of `request` synthesizes, starts in the utterance's text, when
    /// its sentences are reported: it is the text or (the rest of a failed engine's job) a suffix
    /// of it. Nil for SSML, whose text an engine is given differently (its positions are in markup).
    static func textStart(of text: String, in request: PlayRequest) -> Int? {
        guard !request.ssml else { return nil }
        let whole = request.utterance.text
        if text == whole { return 0 }
        let (all, rest) = (whole.utf8.count, text.utf8.count)
        guard all >= rest, whole.utf8.suffix(rest).elementsEqual(text.utf8) else { return nil }
        return all - rest
    }

    /// eSpeak NG's voice for what another engine was to say: the text's language's, else its default.
    static func fallbackVoice(for request: PlayRequest) -> VoiceChoice {
        request.utterance.language.map { .language($0) } ?? .standard
    }

    /// One job of `request` on `synthesizer`; `continuing` is the utterance's timeline when this
    /// is the rest of it after its engine failed (its `began` was reported already).
    private func submit(
        _ request: PlayRequest, text: String, ssml: Bool, voice: VoiceChoice, on synthesizer: any Synthesizer, continuing: TimelineBox?
    ) {
        let id = request.utterance.id
        let turn = self.turn
        let reports = self.reports
        let format = AudioFormat(sampleRate: synthesizer.sampleRate(for: voice))
        // A write that fails stops synthesis as a cancel does; this tells the two apart.
        let writeFailure = WriteFailure()
        let timeline = continuing ?? TimelineBox(format: format)
        let textStart = Self.textStart(of: text, in: request)
        /// Queues the utterance's reports, each for when it is heard.
        @Sendable func report(_ due: [(Event, MonotonicInstant)]) {
            for (event, instant) in due { reports.schedule(event, for: id, at: instant) }
        }
        @Sendable func ended(_ problem: String?) {
            report([(.ended(id, problem: problem), MonotonicClock.now())])
        }
        let job = SynthesisJob(
            text: text, ssml: ssml, voice: voice, parameters: request.parameters,
            onStart: { () throws(AudioOutputError) in
                if continuing != nil {
                    // What the failed engine handed over is heard out; the rest comes in eSpeak NG's format.
                    try? turn.end(id)
                    timeline.state.withLock { $0.continueJob(in: format) }
                }
                try turn.begin(id, kind: request.utterance.kind, format: format)
            },
            onMark: { mark in timeline.state.withLock { $0.add(mark, of: id) } },
            onSentence: { sentence in
                guard let textStart else { return }
                timeline.state.withLock { $0.add(sentence, textStart: textStart, of: id) }
            },
            onChunk: { chunk in
                // Accounted before the write, which may wait for the playhead: the chunk plays
                // once what was handed over before it has.
                let now = MonotonicClock.now()
                report(timeline.state.withLock { $0.hand(chunk.count, at: now, of: id) })
                do throws(AudioOutputError) {
                    return try turn.write(id, chunk)
                } catch {
                    writeFailure.error.withLock { $0 = error }
                    return false
                }
            },
            onEnd: { [weak self] outcome in
                // Not once the plan stopped it (a stop takes the job out of `current`).
                if case .engineFailed(let failure) = outcome, let self, self.current.withLock({ $0?.id == id }) {
                    // Said once by the engine's health; the rest of this utterance is eSpeak NG's.
                    let rest = failure.remainder
                    if !rest.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\t" }) {
                        self.submit(request, text: rest, ssml: false, voice: Self.fallbackVoice(for: request), on: self.engine, continuing: timeline)
                        return
                    }
                }
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
                    try? turn.end(id)
                case .outputFailed(let error):
                    ended("\(error)")
                case .completed, .failed, .engineFailed:
                    var problem: String?
                    if case .failed(let error) = outcome {
                        problem = "\(error)"
                    } else if case .engineFailed(let failure) = outcome {
                        problem = "\(failure)"
                    } else {
                        // Marks past the last sample are heard as the audio runs out; an
                        // utterance without audio still begins before it ends.
                        let now = MonotonicClock.now()
                        report(timeline.state.withLock { $0.finish(at: now, of: id) })
                    }
                    // Waits until what was written has been heard: then the utterance has ended.
                    do { try turn.end(id) } catch { problem = problem ?? "\(error)" }
                    ended(problem)
                }
            })
        current.withLock { $0 = (id, job) }
        synthesizer.submit(job)
    }

    /// Silences `id` now: its synthesis stops at the next chunk and the output drops what it holds.
    /// Has engine `name` get ready (an engine process starts) before its first utterance.
    public func warmUp(_ name: EngineName) {
        engines[name]?.warmUp()
    }

    /// Has every engine process stop once unused for `limit` (nil: never); the `engine-idle` setting.
    public func setEngineIdle(_ limit: Duration?) {
        for engine in engines.values { engine.setIdleLimit(limit) }
    }

    public func stop(_ id: UtteranceID) {
        reports.silence(id)
        let job = current.withLock { running -> SynthesisJob? in
            guard let job = running, job.id == id else { return nil }
            running = nil
            return job.job
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
