import NarratorBase
@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// What a hang is: a silent engine is checked every hang bound against its CPU time. One that
/// computes (a long clause on a loaded machine) is waited for; one that is stopped, deadlocked or
/// blocked is given up at the bound; one that loops is given up past the CPU bound; no silence
/// lasts past the cap.
@Suite struct EngineSupervisorHangTests {
    typealias H = SupervisorHarness
    static let text = "First sentence. Second sentence."
    static let piper = EngineSupervisor.Configuration(engine: .piper, hangBound: .seconds(2), startBound: .seconds(10))

    /// A ready engine that has begun `text`'s second sentence and now computes in silence at
    /// `cpuPercent` of a core, the silence starting at the harness's `now`.
    static func silent(cpuPercent: Int, configuration: EngineSupervisor.Configuration = H.configuration) -> (H, job: EngineJob) {
        var h = H(configuration: configuration)
        h.startServing()
        let (job, _) = h.submit(text)
        h.engineWrites(.begin(job: job.id, sampleRate: 16000), .sentence(job: job.id, offset: 16), .audio(job: job.id, samples: [1, 2]))
        h.cpuPercent = cpuPercent
        return (h, job)
    }

    @Test("an engine computing past the bound (a tenth of a core: a loaded machine) is checked again each bound, and its frames then arrive as usual")
    func busyEngineSurvives() {
        var (h, job) = Self.silent(cpuPercent: 10)
        let start = h.now
        #expect(h.advance(by: .milliseconds(999)) == [])
        #expect(h.advance(by: .milliseconds(1)) == [.setTimer(start + .seconds(2))], "computing: checked again a bound later")
        #expect(h.advance(by: .milliseconds(1_500)) == [.setTimer(start + .seconds(3))])
        let p = h.process
        let rest = h.engineWrites(.audio(job: job.id, samples: [3, 4, 5]), .end(job: job.id, cancelled: false))
        #expect(rest == [.audio(job: job.id, samples: [3, 4, 5]), .cancelTimer, .end(job: job.id, .completed(samples: 5))])
        #expect(h.supervisor.health == .ready)
        #expect(h.supervisor.process == p)
        #expect(!h.history.contains(.kill(p)))
    }

    @Test("Piper's longest clause beside four busy processes (4.9 s of silence, a fifth of a core) is waited for under its 2 s bound")
    func loadedPiperClause() {
        var (h, job) = Self.silent(cpuPercent: 20, configuration: Self.piper)
        let start = h.now
        #expect(h.advance(by: .milliseconds(4_900)) == [.setTimer(start + .seconds(4)), .setTimer(start + .seconds(6))])
        let audio = h.engineWrites(.sentence(job: job.id, offset: 16), .audio(job: job.id, samples: [7]))
        #expect(audio == [.sentence(job: job.id, offset: 16), .cancelTimer, .audio(job: job.id, samples: [7]), .setTimer(h.now + .seconds(2))])
        #expect(h.supervisor.health == .ready)
    }

