import Dispatch
import Foundation
import NarratorCore
import NarratorSystem
import Synchronization

/// Narrator's voice: the scheduler, the eSpeak NG engine and an audio output, glued together.
///
/// All state lives on one serial queue. `say` and `stop` run their scheduling step on that queue
/// synchronously (libdispatch runs an uncontended sync on the caller's thread, so no thread has to
/// wake up before the engine gets the job), and return once it is done: microseconds, or the
/// device flush when they interrupt. Called from `onEvent` (on the queue) they are queued instead.
/// Events are delivered in order on that queue through `onEvent`.
public final class SpeechService: @unchecked Sendable {
    /// What `status` shows.
    public struct Status: Sendable, Hashable {
        public var output: OutputStatus
        /// The voice used when the tree gives no language (the user's choice, or eSpeak's default).
        public var voice: String
        public var settings: SpeechSettings
        public var playing: UtteranceID?
        public var waiting: Int
    }

    public let engine: EspeakEngine
    public let output: any AudioOutput
    private let store: SpeechSettingsStore?
    private let onEvent: @Sendable (SpeechEvent) -> Void
    private let queue = DispatchQueue(label: "narrator.speech", qos: .userInteractive)
    private let onQueue = DispatchSpecificKey<Bool>()
    private let nextID = Atomic<UInt64>(1)
    /// eSpeak's default voice, resolved once here: asking the engine later waits behind every
    /// queued synthesis job, and the daemon answers `status` on its event loop.
    private let standardVoice: String
    // Owned by `queue`.
    private var scheduler: SpeechScheduler
    private var settings: SpeechSettings
    private var jobs: [UtteranceID: SynthesisJob] = [:]
    private var tickGeneration = 0
    private var idleWaiters: [DispatchSemaphore] = []

    /// Builds the service around an engine and an output.
    ///
    /// - Parameters:
    ///   - settingsStore: where settings persist; nil keeps them in memory only.
    ///   - onEvent: every utterance event, in order, on the service queue.
    public init(
        engine: EspeakEngine,
        output: any AudioOutput,
        settingsStore: SpeechSettingsStore? = nil,
        onEvent: @escaping @Sendable (SpeechEvent) -> Void = { _ in }
    ) throws(SpeechSettingsError) {
        self.engine = engine
        self.output = output
        self.store = settingsStore
        self.onEvent = onEvent
        let loaded = try settingsStore?.load() ?? SpeechSettings()
        settings = loaded
        scheduler = SpeechScheduler(configuration: loaded.schedulerConfiguration)
        standardVoice = (try? engine.resolve(.standard)) ?? "en"
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Starts the engine and opens the output for an `--audio` spec.
    ///
    /// - Parameters:
    ///   - log: start-up decisions and output changes (which output, fallbacks, reconnects).
    public static func start(
        audio: AudioSpec,
        settingsPath: String?,
        espeakDataPath: String? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in },
        onEvent: @escaping @Sendable (SpeechEvent) -> Void = { _ in }
    ) throws(SpeechStartError) -> SpeechService {
        let engine: EspeakEngine
        do { engine = try EspeakEngine(dataPath: espeakDataPath) } catch { throw .engine(error) }
        let output: any AudioOutput
        switch audio {
        case .null:
            output = NullOutput()
        case .wav(let directory):
            do { output = try WavOutput(directory: directory) } catch { throw .output(error) }
        case .auto, .pulse:
            output = ServerOutput(spec: audio, onChange: { status in
                if status.fallback {
                    log("audio: using null output (\(status.detail ?? "sound server unreachable")); retrying")
                } else {
                    log("audio: using \(status.active)")
                }
            })
        }
        do {
            return try SpeechService(
                engine: engine, output: output,
                settingsStore: settingsPath.map(SpeechSettingsStore.init(path:)), onEvent: onEvent)
        } catch {
            throw .settings(error)
        }
    }

    // MARK: - Speaking

    /// Asks for `text` to be spoken as `kind`; returns its id once it is scheduled (events follow).
    @discardableResult
    public func say(_ text: String, kind: SpeechKind, language: String? = nil) -> UtteranceID {
        let id = UtteranceID(nextID.add(1, ordering: .relaxed).oldValue)
        let request = UtteranceRequest(id: id, kind: kind, text: text, language: language)
        onServiceQueue { [self] in
            apply(scheduler.submit(request, at: MonotonicClock.now()))
        }
        return id
    }

