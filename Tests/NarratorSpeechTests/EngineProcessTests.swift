import Foundation
import Glibc
import NarratorPulseHarness
@testable import NarratorSpeech
import NarratorSystem
import Synchronization
import Testing

/// An engine process serving: the real test engine (Tests/Helpers/engines/test_engine.py) behind
/// real pipes, as narratord will run Flite and Piper.
@Suite("Engine process (a real child speaking the engine protocol)")
struct EngineProcessTests {
    static let sentences = ["One two three.", "Four five six seven!", "Eight nine ten eleven twelve?", "Thirteen."]
    static let text = sentences.joined(separator: " ")

    @Test("the engine is not started before the first job, and the first job starts it")
    func startedByTheFirstJob() throws {
        let engine = try TestEngine()
        let journal = Journal()
        let process = try engine.process(journal: journal)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(engine.pid == nil, "listing the voices started nothing that serves")
        #expect(process.health == .notStarted)
        #expect(journal.all.isEmpty)
        let record = JobRecord("Hello.")
        process.submit(record.job)
        #expect(record.waitForEnd() == .completed(samples: rampLength(["Hello."])))
        #expect(engine.pid != nil)
        #expect(journal.healths == [.starting, .ready])
    }

    @Test("every sample arrives once and in order, after onStart and before onEnd")
    func audioInOrder() throws {
        let engine = try TestEngine()
        let process = try engine.process()
        let record = JobRecord(Self.text)
        process.submit(record.job)
        let count = rampLength(Self.sentences)
        #expect(record.waitForEnd() == .completed(samples: count))
        #expect(record.samples == (0..<count).map { Int16($0 % 32768) })
        #expect(record.all.first == .start)
        #expect(record.chunks >= 4, "at most 100 ms a frame")
    }

    @Test("jobs submitted together are spoken one after another, in submission order, never interleaved")
    func jobsInOrder() throws {
        let engine = try TestEngine()
        let process = try engine.process()
        let texts = ["The first one of three.", "The second one.", "The third and the last one."]
        let order = OrderLog()
        let records = texts.enumerated().map { index, text in
            JobRecord(text) { _, _ in
                order.append(index)
                return true
            }
        }
        for record in records { process.submit(record.job) }
        for (index, record) in records.enumerated() {
            #expect(record.waitForEnd() == .completed(samples: rampLength([texts[index]])))
            #expect(record.samples == (0..<rampLength([texts[index]])).map { Int16($0) })
        }
        #expect(order.all == order.all.sorted(), "every chunk of a job before the next job's")
        #expect(Set(order.all) == [0, 1, 2])
    }

    @Test("real speech from the engine: a voice's own rate, non-silent PCM of plausible length")
    func realSpeech() throws {
        let engine = try TestEngine()
        let process = try engine.process()
        #expect(process.sampleRate(for: .standard) == 22050, "the first voice")
        #expect(process.sampleRate(for: .named("ramp")) == 16000)
        #expect(process.sampleRate(for: .language("en-GB")) == 22050)
        #expect(process.voices.map(\.identifier) == ["espeak", "ramp"])
        let record = JobRecord("Hello world. This is a second sentence.", voice: .standard)
        process.submit(record.job)
        guard case .completed(let count) = record.waitForEnd() else {
            Issue.record("expected the job to complete, got \(String(describing: record.outcome))")
            return
        }
        let seconds = Double(count) / 22050
        #expect(seconds > 1 && seconds < 6, "two sentences last \(seconds) s")
        #expect(SpeechDetection.rms(record.samples) > 500)
    }

