import NarratorBase

/// The life of one engine process (Flite, Piper), as a value in the style of the daemon's `Session`: it
/// decides when the process is started, which job is written to it and when, what its frames
/// mean for each job, and when it is given up and started again; the shell (`EngineProcess`)
/// spawns, writes, reads and kills, and calls the jobs' handlers, as the effects say.
///
/// Nothing starts until the first job. Jobs are served one at a time in submission order: a job
/// is written as a `speak` request only when the one before it ended. A process that crashes
/// there) or hangs (see below; or no ready frame within ``Configuration/startBound``) is killed; the job in flight
/// fails with the text from its last sentence on, the queued jobs fail whole, so that the
/// fallback engine speaks them now, and a new process is started at once, then after 1 s, 2 s,
/// 4 s … at most 30 s while it keeps failing. Until the new one is ready, a job fails as soon as
/// it is submitted: nobody waits on an engine that is not there. The count of failures starts
/// again once the engine has served a job, so an engine that gets ready but fails on every job
/// still backs off.
///
/// A ready engine with no job in flight or queued for ``Configuration/idleLimit`` since it got
/// ready or ended its last job is stopped (killed, its health ``EngineHealth/idle``): Piper holds
/// hundreds of MiB for nothing otherwise. The next job or warm-up starts it again as the first did.
///
/// A job in flight whose engine writes nothing while the shell reads is checked every
/// ``Configuration/hangBound`` of that silence, against the CPU time the engine has used (the
/// shell reads it as it returns to reading and when the check is due). It is hung when over the
/// last hang bound its CPU time advanced by less than 5 % of that wall time (stopped,
/// deadlocked, blocked), or when it has used more than ``Configuration/cpuBound`` since the
/// silence began (a loop that never writes), or when the silence reaches
/// ``Configuration/silenceCap``. Otherwise it is computing, slowly on a loaded machine: the next
/// check is one hang bound later. When the CPU time cannot be read the first check gives it up,
/// as a bound of wall time.
///
/// Driven by typed inputs only (``EngineSupervisorInput``), each with its instant on the
/// monotonic clock; it acts only by returning effects (``EngineSupervisorEffect``). No
/// processes, pipes, threads or clocks: every fault runs in a test on a virtual clock.
public struct EngineSupervisor: Sendable {
    /// The engine's bounds and delays.
    public struct Configuration: Sendable, Hashable {
        /// The engine's name (``EngineName/flite``), which its failures name.
        public var engine: EngineName
        /// How long a job in flight may go without a frame while narratord reads before the
        /// engine's CPU time is checked, and again between checks: longer than the engine needs
        /// to synthesize a sentence on idle cores (docs/engine-protocol.md: Flite 1 s, Piper 2 s),
        /// and as long as a stopped engine holds a listener.
        public var hangBound: Duration
        /// The most CPU time an engine may use in one silence: past it, it is looping, not
        /// synthesizing. Four hang bounds unless set.
        public var cpuBound: Duration
        /// The longest silence, whatever the CPU time says (never shorter than the hang bound).
        public var silenceCap: Duration = .seconds(15)
        /// How long a process may take from its spawn to its ready frame (its model loaded).
        public var startBound: Duration
        /// The wait before the second start in a row that follows a failure (the first is at once).
        public var firstRetryDelay: Duration = .seconds(1)
        /// The longest wait between two starts (the wait doubles up to it).
        public var longestRetryDelay: Duration = .seconds(30)
        /// How long a ready engine may go unused (no job in flight or queued) before it is
        /// stopped, to be started again by its next job; nil keeps it running.
        public var idleLimit: Duration?

        public init(engine: EngineName, hangBound: Duration, startBound: Duration) {
            self.engine = engine
            self.hangBound = hangBound
            self.cpuBound = hangBound * 4
            self.startBound = startBound
        }
    }

    enum Phase: Sendable, Hashable {
        /// No job has come yet: no process.
        case notStarted
        /// The process was spawned at `since` and its ready frame has not come.
        case starting(EngineProcessID, since: MonotonicInstant)
        /// The process is ready: it serves jobs.
        case ready(EngineProcessID)
        /// The last process was given up; the next is spawned at `until`.
        case waiting(until: MonotonicInstant)
        /// Shut down: no process, and none will be.
        case stopped

        var process: EngineProcessID? {
            switch self {
            case .starting(let process, _), .ready(let process): process
            case .notStarted, .waiting, .stopped: nil
            }
        }
    }