    /// Silences everything now and drops what waits.
    public func stop() {
        onServiceQueue { [self] in
            apply(scheduler.stopAll(at: MonotonicClock.now()))
        }
    }

    /// Runs `body` on the queue: synchronously from other threads, queued when already on it.
    private func onServiceQueue(_ body: @escaping @Sendable () -> Void) {
        if DispatchQueue.getSpecific(key: onQueue) == true {
            queue.async(execute: body)
        } else {
            queue.sync(execute: body)
        }
    }

    /// Blocks until nothing plays or waits, or `timeout` passes; true when idle.
    public func waitUntilIdle(timeout: Duration) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        queue.async { [self] in
            if scheduler.isIdle { semaphore.signal() } else { idleWaiters.append(semaphore) }
        }
        let seconds = Double(timeout.nanosecondsClamped) / 1e9
        return semaphore.wait(timeout: .now() + seconds) == .success
    }

    // MARK: - Settings and status

    public var status: Status {
        queue.sync {
            Status(
                output: output.status, voice: settings.voice ?? standardVoice,
                settings: settings, playing: scheduler.playing?.id, waiting: scheduler.waiting.count)
        }
    }

    public var currentSettings: SpeechSettings {
        queue.sync { settings }
    }

    /// Changes one setting by name (see ``SpeechSettings/keys``), saves it, and applies it to the next utterance.
    public func set(_ key: String, to value: String) throws(SpeechSettingsError) {
        var changed = currentSettings
        try changed.set(key, to: value)
        if key == "voice", let name = changed.voice,
           !engine.voices.contains(where: { $0.name == name || $0.identifier == name }) {
            throw .unknownVoice(name)
        }
        try store?.save(changed)
        queue.sync {
            settings = changed
            apply(scheduler.configure(changed.schedulerConfiguration, at: MonotonicClock.now()))
        }
    }

    // MARK: - Running the scheduler's commands

    private func apply(_ step: SpeechSchedulerStep) {
        dispatchPrecondition(condition: .onQueue(queue))
        for command in step.commands {
            switch command {
            case .stop(let id):
                jobs[id]?.cancel()
                output.interrupt()
            case .play(let request):
                play(request)
            }
        }
        for event in step.events {
            onEvent(event)
        }
        scheduleTick()
        if scheduler.isIdle {
            for waiter in idleWaiters { waiter.signal() }
            idleWaiters.removeAll()
        }
    }

    private func play(_ request: UtteranceRequest) {
        let voice: VoiceChoice =
            if let name = settings.voice { .named(name) }
            else if let language = request.language { .language(language) }
            else { .standard }
        let output = self.output
        let format = AudioFormat(sampleRate: engine.sampleRate)
        let job = SynthesisJob(
            text: request.text, voice: voice, parameters: settings.parameters,
            onStart: { () throws(AudioOutputError) in
                try output.begin(request.id, kind: request.kind, format: format)
            },
            onChunk: { chunk in
                do {
                    try output.write(chunk)
                    return true
                } catch {
                    return false
                }
            },
            onEnd: { [weak self] outcome in
                if outcome.startedOutput { try? output.end() }
                guard let self else { return }
                self.queue.async { self.ended(request.id, outcome) }
            })
        jobs[request.id] = job
        engine.submit(job)
    }

    private func ended(_ id: UtteranceID, _ outcome: SynthesisJob.Outcome) {
        guard jobs.removeValue(forKey: id) != nil else { return }
        switch outcome {
        case .cancelled, .skipped: return
        case .completed, .failed, .outputFailed: break
        }
        // Completed or failed: either way the utterance is over and the queue moves on.
        apply(scheduler.finished(id, at: MonotonicClock.now()))
    }

    /// Arms a one-shot timer for the scheduler's next deadline (a hint's pause).
    private func scheduleTick() {
        tickGeneration += 1
        guard let deadline = scheduler.nextDeadline else { return }
        let generation = tickGeneration
        let delay = max(0, (deadline - MonotonicClock.now()).nanosecondsClamped)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { [weak self] in
            guard let self, generation == self.tickGeneration else { return }
            self.apply(self.scheduler.tick(at: MonotonicClock.now()))
        }
    }
}

/// Why the speech service could not start.
public enum SpeechStartError: Error, Sendable, CustomStringConvertible {
    case engine(EspeakError)
    case output(AudioOutputError)
    case settings(SpeechSettingsError)

    public var description: String {
        switch self {
        case .engine(let error): "\(error)"
        case .output(let error): "\(error)"
        case .settings(let error): "\(error)"
        }
    }
}