    @Test("a cancel reaches the engine: its end comes cancelled, the engine says so, and serves the next job")
    func cancelReachesTheEngine() throws {
        // Paced, so the engine is still making sentences when the cancel comes (200 sentences take 2 s).
        let engine = try TestEngine(["--pace", "0.01"])
        let journal = Journal()
        let process = try engine.process(journal: journal)
        let sentences = (1...200).map { "Sentence number \($0) of a long text." }
        let record = JobRecord(sentences.joined(separator: " ")) { record, number in
            if number == 1 { record.job.cancel() }
            return true
        }
        process.submit(record.job)
        guard case .cancelled(let samples) = record.waitForEnd() else {
            Issue.record("expected a cancelled job, got \(String(describing: record.outcome))")
            return
        }
        #expect(samples == 1600, "no audio is handed on after the cancel")
        #expect(journal.wait { $0.lines.contains { $0.hasPrefix("test engine: cancelled job") } }, "the engine read the cancel: \(journal.lines)")
        let next = JobRecord("Next.")
        process.submit(next.job)
        #expect(next.waitForEnd() == .completed(samples: rampLength(["Next."])))
    }

    @Test("onChunk returning false cancels the job in the engine")
    func refusingAChunkCancels() throws {
        let engine = try TestEngine(["--pace", "0.01"])
        let journal = Journal()
        let process = try engine.process(journal: journal)
        let record = JobRecord((1...200).map { "Sentence \($0) of many." }.joined(separator: " ")) { _, _ in false }
        process.submit(record.job)
        #expect(record.waitForEnd() == .cancelled(samples: 1600))
        #expect(journal.wait { $0.lines.contains { $0.hasPrefix("test engine: cancelled job") } }, "the engine read the cancel: \(journal.lines)")
    }

    @Test("a job cancelled before the engine began it ends skipped, without onStart")
    func cancelledBeforeItStarts() throws {
        let engine = try TestEngine(["--start-delay", "0.5"])
        let process = try engine.process()
        let record = JobRecord("Never heard.")
        process.submit(record.job)
        record.job.cancel()
        #expect(record.waitForEnd() == .skipped)
        #expect(record.all == [.end(.skipped)])
    }

    @Test("a slow consumer (onChunk keeping real-time pace, longer than the hang bound) is not taken for a hung engine")
    func slowConsumerIsNotAHang() throws {
        let engine = try TestEngine()
        let journal = Journal()
        let process = try engine.process(hangBound: .milliseconds(500), journal: journal)
        let record = JobRecord(Self.text) { _, number in
            if number <= 3 { Thread.sleep(forTimeInterval: 0.8) }
            return true
        }
        process.submit(record.job)
        #expect(record.waitForEnd(timeout: .seconds(60)) == .completed(samples: rampLength(Self.sentences)))
        #expect(journal.healths == [.starting, .ready], "never given up: \(journal.healths)")
    }

    @Test("journal lines come from the engine's standard error and its log frames")
    func journalLines() throws {
        let engine = try TestEngine()
        let journal = Journal()
        let process = try engine.process(journal: journal)
        let record = JobRecord("Hello.")
        process.submit(record.job)
        record.waitForEnd()
        #expect(journal.wait { journal in
            journal.lines.contains { $0.hasPrefix("test engine: serving, pid ") } && journal.lines.contains("test engine loaded")
        }, "\(journal.lines)")
        #expect(journal.wait { $0.lines.contains { $0.hasPrefix("job 1: first audio after ") } })
    }

    @Test("an engine process nobody holds any more is killed with its thread")
    func droppedEngineIsKilled() throws {
        let engine = try TestEngine()
        var process: EngineProcess? = try engine.process()
        let record = JobRecord("Hello.")
        process?.submit(record.job)
        record.waitForEnd()
        let pid = try #require(engine.pid)
        #expect(processExists(pid))
        process = nil
        #expect(eventually { !processExists(pid) }, "engine \(pid) is still there")
    }
}

/// Indexes appended in the order things were seen.
final class OrderLog: Sendable {
    private let entries = Mutex<[Int]>([])
    func append(_ index: Int) { entries.withLock { $0.append(index) } }
    var all: [Int] { entries.withLock { $0 } }
}
