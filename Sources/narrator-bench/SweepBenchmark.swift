import Foundation
import NarratorCLI
import NarratorExperiments
import NarratorModel

/// `narratorctl experiment`'s sweep: every shipped trace under a 3×3×3 grid of policies, the cells
/// in parallel on every core (``ExperimentRunner``), beside the same cells replayed one policy at a
/// time on one thread as `replay` does. Utterance lengths are synthetic (0.35 s plus 0.3 s a
/// word, about eSpeak NG at 175 wpm), so eSpeak NG is not in the loop.
enum SweepBenchmark {
    static let spec = #"{"sweep": {"burst": [2, 3, 4], "refill": [0.25, 0.5, 1], "dedupWindow": [0.5, 1, 2]}}"#

    static func run(rounds: Int) -> [BenchResult] {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let directory = parts.joined(separator: "/") + "/examples/traces"
        // Every shipped trace: the hand-written ones and those recorded from Orca and other programs.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(".jsonl".count)) }.sorted()
        guard !names.isEmpty else { return [.skipped("sweep throughput", reason: "no traces in \(directory) (run from the repository's build)")] }
        var traces: [[TraceEvent]] = []
        for name in names {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(name).jsonl"),
                let events = try? AnnouncementTrace.parse(String(decoding: data, as: UTF8.self))
            else { return [.skipped("sweep throughput", reason: "cannot read \(directory)/\(name).jsonl (run from the repository's build)")] }
            traces.append(events)
        }
        let policies = try! ExperimentSpec.parse(try! JSONParser().parse(spec), name: "bench").policies(from: .default)
        let texts = traces.reduce(into: Set<String>()) { $0.formUnion(SpeechLengths.texts(of: $1)) }
        let lengths = SpeechLengths(Dictionary(uniqueKeysWithValues: texts.map { text in
            (text, Duration.milliseconds(350 + 300 * Int64(text.split(separator: " ").count)))
        }))
        let announcements = Double(policies.count * traces.map { $0.filter(\.isMessage).count }.reduce(0, +))

        func rate(_ replay: () -> [ExperimentCell]) -> Double {
            var rates: [Double] = []
            for _ in 0..<rounds {
                let start = Clock.now()
                let cells = replay()
                let elapsed = Clock.now() - start
                precondition(cells.count == policies.count * traces.count, "every cell must be replayed")
                rates.append(announcements / elapsed)
            }
            return Stats.percentile(rates, 50)
        }
        // Sequential first, each sweep in turn, then parallel: the same work, the same inputs.
        let sequential = rate { ExperimentRunner.runSequentially(policies: policies, traces: traces, lengths: lengths, late: 2) }
        let parallel = rate { ExperimentRunner.run(policies: policies, traces: traces, lengths: lengths, late: 2) }
        // The two must agree cell for cell, or the speed-up is of something else.
        let a = ExperimentRunner.run(policies: policies, traces: traces, lengths: lengths, late: 2).map(\.metrics)
        let b = ExperimentRunner.runSequentially(policies: policies, traces: traces, lengths: lengths, late: 2).map(\.metrics)
        precondition(a == b, "parallel and sequential sweeps must give the same figures")
        return [
            BenchResult(
                name: "sweep throughput", value: parallel, unit: "msg/s", baseline: sequential, baselineName: "same cells, one thread",
                note: "\(policies.count) policies × \(traces.count) shipped traces = \(policies.count * traces.count) cells on \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(rounds) sweeps; synthetic lengths")
        ]
    }
}