    @Test("a stopped engine is given up at the bound; so is one using less than 5 % of a core, and not one using 5 %")
    func stoppedEngineAtTheBound() {
        for percent in [0, 4] {
            var (h, job) = Self.silent(cpuPercent: percent)
            let p = h.process
            #expect(h.advance(by: .milliseconds(999)) == [])
            #expect(h.advance(by: .milliseconds(1)) == [
                .kill(p), .health(.restarting(reason: "did not answer for 1 s", attempt: 1)),
                .end(job: job.id, .engineFailed(reason: "did not answer for 1 s", remainder: "Second sentence.")),
                .spawn(EngineProcessID(p.rawValue + 1)), .setTimer(h.now + .seconds(10)),
            ], "at \(percent) %")
        }
        var (h, _) = Self.silent(cpuPercent: 5)
        #expect(h.advance(by: .seconds(1)) == [.setTimer(h.now + .seconds(1))])
    }

    @Test("an engine that computed and then stopped is given up at the first check whose bound it spent stopped")
    func busyThenStopped() {
        var (h, job) = Self.silent(cpuPercent: 30)
        let p = h.process
        #expect(h.advance(by: .milliseconds(2_500)).count == 2, "two checks passed")
        h.cpuPercent = 0
        #expect(h.advance(by: .milliseconds(500)) == [.setTimer(h.now + .seconds(1))], "it computed for half of the third bound")
        let effects = h.advance(by: .seconds(1))
        #expect(effects.prefix(3) == [
            .kill(p), .health(.restarting(reason: "did not answer for 4 s", attempt: 1)),
            .end(job: job.id, .engineFailed(reason: "did not answer for 4 s", remainder: "Second sentence.")),
        ])
    }

    @Test("an engine looping without a frame is given up at the first check past its CPU bound (4 hang bounds of CPU time)")
    func runawayLoop() {
        var (h, job) = Self.silent(cpuPercent: 100)
        let p = h.process
        #expect(h.advance(by: .seconds(4)).count == 4, "4 s of CPU time is within the bound")
        let effects = h.advance(by: .seconds(1))
        #expect(effects.prefix(3) == [
            .kill(p), .health(.restarting(reason: "used 4 s of CPU time without answering", attempt: 1)),
            .end(job: job.id, .engineFailed(reason: "used 4 s of CPU time without answering", remainder: "Second sentence.")),
        ])

        var (twoThreads, _) = Self.silent(cpuPercent: 200)
        let looping = twoThreads.process
        #expect(twoThreads.advance(by: .seconds(2)).count == 2)
        #expect(twoThreads.advance(by: .seconds(1)).prefix(2) == [
            .kill(looping), .health(.restarting(reason: "used 4 s of CPU time without answering", attempt: 1)),
        ], "two cores' worth passes the bound at 3 s")
    }

    @Test("no silence lasts past 15 s, whatever the CPU time says; a hang bound longer than that is not cut")
    func silenceCap() {
        var (h, job) = Self.silent(cpuPercent: 20, configuration: Self.piper)
        let start = h.now
        let p = h.process
        let checks = h.advance(by: .seconds(14))
        #expect(checks == [4, 6, 8, 10, 12, 14, 15].map { .setTimer(start + .seconds($0)) }, "the last check is at the cap")
        #expect(h.advance(by: .milliseconds(999)) == [])
        #expect(h.advance(by: .milliseconds(1)).prefix(3) == [
            .kill(p),
            .health(.restarting(reason: "did not answer for 15 s", attempt: 1)),
            .end(job: job.id, .engineFailed(reason: "did not answer for 15 s", remainder: "Second sentence.")),
        ])

        var long = H(configuration: .init(engine: .flite, hangBound: .seconds(120), startBound: .seconds(10)))
        long.startServing()
        long.submit("Slow.")
        #expect(long.timer == long.now + .seconds(120))
    }

    @Test("when the CPU time cannot be read, the bound is one of wall time, as before")
    func unreadableCPUTime() {
        var (h, job) = Self.silent(cpuPercent: 50)
        h.cpu = nil
        #expect(h.advance(by: .milliseconds(999)) == [])
        #expect(h.advance(by: .milliseconds(1)).ends == [job.id: .engineFailed(reason: "did not answer for 1 s", remainder: "Second sentence.")])

        var (late, lateJob) = Self.silent(cpuPercent: 50)
        #expect(late.advance(by: .seconds(1)) == [.setTimer(late.now + .seconds(1))])
        late.cpu = nil
        #expect(late.advance(by: .seconds(1)).ends == [lateJob.id: .engineFailed(reason: "did not answer for 2 s", remainder: "Second sentence.")],
                "read at the first check, not at the second")
    }

    @Test("a check that fires late judges the time since the last reading and keeps its schedule")
    func lateCheck() {
        var (h, _) = Self.silent(cpuPercent: 10)
        let start = h.now
        let p = h.process
        h.now = start + .milliseconds(2_300)
        h.cpu = .milliseconds(230)
        #expect(h.feed(.timerFired(cpuTime: h.cpu)) == [.setTimer(start + .seconds(3))])
        h.now = start + .seconds(3)
        #expect(h.feed(.timerFired(cpuTime: .milliseconds(260))).first == .kill(p), "30 ms in 700 ms is under 5 %")
    }
}
