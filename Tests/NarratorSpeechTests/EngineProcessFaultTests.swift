import Foundation
import Glibc
import NarratorEngines
@testable import NarratorSpeech
import NarratorSystem
import Testing

/// An engine process that fails, really: it SIGKILLs or SIGSTOPs itself mid-sentence, sleeps,
/// writes garbage, fails at start or never gets ready; and one that is only slow, which is not
/// a failure. What a listener would notice: the job ends at
/// once with what was not heard (from the sentence that was playing) for the fallback, and the
/// engine serves again by itself.
@Suite("Engine process faults (a real child that crashes, hangs and breaks the protocol)")
struct EngineProcessFaultTests {
    static let sentences = ["The first sentence is heard.", "The second one is cut.", "The third is never reached."]
    static let text = sentences.joined(separator: " ")
    static let remainder = sentences.dropFirst().joined(separator: " ")
    /// The name the test engine lists itself under, which its failures carry.
    static let testEngine = EngineName("testengine")

    /// A job of `text` on `engine` that misbehaves in sentence 2, what became of it, and the
    /// pid of the process that served it.
    static func failingJob(_ engine: TestEngine, hangBound: Duration = .seconds(2), journal: Journal) throws -> (EngineProcess, JobRecord, pid_t) {
        let process = try engine.process(hangBound: hangBound, journal: journal)
        let record = JobRecord(text)
        process.submit(record.job)
        record.waitForEnd(timeout: .seconds(60))
        #expect(journal.wait { !$0.servingPIDs.isEmpty })
        return (process, record, journal.servingPIDs.first ?? 0)
    }

    /// After a failure the engine serves a new job by itself, from a new process, and the one
    /// given up is gone (killed and reaped, not left behind).
    static func servesAgain(_ process: EngineProcess, journal: Journal, after pid: pid_t) {
        #expect(journal.wait { $0.healths.last == .ready }, "ready again: \(journal.healths)")
        let next = JobRecord("Back again.")
        process.submit(next.job)
        #expect(next.waitForEnd() == .completed(samples: rampLength(["Back again."])))
        #expect(journal.servingPIDs.count == 2 && journal.servingPIDs.last != pid, "a new process serves: \(journal.servingPIDs)")
        #expect(eventually { !processExists(pid) }, "the engine given up (\(pid)) is gone")
    }

    @Test("a SIGKILL mid-job ends the job with the text from the sentence that was playing, and the engine is started again")
    func killedMidJob() throws {
        let engine = try TestEngine(["--misbehave", "die", "--at-sentence", "2", "--once", try TestEngine.onceFile()])
        let journal = Journal()
        let started = ContinuousClock.now
        // A hang bound far longer than the wait: the crash must be seen by itself, at once.
        let (process, record, pid) = try Self.failingJob(engine, hangBound: .seconds(120), journal: journal)
        let took = ContinuousClock.now - started
        let failure = try #require(record.failure, "got \(String(describing: record.outcome))")
        #expect(took < .seconds(60), "a crash is seen at once, not after the hang bound: \(took)")
        #expect(failure == EngineFailure(engine: Self.testEngine, reason: "killed by signal 9", remainder: Self.remainder))
        #expect(record.samples.count > rampLength([Self.sentences[0]]), "the first sentence and the second's start were heard")
        #expect(journal.healths.prefix(3) == [.starting, .ready, .restarting(reason: "killed by signal 9", attempt: 1)])
        Self.servesAgain(process, journal: journal, after: pid)
    }

    @Test("a SIGSTOP mid-job is given up after the hang bound; the stopped process is killed, not left behind")
    func stoppedMidJob() throws {
        let engine = try TestEngine(["--misbehave", "stop", "--at-sentence", "2", "--once", try TestEngine.onceFile()])
        let journal = Journal()
        let started = ContinuousClock.now
        let (process, record, pid) = try Self.failingJob(engine, hangBound: .seconds(1), journal: journal)
        let took = ContinuousClock.now - started
        #expect(record.failure == EngineFailure(engine: Self.testEngine, reason: "did not answer for 1 s", remainder: Self.remainder))
        #expect(took >= .seconds(1) && took < .seconds(30), "given up after the bound, not before: \(took)")
        Self.servesAgain(process, journal: journal, after: pid)
    }

    @Test("an engine that sleeps mid-job (blocked: no CPU time used) is given up after the hang bound")
    func asleepMidJob() throws {
        let engine = try TestEngine(["--misbehave", "hang", "--at-sentence", "2", "--once", try TestEngine.onceFile()])
        let journal = Journal()
        let (process, record, pid) = try Self.failingJob(engine, hangBound: .seconds(1), journal: journal)
        #expect(record.failure == EngineFailure(engine: Self.testEngine, reason: "did not answer for 1 s", remainder: Self.remainder))
        Self.servesAgain(process, journal: journal, after: pid)
    }

    @Test("an engine busy for 3 s before its first frame (computing, not hung) is waited for past its 1 s bound: the job is its own, not the fallback's")
    func busyPastTheBound() throws {
        let engine = try TestEngine(["--busy", "3"])
        let journal = Journal()
        let process = try engine.process(hangBound: .seconds(1), journal: journal)
        let record = JobRecord(Self.text)
        process.submit(record.job)
        #expect(record.waitForEnd(timeout: .seconds(60)) == .completed(samples: rampLength(Self.sentences)))
        #expect(journal.healths == [.starting, .ready], "never given up: \(journal.healths)")
        #expect(journal.lines.contains("test engine: busy for 3 s before job 1"), "it did spin: \(journal.lines)")
        #expect(journal.servingPIDs.count == 1, "one process served: \(journal.servingPIDs)")
    }

