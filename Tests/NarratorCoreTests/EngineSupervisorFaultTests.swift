import NarratorBase
@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// An engine process that fails: every crash and hang gives it up the same way (killed, its jobs
/// failed for the fallback with what was not heard, a new one started), and while it keeps
/// failing the starts back off.
@Suite struct EngineSupervisorFaultTests {
    typealias H = SupervisorHarness
    static let text = "First sentence. Second sentence. Third."

    /// A ready engine in the middle of `text`'s second sentence, with two jobs queued behind it.
    static func midJob() -> (H, job: EngineJob, queued: [EngineJob]) {
        var h = H()
        h.startServing()
        let (job, _) = h.submit(text)
        let (second, _) = h.submit("Queued one.")
        let (third, _) = h.submit("Queued two.")
        h.engineWrites(
            .begin(job: job.id, sampleRate: 16000), .sentence(job: job.id, offset: 0), .audio(job: job.id, samples: [1, 2]),
            .sentence(job: job.id, offset: 16), .audio(job: job.id, samples: [3]))
        return (h, job, [second, third])
    }

    @Test("a crash mid-job kills the process, fails the job from its last sentence and the queued ones whole, and starts a new process at once")
    func crashMidJob() {
        var (h, job, queued) = Self.midJob()
        let p = h.process
        let reason = "killed by signal 9"
        let effects = h.feed(.failed(p, .ended(reason)))
        #expect(effects == [
            .kill(p), .health(.restarting(reason: reason, attempt: 1)),
            .end(job: job.id, .engineFailed(reason: reason, remainder: "Second sentence. Third.")),
            .end(job: queued[0].id, .engineFailed(reason: reason, remainder: "Queued one.")),
            .end(job: queued[1].id, .engineFailed(reason: reason, remainder: "Queued two.")),
            .spawn(EngineProcessID(p.rawValue + 1)), .setTimer(h.now + .seconds(10)),
        ])
        #expect(h.supervisor.pendingJobs.isEmpty)
    }

    @Test("a job that fails before its first sentence gives its whole text to the fallback")
    func crashBeforeFirstSentence() {
        var h = H()
        h.startServing()
        let (job, _) = h.submit(Self.text)
        h.engineWrites(.begin(job: job.id, sampleRate: 16000))
        let effects = h.feed(.failed(h.process, .closedOutput))
        #expect(effects.ends == [job.id: .engineFailed(reason: "closed its output", remainder: Self.text)])
    }

    @Test("while the engine restarts a job fails at once; once ready it serves again, and a later crash restarts at once")
    func restartingThenReady() {
        var (h, _, _) = Self.midJob()
        h.feed(.failed(h.process, .ended("exited with status 1")))
        let (early, failedAtOnce) = h.submit("Meanwhile.")
        #expect(failedAtOnce == [.end(job: early.id, .engineFailed(reason: "exited with status 1", remainder: "Meanwhile."))])
        #expect(h.ready().prefix(1) == [.health(.ready)])
        let (job, served) = h.submit("Back.")
        #expect(served.writes == [job.request])
        h.engineWrites(.begin(job: job.id, sampleRate: 16000), .end(job: job.id, cancelled: false))
        let again = h.feed(.failed(h.process, .ended("exited with status 1")))
        #expect(again.contains(.health(.restarting(reason: "exited with status 1", attempt: 1))), "it served a job: the count starts again")
        #expect(again.contains(.spawn(EngineProcessID(3))))
    }

    @Test("what a process already given up still reports (its last frames, its exit) changes nothing")
    func staleReportsIgnored() {
        var (h, job, _) = Self.midJob()
        let old = h.process
        h.feed(.failed(old, .ended("killed by signal 9")))
        #expect(h.feed(.frame(old, .audio(job: job.id, samples: [9]))) == [])
        #expect(h.feed(.failed(old, .closedOutput)) == [])
        #expect(h.feed(.listening(old, cpuTime: .zero)) == [])
        #expect(h.supervisor.process == EngineProcessID(old.rawValue + 1))
    }

    @Test("a job in flight with no frame and no CPU time used for the hang bound while the shell reads (a stopped engine) is given up as hung")
    func hang() {
        var (h, job, _) = Self.midJob()
        let p = h.process
        #expect(h.advance(by: .milliseconds(999)) == [])
        let effects = h.advance(by: .milliseconds(1))
        #expect(effects.prefix(3) == [
            .kill(p), .health(.restarting(reason: "did not answer for 1 s", attempt: 1)),
            .end(job: job.id, .engineFailed(reason: "did not answer for 1 s", remainder: "Second sentence. Third.")),
        ])
        #expect(effects.contains(.spawn(EngineProcessID(p.rawValue + 1))))
    }

    @Test("a cancelled job hangs the same way when its end never comes, and ends cancelled, not for the fallback")
    func cancelledJobThatHangs() {
        var (h, job, _) = Self.midJob()
        h.feed(.cancel(job: job.id))
        let effects = h.advance(by: .seconds(1))
        #expect(effects.ends[job.id] == .cancelled(samples: 3))
    }

    @Test("a start that does not reach the ready frame within the start bound is given up")
    func startBound() {
        var h = H()
        let (job, _) = h.submit("Hello.")
        h.engineWrites(.log("loading a large model"))
        #expect(h.advance(by: .milliseconds(9_999)) == [])
        let effects = h.advance(by: .milliseconds(1))
        #expect(effects == [
            .kill(EngineProcessID(1)), .health(.restarting(reason: "was not ready within 10 s", attempt: 1)),
            .end(job: job.id, .engineFailed(reason: "was not ready within 10 s", remainder: "Hello.")),
            .spawn(EngineProcessID(2)), .setTimer(h.now + .seconds(10)),
        ])
    }

    @Test("bytes that are not a frame, and frames the protocol does not allow there, give the engine up with what was wrong")
    func brokenFrames() {
        var (h, job, _) = Self.midJob()
        let malformed = h.feed(.failed(h.process, .malformed(.unknownType(UInt8(ascii: "Z")))))
        #expect(malformed.contains(.health(.restarting(reason: "sent a malformed frame: unknown frame type 'Z'", attempt: 1))))
        #expect(malformed.ends[job.id] == .engineFailed(reason: "sent a malformed frame: unknown frame type 'Z'", remainder: "Second sentence. Third."))

        var before = H()
        before.submit("x")
        let early = before.engineWrites(.begin(job: 1, sampleRate: 16000))
        #expect(early.contains(.health(.restarting(reason: "broke the engine protocol: sent frame 'B' for job 1 before its ready frame", attempt: 1))))

        var other = H()
        other.startServing()
        let (current, _) = other.submit("x")
        let wrongJob = other.engineWrites(.begin(job: current.id + 1, sampleRate: 16000))
        #expect(wrongJob.contains(.health(.restarting(reason: "broke the engine protocol: sent frame 'B' for job 3 while job 2 was in flight", attempt: 1))))

        var idle = H()
        idle.startServing()
        let stray = idle.engineWrites(.audio(job: 1, samples: [1]))
        #expect(stray.contains(.health(.restarting(reason: "broke the engine protocol: sent frame 'A' for job 1 while no job was in flight", attempt: 1))))

        var twice = H()
        twice.startServing()
        let again = twice.engineWrites(.ready(H.listing))
        #expect(again.contains(.health(.restarting(reason: "broke the engine protocol: sent frame 'R' while no job was in flight", attempt: 1))))

        var unbegun = H()
        unbegun.startServing()
        let (job2, _) = unbegun.submit("x")
        let audio = unbegun.engineWrites(.audio(job: job2.id, samples: [1]))
        #expect(audio.contains(.health(.restarting(reason: "broke the engine protocol: sent audio of job 2 before beginning it", attempt: 1))))
    }

    @Test("an engine that keeps failing is started again at once, then after 1 s, 2 s, 4 s … at most 30 s, each attempt said once")
    func backoff() {
        var h = H()
        h.submit("Hello.")
        var waits: [Duration] = []
        for attempt in 1...9 {
            let process = h.process
            let failed = h.feed(.failed(process, .ended("exited with status 3")))
            #expect(failed.prefix(2) == [.kill(process), .health(.restarting(reason: "exited with status 3", attempt: attempt))])
            if failed.contains(.spawn(EngineProcessID(process.rawValue + 1))) {
                waits.append(.zero)
                continue
            }
            guard let due = h.timer else {
                Issue.record("no start is due after attempt \(attempt)")
                return
            }
            waits.append(due - h.now)
            #expect(h.advance(by: due - h.now) == [.spawn(EngineProcessID(process.rawValue + 1)), .setTimer(due + .seconds(10))])
        }
        #expect(waits == [.zero, .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30), .seconds(30)])
        #expect(h.history.filter { if case .health = $0 { true } else { false } }.count == 10, "starting, then one per attempt")
    }

    @Test("an engine that gets ready but fails on every job still backs off: only a job served resets the count")
    func readyIsNotServed() {
        var h = H()
        h.submit("One.")
        h.ready()
        h.feed(.failed(h.process, .ended("killed by signal 11")))
        h.ready()
        h.submit("Two.")
        h.advance(by: .milliseconds(100))
        let second = h.feed(.failed(h.process, .ended("killed by signal 11")))
        #expect(second.contains(.health(.restarting(reason: "killed by signal 11", attempt: 2))))
        #expect(!second.contains(where: { if case .spawn = $0 { true } else { false } }))
        #expect(second.last == .setTimer(h.now + .seconds(1)))
    }

    @Test("a process that cannot be spawned at all is a failure like any other")
    func couldNotStart() {
        var h = H()
        let (job, _) = h.submit("Hello.")
        let effects = h.feed(.failed(EngineProcessID(1), .couldNotStart("posix_spawn /opt/flite: No such file or directory (errno 2)")))
        let reason = "could not be started: posix_spawn /opt/flite: No such file or directory (errno 2)"
        #expect(effects.prefix(3) == [
            .kill(EngineProcessID(1)), .health(.restarting(reason: reason, attempt: 1)),
            .end(job: job.id, .engineFailed(reason: reason, remainder: "Hello.")),
        ])
    }

    @Test("the remainder starts at the sentence's byte offset, on a whole character")
    func remainderOffsets() {
        let job = EngineJob(id: 1, text: "Grüße. Été!", voice: "slt")
        #expect(job.remainder(from: 0) == "Grüße. Été!")
        #expect(job.remainder(from: 9) == "Été!")
        #expect(job.remainder(from: 10) == "té!", "inside 'É': from the next character")
        #expect(job.remainder(from: 400) == "")
    }
}
