import NarratorBase
@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// One ``EngineSupervisor`` on a virtual clock, the shell's part played by the test: it feeds
/// frames as an engine would write them (each read followed by the shell's return to reading),
/// moves the clock and fires the timer when it falls due, and keeps every effect in order. The
/// engine's CPU time grows with the clock at ``cpuPercent`` of a core, and is what the shell
/// reads whenever it returns to reading or the timer fires.
struct SupervisorHarness {
    static let configuration = EngineSupervisor.Configuration(engine: .flite, hangBound: .seconds(1), startBound: .seconds(10))
    static let listing = EngineListing(
        engine: "flite", version: "2.2",
        voices: [.init(name: "slt", languages: ["en-us", "en"], gender: .female, sampleRate: 16000)])

    var supervisor: EngineSupervisor
    var now = MonotonicInstant(nanoseconds: 10_000_000_000)
    /// The engine's CPU time now, as the shell would read it (nil: /proc could not be read).
    var cpu: Duration? = .zero
    /// How much of one core the engine uses while the clock moves: 0 stopped or waiting, 100 a
    /// loop on one thread.
    var cpuPercent = 0
    /// The timer the supervisor set and that has not fired.
    private(set) var timer: MonotonicInstant?
    private(set) var history: [EngineSupervisorEffect] = []
    private var nextJob: UInt32 = 1

    init(configuration: EngineSupervisor.Configuration = SupervisorHarness.configuration) {
        supervisor = EngineSupervisor(configuration: configuration)
    }

    /// The process the supervisor runs now (the test's engine).
    var process: EngineProcessID {
        guard let process = supervisor.process else {
            Issue.record("no process is running")
            return EngineProcessID(0)
        }
        return process
    }

    @discardableResult
    mutating func feed(_ input: EngineSupervisorInput) -> [EngineSupervisorEffect] {
        if case .timerFired = input { timer = nil }
        let effects = supervisor.handle(input, at: now)
        history += effects
        for effect in effects {
            if case .setTimer(let at) = effect { timer = at }
            if case .cancelTimer = effect { timer = nil }
        }
        return effects
    }

    /// The next job, numbered as the shell numbers them (from 1).
    mutating func job(_ text: String, voice: String = "slt") -> EngineJob {
        defer { nextJob += 1 }
        return EngineJob(id: nextJob, text: text, voice: voice)
    }

    /// Submits a new job; returns it and the effects.
    @discardableResult
    mutating func submit(_ text: String) -> (EngineJob, [EngineSupervisorEffect]) {
        let job = job(text)
        return (job, feed(.submit(job)))
    }

    /// The engine writes `frames` in one go: the shell handles each, then reads on.
    @discardableResult
    mutating func engineWrites(_ frames: EngineFrame...) -> [EngineSupervisorEffect] {
        let process = process
        var effects: [EngineSupervisorEffect] = []
        for frame in frames { effects += feed(.frame(process, frame)) }
        if supervisor.process == process { effects += feed(.listening(process, cpuTime: cpu)) }
        return effects
    }

    /// The engine finishes loading and says it is ready.
    @discardableResult
    mutating func ready() -> [EngineSupervisorEffect] {
        engineWrites(.ready(Self.listing))
    }

    /// Starts the engine with a first job and has it served completely: the scenario begins
    /// with a ready engine and an empty history.
    mutating func startServing() {
        let (job, _) = submit("Warm up.")
        ready()
        engineWrites(.begin(job: job.id, sampleRate: 16000), .sentence(job: job.id, offset: 0), .audio(job: job.id, samples: [1]), .end(job: job.id, cancelled: false))
        history = []
    }

    /// Moves the clock on by `duration`, firing the timer at each instant it falls due.
    @discardableResult
    mutating func advance(by duration: Duration) -> [EngineSupervisorEffect] {
        let end = now + duration
        var effects: [EngineSupervisorEffect] = []
        while let due = timer, due <= end {
            move(to: max(now, due))
            effects += feed(.timerFired(cpuTime: cpu))
        }
        move(to: end)
        return effects
    }

    /// Moves the clock to `instant`, the engine using CPU meanwhile at its pace.
    private mutating func move(to instant: MonotonicInstant) {
        cpu = cpu.map { $0 + (instant - now) * cpuPercent / 100 }
        now = instant
    }
}

extension Array where Element == EngineSupervisorEffect {
    /// The requests written, in order.
    var writes: [EngineRequest] {
        compactMap { if case .write(_, let request) = $0 { request } else { nil } }
    }

    /// The jobs' ends, in order.
    var ends: [UInt32: EngineJobEnd] {
        var ends: [UInt32: EngineJobEnd] = [:]
        for case .end(let job, let end) in self { ends[job] = end }
        return ends
    }
}