    /// The engine's silence while a job is in flight and the shell reads, as the hang checks see it.
    struct Silence: Sendable, Hashable {
        /// The later of the shell's last return to reading and the last `speak` written.
        var since: MonotonicInstant
        /// The engine's CPU time then (nil: not read).
        var cpuAtStart: Duration?
        /// The last check (at first, the start) and the CPU time read then.
        var checkedAt: MonotonicInstant
        var cpuAtCheck: Duration?
        /// When the next check is due.
        var due: MonotonicInstant

        init(since: MonotonicInstant, cpu: Duration?, hangBound: Duration) {
            self.since = since
            cpuAtStart = cpu
            checkedAt = since
            cpuAtCheck = cpu
            due = since + hangBound
        }
    }

    /// The job written to the process, until its end.
    struct InFlight: Sendable, Hashable {
        var job: EngineJob
        /// Its `B` frame came.
        var begun = false
        /// Its `begin` effect was given (its `B` came before any cancel): its end is then
        /// `cancelled`, not `skipped`, when it is cut.
        var started = false
        /// The offset of its last `S` frame.
        var sentence: Int?
        /// Samples handed over in `audio` effects.
        var samples = 0
        /// A `cancel` request was written: its frames are dropped until its end.
        var cancelled = false

        /// How the job ends when it is cut short (cancelled, or the engine stopped).
        var cutEnd: EngineJobEnd { started ? .cancelled(samples: samples) : .skipped }
    }

    /// The bounds and delays; the idle limit changes with ``EngineSupervisorInput/setIdleLimit(_:)``.
    public private(set) var configuration: Configuration
    public private(set) var health: EngineHealth = .notStarted
    var phase: Phase = .notStarted
    /// Jobs not written yet, in submission order.
    var queue: [EngineJob] = []
    var inFlight: InFlight?
    /// Failures in a row: the attempt a restart is, and how long it waits.
    var failures = 0
    /// Why the engine was last given up (what a job submitted while it restarts fails with).
    var lastFault: EngineFault?
    /// Whether the shell is reading the process's output (not inside a frame's handlers).
    var reading = true
    /// The engine's silence, which counts towards the hang checks while a job is in flight and
    /// the shell reads.
    var silence = Silence(since: MonotonicInstant(nanoseconds: 0), cpu: nil, hangBound: .zero)
    /// The CPU time of the process alive now, as the shell last read it (nil: not read yet).
    var lastCPU: Duration?
    /// When the ready engine was last used: it got ready, or ended a job. The idle limit counts from it.
    var lastUse = MonotonicInstant(nanoseconds: 0)
    private var nextProcess: UInt64 = 1
    private var timer: MonotonicInstant?
    private var effects: [EngineSupervisorEffect] = []
    private var now = MonotonicInstant(nanoseconds: 0)

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The process alive now, if any.
    public var process: EngineProcessID? { phase.process }

    /// The ids of the jobs not ended yet, the one in flight first.
    public var pendingJobs: [UInt32] { (inFlight.map { [$0.job.id] } ?? []) + queue.map(\.id) }

    /// Takes one input at `now` and returns what to do about it, in order.
    public mutating func handle(_ input: EngineSupervisorInput, at now: MonotonicInstant) -> [EngineSupervisorEffect] {
        self.now = max(self.now, now)
        effects = []
        switch input {
        case .submit(let job):
            submit(job)
        case .warmUp:
            if phase == .notStarted {
                setHealth(.starting)
                spawn()
            }
        case .cancel(let id):
            cancel(id)
        case .frame(let process, let frame):
            guard process == phase.process else { break }
            reading = false
            take(frame, from: process)
        case .listening(let process, let cpu):
            guard process == phase.process else { break }
            reading = true
            lastCPU = cpu
            beginSilence()
        case .failed(let process, let fault):
            guard process == phase.process else { break }
            giveUp(fault)
        case .timerFired(let cpu):
            timer = nil
            timerFired(cpu: cpu)
        case .setIdleLimit(let limit):
            configuration.idleLimit = limit
        case .shutDown:
            shutDown()
        }
        updateTimer()
        return effects
    }

    private mutating func submit(_ job: EngineJob) {
        switch phase {
        case .stopped:
            effects.append(.end(job: job.id, .skipped))
        case _ where !health.serves:
            // Restarting: the fallback speaks it now rather than after an unknown wait.
            effects.append(.end(job: job.id, .engineFailed(reason: lastFault?.description ?? "", remainder: job.text)))
        case .notStarted:
            queue.append(job)
            setHealth(.starting)
            spawn()
        case .starting, .ready, .waiting:
            queue.append(job)
            serveNext()
        }
    }

