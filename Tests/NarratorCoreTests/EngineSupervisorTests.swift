import NarratorBase
@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// An engine process's life while it works: started by its first job, serving jobs one at a time
/// in order, its frames turned into each job's handlers, cancels, and what the hang bound counts.
@Suite struct EngineSupervisorTests {
    typealias H = SupervisorHarness

    /// The instant `seconds` after the harness's clock starts.
    static func at(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 10_000_000_000) + .milliseconds(Int64(seconds * 1000))
    }

    func speak(_ job: EngineJob) -> EngineRequest {
        .speak(job: job.id, text: job.text, voice: job.voice, rate: 175, pitch: 50, volume: 100)
    }

    @Test("nothing starts before the first job; the first job spawns the engine, is held until it is ready, then written")
    func startedByTheFirstJob() {
        var h = H()
        #expect(h.supervisor.health == .notStarted)
        #expect(h.supervisor.process == nil)
        let (job, submitted) = h.submit("Hello there.")
        #expect(submitted == [.health(.starting), .spawn(EngineProcessID(1)), .setTimer(Self.at(10))])
        #expect(h.engineWrites(.log("loading slt")) == [.log("loading slt")], "a log line before ready is the journal's")
        h.advance(by: .milliseconds(300))
        let ready = h.ready()
        #expect(ready == [
            .health(.ready), .write(EngineProcessID(1), speak(job)), .cancelTimer,
            .setTimer(Self.at(0.3) + .seconds(1)),
        ])
        #expect(h.supervisor.health == .ready)
    }

    @Test("a warm-up starts the engine before any job; the first job is then written as soon as it is ready, and a second warm-up does nothing")
    func warmedUpBeforeTheFirstJob() {
        var h = H()
        #expect(h.feed(.warmUp) == [.health(.starting), .spawn(EngineProcessID(1)), .setTimer(Self.at(10))])
        #expect(h.feed(.warmUp) == [], "starting already")
        h.advance(by: .milliseconds(1500))
        #expect(h.ready() == [.health(.ready), .cancelTimer], "ready, with nothing to write")
        #expect(h.feed(.warmUp) == [], "ready already")
        let (job, submitted) = h.submit("Hello there.")
        #expect(submitted == [.write(EngineProcessID(1), speak(job)), .setTimer(Self.at(1.5) + .seconds(1))])
    }

    @Test("frames become the job's begin, sentences, audio and end, the samples counted")
    func framesBecomeHandlers() {
        var h = H()
        let (job, _) = h.submit("One. Two.")
        h.ready()
        let p = h.process
        #expect(h.feed(.frame(p, .begin(job: job.id, sampleRate: 16000))) == [.begin(job: job.id, sampleRate: 16000), .cancelTimer])
        #expect(h.feed(.frame(p, .sentence(job: job.id, offset: 0))) == [.sentence(job: job.id, offset: 0)])
        #expect(h.feed(.frame(p, .audio(job: job.id, samples: [1, 2, 3]))) == [.audio(job: job.id, samples: [1, 2, 3])])
        #expect(h.feed(.frame(p, .sentence(job: job.id, offset: 5))) == [.sentence(job: job.id, offset: 5)])
        #expect(h.feed(.frame(p, .audio(job: job.id, samples: [4, 5]))) == [.audio(job: job.id, samples: [4, 5])])
        #expect(h.feed(.frame(p, .end(job: job.id, cancelled: false))) == [.end(job: job.id, .completed(samples: 5))])
        #expect(h.feed(.listening(p, cpuTime: .zero)) == [], "no job in flight: no hang bound")
        #expect(h.supervisor.pendingJobs.isEmpty)
    }

    @Test("jobs are written one at a time, in submission order, each when the one before ended")
    func oneAtATimeInOrder() {
        var h = H()
        h.startServing()
        let (first, one) = h.submit("First.")
        let (second, two) = h.submit("Second.")
        let (third, three) = h.submit("Third.")
        #expect(one.writes == [speak(first)])
        #expect(two.writes.isEmpty && three.writes.isEmpty)
        #expect(h.supervisor.pendingJobs == [first.id, second.id, third.id])
        let ended = h.engineWrites(.begin(job: first.id, sampleRate: 16000), .end(job: first.id, cancelled: false))
        #expect(ended.writes == [speak(second)])
        let refused = h.engineWrites(.failed(job: second.id, message: "no voice \"slt\""))
        #expect(refused.contains(.end(job: second.id, .refused("no voice \"slt\""))))
        #expect(refused.writes == [speak(third)], "a refused job leaves the engine serving")
        #expect(h.supervisor.health == .ready)
    }

    @Test("a job's prosody is clamped to the protocol's ranges")
    func prosodyClamped() {
        let job = EngineJob(id: 4, text: "x", voice: "slt", parameters: VoiceParameters(rate: 900, pitch: -3, volume: 250))
        #expect(job.request == .speak(job: 4, text: "x", voice: "slt", rate: 450, pitch: 0, volume: 200))
    }

    @Test("a job cancelled before it is written ends skipped at once and is never written")
    func cancelQueued() {
        var h = H()
        h.startServing()
        let (first, _) = h.submit("First.")
        let (second, _) = h.submit("Second.")
        let (third, _) = h.submit("Third.")
        #expect(h.feed(.cancel(job: second.id)) == [.end(job: second.id, .skipped)])
        let ended = h.engineWrites(.begin(job: first.id, sampleRate: 16000), .end(job: first.id, cancelled: false))
        #expect(ended.writes == [speak(third)])
        #expect(h.history.writes == [speak(first), speak(third)])
    }

    @Test("a job cancelled in flight is cancelled in the engine; its later audio is dropped and its end comes with the engine's")
    func cancelInFlight() {
        var h = H()
        h.startServing()
        let (job, _) = h.submit("A long text.")
        let (next, _) = h.submit("Next.")
        let p = h.process
        h.engineWrites(.begin(job: job.id, sampleRate: 16000), .sentence(job: job.id, offset: 0), .audio(job: job.id, samples: [1, 2]))
        #expect(h.feed(.cancel(job: job.id)) == [.write(p, .cancel(job: job.id))])
        #expect(h.feed(.cancel(job: job.id)) == [], "one cancel request is enough")
        h.engineWrites(.audio(job: job.id, samples: [3, 4]))
        #expect(!h.history.contains(.audio(job: job.id, samples: [3, 4])), "audio after the cancel is not handed on")
        let ended = h.engineWrites(.end(job: job.id, cancelled: true))
        #expect(ended.prefix(2) == [.end(job: job.id, .cancelled(samples: 2)), .write(p, speak(next))])
    }

    @Test("a job cancelled in flight before its audio began ends skipped, without a begin")
    func cancelBeforeBegin() {
        var h = H()
        h.startServing()
        let (job, _) = h.submit("Text.")
        h.feed(.cancel(job: job.id))
        let begun = h.engineWrites(.begin(job: job.id, sampleRate: 16000))
        #expect(!begun.contains(.begin(job: job.id, sampleRate: 16000)))
        #expect(h.engineWrites(.end(job: job.id, cancelled: true)).ends == [job.id: .skipped])
    }

    @Test("a cancel of a job that ended, or was never submitted, is ignored")
    func staleCancel() {
        var h = H()
        h.startServing()
        #expect(h.feed(.cancel(job: 1)) == [])
        #expect(h.feed(.cancel(job: 99)) == [])
    }

    @Test("time the shell spends in a job's handlers is not the engine hanging: the bound counts from its return to reading")
    func slowHandlersAreNotAHang() {
        var h = H()
        h.startServing()
        let (job, _) = h.submit("Text.")
        let p = h.process
        h.feed(.frame(p, .begin(job: job.id, sampleRate: 16000)))
        h.feed(.frame(p, .audio(job: job.id, samples: [1])))
        // The output keeps real-time pace: the handler returns 5 s later.
        #expect(h.advance(by: .seconds(5)) == [])
        #expect(h.feed(.listening(p, cpuTime: .zero)) == [.setTimer(h.now + .seconds(1))])
        #expect(h.advance(by: .milliseconds(900)) == [])
        h.engineWrites(.audio(job: job.id, samples: [2]))
        #expect(h.advance(by: .milliseconds(900)) == [], "each frame moves the bound on")
        #expect(h.supervisor.health == .ready)
        #expect(h.advance(by: .milliseconds(200)).first == .kill(p))
    }

    @Test("an idle engine has no hang bound; a job written starts it")
    func idleEngineHasNoBound() {
        var h = H()
        h.startServing()
        #expect(h.timer == nil)
        #expect(h.advance(by: .seconds(600)) == [])
        let (_, submitted) = h.submit("Text.")
        #expect(submitted.last == .setTimer(h.now + .seconds(1)))
    }

    @Test("after shutdown the process is killed, the job in flight ends cancelled, the queued ones skipped, and nothing more starts")
    func shutDown() {
        var h = H()
        h.startServing()
        let (job, _) = h.submit("Playing.")
        let (queued, _) = h.submit("Waiting.")
        let p = h.process
        h.engineWrites(.begin(job: job.id, sampleRate: 16000), .audio(job: job.id, samples: [1, 2, 3]))
        #expect(h.feed(.shutDown) == [
            .kill(p), .end(job: job.id, .cancelled(samples: 3)), .end(job: queued.id, .skipped), .cancelTimer,
        ])
        let (late, after) = h.submit("Late.")
        #expect(after == [.end(job: late.id, .skipped)])
        #expect(h.supervisor.process == nil)
    }
}
