import Glibc
import NarratorBase
import NarratorEngines
import NarratorSystem
import Synchronization

/// What an ``EngineProcess`` shares with its thread: the inputs posted to it (jobs and cancels
/// from any thread, which never wait), the wake-up that brings them, and the engine's health.
final class EngineMailbox: Sendable {
    enum Posted: Sendable {
        case submit(EngineJob, SynthesisJob)
        case warmUp
        case cancel(job: UInt32)
        /// The idle limit changed: the thread reads ``EngineMailbox/idleLimit``.
        case idleLimitChanged
        case shutDown
    }

    private struct State {
        var posted: [Posted] = []
        /// The thread runs (it is started by the first job).
        var running = false
        var nextJob: UInt32 = 1
    }

    private let state = Mutex(State())
    /// An eventfd the thread polls beside the engine's output.
    let wake: Int32
    let health = Mutex<EngineHealth>(.notStarted)
    /// How long the engine may go unused before its process is stopped (nil: never); read by
    /// the thread when it starts and when told it changed.
    let idleLimit = Mutex<Duration?>(nil)

    init() throws(Errno) {
        wake = try Syscall.eventFD()
    }

    deinit {
        try? Syscall.close(wake)
    }

    /// The wire number of the next job (never 0, which frames about no job carry).
    func nextJobID() -> UInt32 {
        state.withLock { state in
            defer { state.nextJob = state.nextJob == .max ? 1 : state.nextJob + 1 }
            return state.nextJob
        }
    }

    /// Hands `input` to the thread; returns at once. Returns true when the thread was not
    /// running yet, for the caller to start it.
    @discardableResult
    func post(_ input: Posted) -> Bool {
        let start = state.withLock { state in
            state.posted.append(input)
            defer { state.running = true }
            return !state.running
        }
        try? Syscall.signalEventFD(wake)
        return start
    }

    /// Sets the idle limit; the thread, if it runs, is told (one that has not started reads it
    /// when it does: a setting alone never starts an engine).
    func setIdleLimit(_ limit: Duration?) {
        let running = state.withLock { state in
            idleLimit.withLock { $0 = limit }
            if state.running { state.posted.append(.idleLimitChanged) }
            return state.running
        }
        if running { try? Syscall.signalEventFD(wake) }
    }

    /// Whether the thread was ever started.
    var isRunning: Bool { state.withLock { $0.running } }

    /// What was posted since the last call, in order.
    func take() -> [Posted] {
        _ = try? Syscall.drainEventFD(wake)
        return state.withLock { state in
            defer { state.posted.removeAll() }
            return state.posted
        }
    }
}

/// What an engine process's thread runs: it owns the ``EngineSupervisor``, the live process
/// and the jobs' handlers. It polls the process's output with the supervisor's deadline as the
/// timeout (the next hang check while a job is in flight, counted from its return to reading),
/// feeds frames, posted jobs and cancels, and due timers in (with the process's CPU time, read
/// from /proc as it returns to reading and as a timer falls due), and carries the effects out: spawning,
/// handing requests to the writer thread, killing, and the jobs' `onStart`, `onChunk` and `onEnd`,
/// which all run here, in order.
final class EngineLoop {
    /// The process alive now and what reads and writes it. A class, so that the loop's poll can
    /// hold it while a kill lets it go: its output's read end is closed when the last holder
    /// lets go, never while its number is still polled or read.
    private final class Child {
        let id: EngineProcessID
        let process: ChildProcess
        let output: OwnedDescriptor
        var decoder = EngineFrameDecoder()
        let writer: EngineRequestWriter

        init(id: EngineProcessID, process: ChildProcess, output: consuming OwnedDescriptor, writer: EngineRequestWriter) {
            self.id = id
            self.process = process
            self.output = output
            self.writer = writer
        }
    }

    /// A job handed to the engine and not ended.
    private struct Running {
        var job: SynthesisJob
        /// `onStart` threw: the job is cancelled in the engine and ends with this error.
        var startFailure: AudioOutputError?
        /// Samples handed to `onChunk`: where a sentence that comes next starts in the audio.
        var samples = 0
    }

    private let mailbox: EngineMailbox
    private let executable: String
    private let environment: [String: String]
    private let engine: EngineName
    private let onHealth: @Sendable (EngineHealth) -> Void
    private let onLog: @Sendable (String) -> Void
    /// The supervisor, fed through the one driver every shell uses (``EffectDriver``).
    private let driver: EffectDriver<EngineSupervisor>
    private var child: Child?
    private var jobs: [UInt32: Running] = [:]
    private var timer: MonotonicInstant?
    private var stopped = false
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    init(
        mailbox: EngineMailbox, executable: String, environment: [String: String], configuration: EngineSupervisor.Configuration,
        onHealth: @escaping @Sendable (EngineHealth) -> Void, onLog: @escaping @Sendable (String) -> Void
    ) {
        self.mailbox = mailbox
        self.executable = executable
        self.environment = environment
        self.engine = configuration.engine
        self.onHealth = onHealth
        self.onLog = onLog
        var configuration = configuration
        configuration.idleLimit = mailbox.idleLimit.withLock { $0 }
        self.driver = EffectDriver(EngineSupervisor(configuration: configuration))
    }

    /// Runs until the engine is shut down.
    func run() {
        while !stopped {
            var entries = [pollfd(fd: mailbox.wake, events: Int16(POLLIN), revents: 0)]
            let polled = child
            if let polled { entries.append(pollfd(fd: polled.output.rawValue, events: Int16(POLLIN), revents: 0)) }
            _ = try? Syscall.poll(&entries, timeoutMilliseconds: timeout())
            takePosted()
            if let polled, entries.count > 1, entries[1].revents != 0, child?.id == polled.id {
                readFrames(from: polled.id)
            }
            if let due = timer, MonotonicClock.now() >= due {
                feed(.timerFired(cpuTime: cpuTime()))
            }
        }
    }