    @Test("bytes that are not a frame give the engine up, naming what was wrong")
    func garbage() throws {
        let engine = try TestEngine(["--misbehave", "garbage", "--at-sentence", "2", "--once", try TestEngine.onceFile()])
        let journal = Journal()
        let (process, record, pid) = try Self.failingJob(engine, hangBound: .seconds(120), journal: journal)
        #expect(record.failure == EngineFailure(engine: Self.testEngine, reason: "sent a malformed frame: unknown frame type 'Z'", remainder: Self.remainder))
        Self.servesAgain(process, journal: journal, after: pid)
    }

    @Test("an engine that exits mid-job is reported with its status")
    func exitsMidJob() throws {
        let engine = try TestEngine(["--misbehave", "exit", "--at-sentence", "2", "--once", try TestEngine.onceFile()])
        let journal = Journal()
        let (process, record, pid) = try Self.failingJob(engine, hangBound: .seconds(120), journal: journal)
        #expect(record.failure == EngineFailure(engine: Self.testEngine, reason: "exited with status 1", remainder: Self.remainder))
        Self.servesAgain(process, journal: journal, after: pid)
    }

    @Test("submit and cancel never wait on a stopped engine, even with its input pipe full")
    func stoppedEngineNeverBlocksTheSubmitter() throws {
        let engine = try TestEngine()
        let process = try engine.process(hangBound: .seconds(120))
        let warm = JobRecord("Warm up.")
        process.submit(warm.job)
        #expect(warm.waitForEnd() == .completed(samples: rampLength(["Warm up."])))
        let pid = try #require(engine.pid)
        #expect(kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        // 256 KiB of text: four times what the pipe holds, written while nobody reads it.
        let huge = JobRecord(String(repeating: "Hello there. ", count: 20_000))
        let queued = (1...50).map { JobRecord("Queued \($0).") }
        let started = ContinuousClock.now
        process.submit(huge.job)
        for record in queued { process.submit(record.job) }
        for record in queued { record.job.cancel() }
        huge.job.cancel()
        let took = ContinuousClock.now - started
        #expect(took < .seconds(5), "submitting and cancelling took \(took)")
        // The engine's thread is not held either: the queued jobs end while the engine is still stopped.
        #expect(eventually { queued.allSatisfy { $0.outcome == .skipped } })
        #expect(huge.outcome == nil, "the job in flight waits for the stopped engine")
        kill(pid, SIGCONT)
        #expect(huge.waitForEnd() == .skipped, "cancelled before the engine began it")
        let next = JobRecord("After.")
        process.submit(next.job)
        #expect(next.waitForEnd() == .completed(samples: rampLength(["After."])))
        #expect(engine.pid == pid, "the same process: it was never given up")
    }

    @Test("an engine that fails at start: jobs fail at once for the fallback, and the starts back off (at once, then after 1 s)")
    func failsAtStart() throws {
        let engine = try TestEngine(["--fail-start"])
        let journal = Journal()
        let process = try engine.process(journal: journal)
        let first = JobRecord("Hello.")
        process.submit(first.job)
        first.waitForEnd()
        #expect(first.failure == EngineFailure(engine: Self.testEngine, reason: "exited with status 3", remainder: "Hello."))
        #expect(journal.wait { $0.healths.contains(.restarting(reason: "exited with status 3", attempt: 3)) }, "\(journal.healths)")
        #expect(journal.healths.prefix(4) == [
            .starting, .restarting(reason: "exited with status 3", attempt: 1),
            .restarting(reason: "exited with status 3", attempt: 2), .restarting(reason: "exited with status 3", attempt: 3),
        ])
        let meanwhile = JobRecord("Meanwhile.")
        process.submit(meanwhile.job)
        meanwhile.waitForEnd(timeout: .seconds(5))
        #expect(meanwhile.failure?.remainder == "Meanwhile.", "failed at once, not held for the next start")
        #expect(journal.wait { $0.lines.contains("test engine: failing at start, as asked") })
    }

    @Test("a start that never reaches its ready frame is given up after the start bound, and its process killed")
    func neverReady() throws {
        let engine = try TestEngine(["--start-delay", "600"])
        let journal = Journal()
        let process = try engine.process(startBound: .seconds(1), journal: journal)
        let record = JobRecord("Hello.")
        process.submit(record.job)
        record.waitForEnd()
        #expect(record.failure == EngineFailure(engine: Self.testEngine, reason: "was not ready within 1 s", remainder: "Hello."))
        #expect(journal.wait { $0.healths.contains(.restarting(reason: "was not ready within 1 s", attempt: 2)) })
        let first = try #require(journal.servingPIDs.first)
        #expect(eventually { !processExists(first) }, "the process that never got ready (\(first)) was killed")
        withExtendedLifetime(process) {}
    }

    @Test("an executable that cannot be spawned is a failure like a crash, and names the error")
    func cannotSpawn() throws {
        let engine = try TestEngine()
        let listing = try listVoices(executable: engine.executable)
        let journal = Journal()
        let process = try EngineProcess(
            executable: engine.directory + "/missing", listing: listing, hangBound: .seconds(1), startBound: .seconds(5),
            onHealth: { journal.record(.health($0)) })
        let record = JobRecord("Hello.")
        process.submit(record.job)
        record.waitForEnd()
        #expect(record.failure?.reason == "could not be started: posix_spawn \(engine.directory)/missing: No such file or directory (errno 2)")
    }
}

extension TestEngine {
    /// A path for `--once` in a directory of its own (the engine's is made after its flags).
    static func onceFile() throws -> String {
        temporaryDirectory("once") + "/misbehaved"
    }
}
