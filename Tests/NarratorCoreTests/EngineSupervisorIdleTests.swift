import NarratorBase
@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// An engine nobody uses gives its memory back: once ready with no job in flight or queued for
/// its idle limit (the `engine-idle` setting), its process is stopped, and the next job or
/// warm-up starts it again as the first did. Piper holds hundreds of MiB otherwise.
@Suite struct EngineSupervisorIdleTests {
    typealias H = SupervisorHarness

    /// The harness's configuration with an idle limit of `seconds`.
    static func idle(_ seconds: Int64) -> EngineSupervisor.Configuration {
        var configuration = H.configuration
        configuration.idleLimit = .seconds(seconds)
        return configuration
    }

    func speak(_ job: EngineJob) -> EngineRequest {
        .speak(job: job.id, text: job.text, voice: job.voice, rate: 175, pitch: 50, volume: 100)
    }

    @Test("unused for the idle limit after its last job, the engine is stopped; the next job starts a new one as the first did")
    func stoppedWhenUnusedAndStartedAgain() {
        var h = H(configuration: Self.idle(60))
        h.startServing()
        let first = h.process
        #expect(h.timer == h.now + .seconds(60), "the idle limit counts from the job's end")
        #expect(h.advance(by: .seconds(59)) == [])
        #expect(h.advance(by: .seconds(1)) == [.kill(first), .health(.idle)])
        #expect(h.supervisor.process == nil)
        #expect(h.supervisor.health == .idle && h.supervisor.health.serves, "an idle engine still takes jobs")
        #expect(h.advance(by: .seconds(3600)) == [], "stopped, nothing more happens")

        let (job, submitted) = h.submit("Hello again.")
        let second = EngineProcessID(2)
        #expect(submitted == [.health(.starting), .spawn(second), .setTimer(h.now + .seconds(10))], "started again, the job held until it is ready")
        let ready = h.ready()
        #expect(ready == [.health(.ready), .write(second, speak(job)), .cancelTimer, .setTimer(h.now + .seconds(1))])
        let ended = h.engineWrites(.begin(job: job.id, sampleRate: 16000), .audio(job: job.id, samples: [1, 2]), .end(job: job.id, cancelled: false))
        #expect(ended.ends == [job.id: .completed(samples: 2)])
        #expect(h.timer == h.now + .seconds(60))
        #expect(h.advance(by: .seconds(60)) == [.kill(second), .health(.idle)], "and stopped again once unused")
    }

    @Test("a job in flight or queued keeps the engine however long it takes; the limit counts from the last job's end")
    func busyIsNotIdle() {
        var h = H(configuration: Self.idle(5))
        h.startServing()
        let process = h.process
        let (long, _) = h.submit("A long text.")
        let (next, _) = h.submit("Then this.")
        h.engineWrites(.begin(job: long.id, sampleRate: 16000))
        // Twenty seconds of audio, a frame each half second: four times the limit.
        for _ in 0..<40 {
            h.advance(by: .milliseconds(500))
            h.engineWrites(.audio(job: long.id, samples: [1]))
        }
        let written = h.engineWrites(.end(job: long.id, cancelled: false))
        #expect(written.writes == [speak(next)], "the queued job follows")
        // Ten silent seconds computing the next one (a fifth of a core: no hang).
        h.cpuPercent = 20
        h.advance(by: .seconds(10))
        h.cpuPercent = 0
        h.engineWrites(.begin(job: next.id, sampleRate: 16000), .end(job: next.id, cancelled: false))
        let ended = h.now
        #expect(h.advance(by: .milliseconds(4999)) == [])
        #expect(h.advance(by: .milliseconds(1)) == [.kill(process), .health(.idle)])
        #expect(h.now == ended + .seconds(5))
        #expect(h.history.filter { $0 == .kill(process) }.count == 1, "killed once, when idle, never while busy")
    }

    @Test("an engine warmed up and never given a job is stopped once the limit passes from its ready frame; a warm-up starts it again")
    func warmedUpButUnused() {
        var h = H(configuration: Self.idle(30))
        h.feed(.warmUp)
        h.advance(by: .seconds(2))
        let readyAt = h.now
        #expect(h.ready() == [.health(.ready), .setTimer(readyAt + .seconds(30))], "the start bound gives way to the idle limit")
        #expect(h.advance(by: .seconds(30)) == [.kill(EngineProcessID(1)), .health(.idle)])
        #expect(h.feed(.warmUp) == [.health(.starting), .spawn(EngineProcessID(2)), .setTimer(h.now + .seconds(10))])
    }

    @Test("the limit changes live: none keeps the engine; a limit set after a long silence stops it at once; none again cancels the stop")
    func limitChangedLive() {
        var h = H()
        h.startServing()
        let process = h.process
        let lastUse = h.now
        #expect(h.timer == nil)
        #expect(h.advance(by: .seconds(600)) == [], "no limit: the engine runs on")
        #expect(h.feed(.setIdleLimit(.seconds(900))) == [.setTimer(lastUse + .seconds(900))], "counted from its last use, not from the change")
        #expect(h.feed(.setIdleLimit(nil)) == [.cancelTimer])
        #expect(h.advance(by: .seconds(600)) == [])
        #expect(h.feed(.setIdleLimit(.seconds(60))) == [.setTimer(lastUse + .seconds(60))])
        #expect(h.advance(by: .zero) == [.kill(process), .health(.idle)], "unused for longer already: stopped at once")
    }

    @Test("an engine restarting after a fault is not stopped as idle: its backoff goes on")
    func restartingIsNotIdle() {
        var h = H(configuration: Self.idle(1))
        h.startServing()
        let process = h.process
        h.feed(.failed(process, .ended("killed by signal 9")))
        let effects = h.advance(by: .seconds(5))
        #expect(!effects.contains(.health(.idle)))
        #expect(h.supervisor.health == .restarting(reason: EngineFault.ended("killed by signal 9").description, attempt: 1))
        // Once ready again and unused, it is stopped like any other.
        h.ready()
        #expect(h.advance(by: .seconds(1)) == [.kill(EngineProcessID(2)), .health(.idle)])
    }
}