    private mutating func cancel(_ id: UInt32) {
        if let index = queue.firstIndex(where: { $0.id == id }) {
            queue.remove(at: index)
            effects.append(.end(job: id, .skipped))
            return
        }
        guard var job = inFlight, job.job.id == id, !job.cancelled, let process = phase.process else { return }
        job.cancelled = true
        inFlight = job
        effects.append(.write(process, .cancel(job: id)))
    }

    /// Writes the next queued job when the process is ready and idle.
    private mutating func serveNext() {
        guard case .ready(let process) = phase, inFlight == nil, !queue.isEmpty else { return }
        let job = queue.removeFirst()
        inFlight = InFlight(job: job)
        beginSilence()
        effects.append(.write(process, job.request))
    }

    private mutating func take(_ frame: EngineFrame, from process: EngineProcessID) {
        if case .log(let line) = frame {
            effects.append(.log(line))
            return
        }
        if case .starting = phase {
            guard case .ready = frame else {
                giveUp(.brokeProtocol("sent \(Self.name(frame)) before its ready frame"))
                return
            }
            phase = .ready(process)
            lastUse = now
            setHealth(.ready)
            serveNext()
            return
        }
        guard var job = inFlight, frame.job == job.job.id else {
            let what = inFlight.map { "job \($0.job.id) was" } ?? "no job was"
            giveUp(.brokeProtocol("sent \(Self.name(frame)) while \(what) in flight"))
            return
        }
        let id = job.job.id
        switch frame {
        case .ready, .log:
            giveUp(.brokeProtocol("sent \(Self.name(frame)) while job \(id) was in flight"))
        case .begin(_, let rate):
            guard !job.begun else {
                giveUp(.brokeProtocol("began job \(id) twice"))
                return
            }
            job.begun = true
            job.started = !job.cancelled
            inFlight = job
            if job.started { effects.append(.begin(job: id, sampleRate: rate)) }
        case .sentence(_, let offset):
            guard job.begun else {
                giveUp(.brokeProtocol("sent a sentence of job \(id) before beginning it"))
                return
            }
            job.sentence = offset
            inFlight = job
            // Heard as its audio is: where the listener is, for what goes on after a cut.
            if job.started && !job.cancelled { effects.append(.sentence(job: id, offset: offset)) }
        case .audio(_, let samples):
            guard job.begun else {
                giveUp(.brokeProtocol("sent audio of job \(id) before beginning it"))
                return
            }
            guard !job.cancelled else { return }
            job.samples += samples.count
            inFlight = job
            effects.append(.audio(job: id, samples: samples))
        case .end(_, let cancelled):
            if job.cancelled {
                finish(job.cutEnd)
            } else if !job.begun {
                giveUp(.brokeProtocol("ended job \(id) without beginning it"))
            } else {
                finish(cancelled ? .cancelled(samples: job.samples) : .completed(samples: job.samples))
            }
        case .failed(_, let message):
            if job.cancelled {
                finish(job.cutEnd)
            } else {
                finish(.refused(message))
            }
        }
    }

    /// The job in flight ended by the engine's own frame: the engine has served a job, so the
    /// failures before it are forgotten.
    private mutating func finish(_ end: EngineJobEnd) {
        guard let job = inFlight else { return }
        inFlight = nil
        failures = 0
        lastUse = now
        effects.append(.end(job: job.job.id, end))
        serveNext()
    }

    private mutating func timerFired(cpu: Duration?) {
        switch phase {
        case .starting(_, let since) where now >= since + configuration.startBound:
            giveUp(.notReady(configuration.startBound))
        case .ready where inFlight != nil && reading && now >= silence.due:
            checkSilence(cpu: cpu)
        case .ready(let process) where idleDeadline.map { now >= $0 } ?? false:
            stopIdle(process)
        case .waiting(let until) where now >= until:
            spawn()
        default:
            // A fire for a deadline that moved (a frame came meanwhile): the timer is set again.
            break
        }
    }

    /// From now on the engine is silent (a `speak` written, or the shell reading again), its CPU
    /// time as last read.
    private mutating func beginSilence() {
        silence = Silence(since: now, cpu: lastCPU, hangBound: configuration.hangBound)
    }

