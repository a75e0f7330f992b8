import Foundation
import NarratorBase
import NarratorSpeechPlan
import NarratorStore
import Synchronization

/// The announcement path: deciding (the queue) and logging (the group-committing writer), beside
/// raw batched SQLite inserts into the same kind of file in the same run.
enum AnnouncementBenchmark {
    static func run(count: Int) -> [BenchResult] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var results: [BenchResult] = []

        // Baseline: rows straight into SQLite, 256 per transaction, WAL and synchronous=FULL.
        let raw = rawInsertRate(path: directory + "/raw.db", count: count)
        // Decided and logged: every announcement through the queue, its row through the writer, all committed.
        let logged = decideAndLogRate(path: directory + "/logged.db", count: count)
        results.append(
            BenchResult(
                name: "announce+log", value: logged.rate, unit: "ann/s", baseline: raw, baselineName: "raw batched INSERT",
                note: "queue decision + group-committed row; commit p50 \(ms(logged.commitP50)) p99 \(ms(logged.commitP99))"))

        // What an `announce` reply waits for: one row appended and its commit completed, one at a
        // time as a client waiting for each reply would, beside a one-row transaction done directly.
        let direct = directCommitP50(path: directory + "/direct.db", count: 300)
        let acked = acknowledgedCommit(path: directory + "/acked.db", count: 300)
        results.append(
            BenchResult(
                name: "ack latency p50", value: acked.p50 * 1000, unit: "ms", baseline: direct * 1000,
                baselineName: "one-row transaction, same thread", note: "append to completion through the writer thread; p99 \(ms(acked.p99))"))

        // Deciding while the writer is saturated by another thread, beside deciding with it idle.
        let idle = decideLatencyP99(path: directory + "/idle.db", saturate: false)
        let busy = decideLatencyP99(path: directory + "/busy.db", saturate: true)
        results.append(
            BenchResult(
                name: "decide p99 (busy log)", value: busy * 1e6, unit: "µs", baseline: idle * 1e6, baselineName: "decide p99, idle log",
                note: "enqueue + row hand-off while another thread floods the writer"))

        // An experiment's sweep on every core, beside the same cells on one thread.
        results += SweepBenchmark.run(rounds: 5)
        return results
    }

    private static func ms(_ seconds: Double?) -> String {
        seconds.map { String(format: "%.2f ms", $0 * 1000) } ?? "-"
    }

    static func row(_ n: Int) -> LogRow {
        LogRow(
            announcement: Int64(n), kind: .announcement, text: "Message \(n % 500)", priority: "default", tree: "tree\(n % 7)",
            dedupKey: "message \(n % 500)", policy: "default", clientPID: 1, clientUID: 1000, queuedAt: Double(n) / 100, outcome: .queued)
    }

    static func rawInsertRate(path: String, count: Int) -> Double {
        let database = try! UtteranceLog.openForWriting(path)
        let rows = (0..<count).map(row)
        let start = Clock.now()
        var index = 0
        while index < rows.count {
            try! UtteranceLog.insert(Array(rows[index..<min(rows.count, index + 256)]), into: database)
            index += 256
        }
        return Double(count) / (Clock.now() - start)
    }

    static func decideAndLogRate(path: String, count: Int) -> (rate: Double, commitP50: Double?, commitP99: Double?) {
        let writer = try! LogWriter(path: path)
        // The daemon's own decision path: the speech plan (queue and scheduler), nothing ever finishing.
        var plan = SpeechPlan<Never>(policy: .default)
        let committed = Atomic<Int>(0)
        let start = Clock.now()
        for n in 0..<count {
            let now = MonotonicInstant(nanoseconds: UInt64(n) * 10_000_000)
            let announcement = Announcement(id: AnnouncementID(UInt64(n + 1)), text: "Message \(n % 500)", tree: "tree\(n % 7)")
            let step = plan.announce(announcement, at: now)
            var logRow = row(n)
            logRow.outcome = step.decisions.first.map { LogRow.Outcome($0.state) } ?? .queued
            writer.append(logRow) { if case .success = $0 { committed.add(1, ordering: .relaxed) } }
        }
        writer.flush()
        let elapsed = Clock.now() - start
        precondition(committed.load(ordering: .relaxed) == count, "every row must be committed")
        let status = writer.status
        writer.close()
        return (Double(count) / elapsed, status.commitLatencyP50, status.commitLatencyP99)
    }

    static func directCommitP50(path: String, count: Int) -> Double {
        let database = try! UtteranceLog.openForWriting(path)
        var samples: [Double] = []
        for n in 0..<count {
            let t0 = Clock.now()
            try! UtteranceLog.insert([row(n)], into: database)
            samples.append(Clock.now() - t0)
        }
        return Stats.percentile(samples, 50)
    }

    static func acknowledgedCommit(path: String, count: Int) -> (p50: Double, p99: Double) {
        let writer = try! LogWriter(path: path)
        var samples: [Double] = []
        for n in 0..<count {
            let done = DispatchSemaphore(value: 0)
            let t0 = Clock.now()
            writer.append(row(n)) { _ in done.signal() }
            done.wait()
            samples.append(Clock.now() - t0)
        }
        writer.close()
        return (Stats.percentile(samples, 50), Stats.percentile(samples, 99))
    }

    static func decideLatencyP99(path: String, saturate: Bool) -> Double {
        let writer = try! LogWriter(path: path)
        let stop = Atomic<Bool>(false)
        let flooding = DispatchSemaphore(value: 0)
        if saturate {
            Thread.detachNewThread {
                var n = 1_000_000
                while !stop.load(ordering: .relaxed) {
                    for _ in 0..<1000 {
                        writer.append(row(n))
                        n += 1
                    }
                    writer.flush()
                }
                flooding.signal()
            }
        }
        var plan = SpeechPlan<Never>(policy: .default)
        var samples: [Double] = []
        samples.reserveCapacity(20_000)
        for n in 0..<20_000 {
            let now = MonotonicInstant(nanoseconds: UInt64(n) * 10_000_000)
            let t0 = Clock.now()
            let step = plan.announce(Announcement(id: AnnouncementID(UInt64(n + 1)), text: "Message \(n % 500)", tree: "tree\(n % 7)"), at: now)
            var logRow = row(n)
            logRow.outcome = step.decisions.first.map { LogRow.Outcome($0.state) } ?? .queued
            writer.append(logRow)
            samples.append(Clock.now() - t0)
        }
        stop.store(true, ordering: .relaxed)
        if saturate { flooding.wait() }
        writer.close()
        return Stats.percentile(samples, 99)
    }
}