    /// Milliseconds until the timer is due, rounded up (-1: no timer, wait for the engine or a post).
    private func timeout() -> Int32 {
        guard let due = timer else { return -1 }
        let left = MonotonicClock.remaining(until: due).nanosecondsClamped
        return Int32(clamping: (left + 999_999) / 1_000_000)
    }

    private func takePosted() {
        for posted in mailbox.take() {
            switch posted {
            case .submit(let engineJob, let job):
                jobs[engineJob.id] = Running(job: job)
                feed(.submit(engineJob))
            case .warmUp:
                feed(.warmUp)
            case .cancel(let id):
                feed(.cancel(job: id))
            case .idleLimitChanged:
                feed(.setIdleLimit(mailbox.idleLimit.withLock { $0 }))
            case .shutDown:
                feed(.shutDown)
                stopped = true
            }
        }
    }

    /// Reads what the process wrote and feeds its frames, each one's handlers run before the
    /// next (a cancel posted meanwhile is fed first); then says the shell reads again.
    private func readFrames(from id: EngineProcessID) {
        guard let current = child else { return }
        let count = buffer.withUnsafeMutableBytes { raw in (try? Syscall.read(current.output.rawValue, into: raw)) ?? 0 }
        if count <= 0 {
            feed(.failed(id, endReason(of: current.process)))
            return
        }
        let (frames, error) = current.decoder.decode(buffer[..<count])
        for frame in frames {
            takePosted()
            guard child?.id == id else { return }
            feed(.frame(id, frame))
        }
        guard child?.id == id else { return }
        if let error {
            feed(.failed(id, .malformed(error)))
            return
        }
        feed(.listening(id, cpuTime: cpuTime()))
    }

    /// The CPU time the process alive now has used (nil: none, or /proc could not be read),
    /// which the supervisor's hang checks compare.
    private func cpuTime() -> Duration? {
        guard let child else { return nil }
        return try? Syscall.processCPUTime(child.process.pid)
    }

    /// Why the process's output ended: how it ended, once reaped (it closed its output by
    /// exiting, almost always), or that it closed its output and still runs.
    private func endReason(of process: ChildProcess) -> EngineFault {
        let deadline = MonotonicClock.now() + .milliseconds(500)
        while MonotonicClock.now() < deadline {
            if let ended = try? process.poll() { return .ended("\(ended)") }
            usleep(1_000)
        }
        return .closedOutput
    }

    /// Feeds `input` and whatever carrying out its effects feeds back (a failed spawn, a
    /// handler that cancels), each after the effects before it.
    private func feed(_ input: EngineSupervisorInput) {
        driver.feed(input) { effect in
            if let more = carryOut(effect) { feed(more) }
        }
    }

    private func carryOut(_ effect: EngineSupervisorEffect) -> EngineSupervisorInput? {
        switch effect {
        case .spawn(let id):
            return spawn(id)
        case .write(let id, let request):
            if let child, child.id == id { child.writer.send(request.line) }
        case .kill(let id):
            guard let current = child, current.id == id else { return nil }
            child = nil
            current.writer.close()
            _ = try? current.process.kill()
            // Its output's read end goes with the last holder of `current`.
        case .begin(let id, _):
            guard let running = jobs[id] else { return nil }
            do {
                try running.job.onStart()
            } catch {
                jobs[id]?.startFailure = error
                return .cancel(job: id)
            }
        case .sentence(let id, let offset):
            guard let running = jobs[id], running.startFailure == nil else { return nil }
            running.job.onSentence(SynthesisJob.Sentence(offset: offset, sample: running.samples))
        case .audio(let id, let samples):
            guard let running = jobs[id], running.startFailure == nil else { return nil }
            jobs[id]?.samples += samples.count
            if !running.job.onChunk(samples) { return .cancel(job: id) }
        case .end(let id, let end):
            guard let running = jobs.removeValue(forKey: id) else { return nil }
            running.job.onEnd(outcome(end, startFailure: running.startFailure))
        case .health(let health):
            mailbox.health.withLock { $0 = health }
            onHealth(health)
        case .log(let line):
            onLog(line)
        case .setTimer(let due):
            timer = due
        case .cancelTimer:
            timer = nil
        }
        return nil
    }

    /// Starts `ENGINE --serve` with pipes, its writer and its standard error's relay.
    private func spawn(_ id: EngineProcessID) -> EngineSupervisorInput? {
        let piped: PipedChild
        do {
            piped = try PipedChild.start(executable, ["--serve"], environment: environment)
        } catch {
            return .failed(id, .couldNotStart("\(error)"))
        }
        // The writer's and the relay's threads own the ends they are handed, and close them.
        let writer = EngineRequestWriter(descriptor: piped.input.take(), name: "\(engine).requests")
        EngineLogRelay.start(descriptor: piped.error.take(), name: "\(engine).stderr", onLine: onLog)
        child = Child(id: id, process: piped.process, output: piped.output, writer: writer)
        return nil
    }

    private func outcome(_ end: EngineJobEnd, startFailure: AudioOutputError?) -> SynthesisJob.Outcome {
        // The output could not begin the utterance: whatever became of the job, that is its end.
        if let startFailure { return .outputFailed(startFailure) }
        switch end {
        case .completed(let samples): return .completed(samples: samples)
        case .cancelled(let samples): return .cancelled(samples: samples)
        case .skipped: return .skipped
        case .refused(let message): return .failed(.refused(engine: engine, message: message))
        case .engineFailed(let reason, let remainder):
            return .engineFailed(EngineFailure(engine: engine, reason: reason, remainder: remainder))
        }
    }
}