    /// A hang check is due: the engine is given up unless it used CPU time in the last hang bound
    /// (5 % of it at least), within the CPU bound, and the silence is short of its cap.
    private mutating func checkSilence(cpu: Duration?) {
        if let cpu { lastCPU = cpu }
        let silent = silence.due - silence.since
        let cap = max(configuration.silenceCap, configuration.hangBound)
        guard let cpu, let atCheck = silence.cpuAtCheck, let atStart = silence.cpuAtStart else {
            // Without the CPU time the bound is one of wall time.
            giveUp(.hung(silent))
            return
        }
        if silent >= cap {
            giveUp(.hung(silent))
        } else if cpu - atStart > configuration.cpuBound {
            giveUp(.runaway(configuration.cpuBound))
        } else if (cpu - atCheck) * Self.leastCPUShare < now - silence.checkedAt {
            giveUp(.hung(silent))
        } else {
            silence.checkedAt = now
            silence.cpuAtCheck = cpu
            var next = silence.due + configuration.hangBound
            while next <= now { next = next + configuration.hangBound }
            silence.due = min(next, silence.since + cap)
        }
    }

    /// An engine that used less than 1/20 of a check's wall time in CPU is not computing.
    static let leastCPUShare = 20

    /// Kills the process, ends its jobs for the fallback, and starts another (at once after
    /// one failure, later after more).
    private mutating func giveUp(_ fault: EngineFault) {
        guard let process = phase.process else { return }
        effects.append(.kill(process))
        failures += 1
        lastFault = fault
        let reason = fault.description
        setHealth(.restarting(reason: reason, attempt: failures))
        if let job = inFlight {
            inFlight = nil
            let end: EngineJobEnd
            if job.cancelled {
                end = job.cutEnd
            } else {
                end = .engineFailed(reason: reason, remainder: job.sentence.map { job.job.remainder(from: $0) } ?? job.job.text)
            }
            effects.append(.end(job: job.job.id, end))
        }
        for job in queue { effects.append(.end(job: job.id, .engineFailed(reason: reason, remainder: job.text))) }
        queue.removeAll()
        let delay = retryDelay(after: failures)
        if delay == .zero {
            spawn()
        } else {
            phase = .waiting(until: now + delay)
        }
    }

    /// No wait after one failure; then the first delay, doubling up to the longest.
    func retryDelay(after failures: Int) -> Duration {
        guard failures > 1 else { return .zero }
        var delay = configuration.firstRetryDelay
        for _ in 2..<failures where delay < configuration.longestRetryDelay { delay *= 2 }
        return min(delay, configuration.longestRetryDelay)
    }

    private mutating func spawn() {
        let process = EngineProcessID(nextProcess)
        nextProcess += 1
        phase = .starting(process, since: now)
        reading = true
        lastCPU = nil
        effects.append(.spawn(process))
    }

    /// When the ready engine counts as unused long enough to stop: nil while it has a job, or
    /// without an idle limit.
    private var idleDeadline: MonotonicInstant? {
        guard case .ready = phase, inFlight == nil, queue.isEmpty, let limit = configuration.idleLimit else { return nil }
        return lastUse + limit
    }

    /// Stops the unused engine: it is as before its first job, and the next one starts it again.
    /// No failure: its count and the reason of the last are kept as they were.
    private mutating func stopIdle(_ process: EngineProcessID) {
        effects.append(.kill(process))
        phase = .notStarted
        setHealth(.idle)
    }

    private mutating func shutDown() {
        if let process = phase.process { effects.append(.kill(process)) }
        if let job = inFlight {
            effects.append(.end(job: job.job.id, job.cutEnd))
        }
        for job in queue { effects.append(.end(job: job.id, .skipped)) }
        inFlight = nil
        queue.removeAll()
        phase = .stopped
    }

    private mutating func setHealth(_ new: EngineHealth) {
        guard new != health else { return }
        health = new
        effects.append(.health(new))
    }

    /// The one deadline that matters now: the start bound, the next hang check (only while a job
    /// is in flight and the shell reads), the idle limit (while none is), or the next start.
    private var deadline: MonotonicInstant? {
        switch phase {
        case .starting(_, let since): since + configuration.startBound
        case .ready where inFlight != nil && reading: silence.due
        case .ready: idleDeadline
        case .waiting(let until): until
        case .notStarted, .stopped: nil
        }
    }

    private mutating func updateTimer() {
        let wanted = deadline
        guard wanted != timer else { return }
        timer = wanted
        effects.append(wanted.map { .setTimer($0) } ?? .cancelTimer)
    }

    /// "frame 'B' for job 3", for the journal.
    static func name(_ frame: EngineFrame) -> String {
        let letter = EngineFrameError.describe(frame.type)
        return frame.job == 0 ? "frame \(letter)" : "frame \(letter) for job \(frame.job)"
    }
}
