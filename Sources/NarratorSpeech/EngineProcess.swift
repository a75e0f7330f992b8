import NarratorEngines
import NarratorSpeechPlan
import NarratorSystem

/// An engine that runs as a child process speaking docs/engine-protocol.md (Flite, Piper): a
/// ``Synthesizer`` like eSpeak NG, whose jobs are written to the process and whose frames come
/// back as each job's handlers, supervised by an ``EngineSupervisor``.
///
/// Nothing starts until the first ``submit(_:)``: then a thread of its own spawns `EXE --serve`
/// and reads its frames, a second writes its requests (so that neither `submit` nor a job's
/// `cancel` ever waits on the process, even one stopped with a full pipe), and a third relays its
/// standard error to `onLog` a line at a time. A process that crashes or hangs (silent and not
/// computing, by its CPU time in /proc: ``EngineSupervisor``) is killed and
/// started again; the jobs it had end with ``SynthesisJob/Outcome/engineFailed(_:)`` holding
/// what was not heard, for the fallback engine, and until the process is back a job ends so at
/// once. A process unused for the idle limit (``setIdleLimit(_:)``: the `engine-idle` setting)
/// is stopped, its health ``EngineHealth/idle``, and its next job starts it again.
/// `onHealth` hears every change of ``health``.
///
/// Handlers run on the engine's thread, in order: `onStart` when the engine begins the job's
/// audio (its `B` frame), `onChunk` for each `A` frame (false cancels the job), `onEnd` last.
/// An engine process has no SSML: SSML text is sent as its words, and no marks are reported.
/// Of the prosody, rate, pitch and volume reach the engine.
public final class EngineProcess: Synthesizer {
    public let engineName: EngineName
    /// The engine's executable.
    public let executable: String
    /// What it listed (``listVoices(executable:timeout:environment:)``).
    public let listing: EngineListing
    public let voices: [InstalledVoice]
    public let configuration: EngineSupervisor.Configuration
    private let environment: [String: String]
    private let mailbox: EngineMailbox
    private let onHealth: @Sendable (EngineHealth) -> Void
    private let onLog: @Sendable (String) -> Void

    /// An engine of `executable` with the voices of `listing` (which must list one at least),
    /// not started.
    ///
    /// - Parameters:
    ///   - hangBound: how long a job in flight may go without a frame while narratord reads
    ///     before the engine is given up unless its CPU time shows it computing (then it is
    ///     checked again each bound, up to 4 bounds of CPU time and 15 s of silence;
    ///     docs/engine-protocol.md: Flite 1 s, Piper 2 s).
    ///   - startBound: how long the process may take to its ready frame: 10 s by default, a
    ///     model load on a loaded machine, and as long as a listener should wait once.
    ///   - environment: the process's environment (the daemon's own by default).
    ///   - onHealth: each change of health, on the engine's thread (for the journal and `status`).
    ///   - onLog: each line for the journal, from the engine's standard error or its `L` frames.
    public init(
        executable: String, listing: EngineListing, hangBound: Duration = .seconds(2), startBound: Duration = .seconds(10),
        environment: [String: String] = ProcessEnvironment.current(),
        onHealth: @escaping @Sendable (EngineHealth) -> Void = { _ in },
        onLog: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(Errno) {
        precondition(!listing.voices.isEmpty, "an engine listing without voices (listVoices refuses those)")
        self.executable = executable
        self.listing = listing
        self.engineName = EngineName(listing.engine)
        self.voices = listing.installedVoices
        self.configuration = EngineSupervisor.Configuration(engine: engineName, hangBound: hangBound, startBound: startBound)
        self.environment = environment
        self.onHealth = onHealth
        self.onLog = onLog
        self.mailbox = try EngineMailbox()
    }

    deinit {
        if mailbox.isRunning { mailbox.post(.shutDown) }
    }

    public var health: EngineHealth { mailbox.health.withLock { $0 } }

    /// The rate of the voice `voice` picks (``EngineListing/voice(for:)``).
    public func sampleRate(for voice: VoiceChoice) -> Int {
        (listing.voice(for: voice) ?? listing.voices[0]).sampleRate
    }

    /// Queues a job; returns at once. The first one starts the engine.
    public func submit(_ job: SynthesisJob) {
        let id = mailbox.nextJobID()
        let voice = (listing.voice(for: job.voice) ?? listing.voices[0]).name
        let text = job.ssml ? SSMLText.plain(job.text) : job.text
        let engineJob = EngineJob(id: id, text: text, voice: voice, parameters: job.parameters)
        if mailbox.post(.submit(engineJob, job)) { startThread() }
        let mailbox = self.mailbox
        job.whenCancelled { mailbox.post(.cancel(job: id)) }
    }

    /// Starts the process now if it is not started (a setting chose this engine), so that its
    /// first job does not wait for its model to load. Returns at once.
    public func warmUp() {
        if mailbox.post(.warmUp) { startThread() }
    }

    /// Stops the process once it has gone unused for `limit` (nil: never); its next job starts it
    /// again. Starts nothing. Returns at once.
    public func setIdleLimit(_ limit: Duration?) {
        mailbox.setIdleLimit(limit)
    }

    /// Starts the engine's thread; its loop is made there, and only that thread touches it.
    private func startThread() {
        let (mailbox, executable, environment, configuration) = (mailbox, executable, environment, configuration)
        let (onHealth, onLog) = (onHealth, onLog)
        DetachedThread.start(name: "\(engineName).frames") {
            EngineLoop(
                mailbox: mailbox, executable: executable, environment: environment, configuration: configuration,
                onHealth: onHealth, onLog: onLog
            ).run()
        }
    }

    /// Runs `EXE --list-voices` (at most `timeout`) and reads its listing: what narratord does
    /// once at start-up for every engine it finds, without starting the engine.
    public static func listVoices(
        executable: String, timeout: Duration = .seconds(5), environment: [String: String] = ProcessEnvironment.current()
    ) throws(EngineListVoicesError) -> EngineListing {
        func failure(_ problem: EngineListVoicesError.Problem) -> EngineListVoicesError {
            EngineListVoicesError(executable: executable, problem: problem)
        }
        let run: CapturedRun
        do {
            run = try ChildProcess.capture(executable, ["--list-voices"], environment: environment, timeout: timeout, limit: listingLimit)
        } catch {
            throw failure(.couldNotRun(error))
        }
        guard let termination = run.termination else { throw failure(.timedOut(timeout)) }
        guard termination == .exited(0) else { throw failure(.failed(termination, message: said(run.error))) }
        guard !run.truncated else { throw failure(.tooLong(limit: listingLimit)) }
        let listing: EngineListing
        do {
            listing = try EngineListing(json: String(decoding: run.output, as: UTF8.self))
        } catch {
            throw failure(.invalid(error))
        }
        guard !listing.voices.isEmpty else { throw failure(.noVoices) }
        var names: Set<String> = []
        for voice in listing.voices where !names.insert(voice.name).inserted { throw failure(.duplicateVoice(voice.name)) }
        return listing
    }

    /// The most of a listing read (Piper's hundreds of voices take some tens of KiB).
    static let listingLimit = 1 << 22

    /// An engine's last words on standard error, for an error message: its last non-empty
    /// line, at most 300 bytes.
    static func said(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let last = text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }
        guard let last else { return "" }
        return String(last.utf8.count <= 300 ? last : Substring(decoding: Array(last.utf8.prefix(300)), as: UTF8.self))
    }
}
