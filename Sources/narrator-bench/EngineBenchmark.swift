import Foundation
import NarratorSpeech
import Synchronization

/// What the process boundary costs an engine process (Flite, Piper): from `submit` to the
/// first chunk in narratord's handler, beside the engine's own time to its first audio (from
/// reading the request to writing its first `A` frame, as it reports on standard error), for
/// the same jobs in the same run. The engine is the protocol's test engine
/// (Tests/Helpers/engines/test_engine.py) on the same machine: its `espeak` voice synthesizes
/// with libespeak-ng, its `ramp` voice costs nothing, so that row is the boundary alone.
enum EngineBenchmark {
    static func run(runs: Int) -> [BenchResult] {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let script = parts.joined(separator: "/") + "/Tests/Helpers/engines/test_engine.py"
        guard FileManager.default.fileExists(atPath: script), FileManager.default.fileExists(atPath: "/usr/bin/python3") else {
            return [.skipped("engine.first", reason: "\(script) or /usr/bin/python3 is missing (run from the repository's build)")]
        }
        let directory = NSTemporaryDirectory() + "narrator-bench-engine-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let executable = directory + "/engine"
        do {
            try "#!/bin/sh\nexec /usr/bin/python3 '\(script)' \"$@\"\n".write(toFile: executable, atomically: true, encoding: .utf8)
            chmod(executable, 0o755)
            let lines = Mutex<[String]>([])
            let listing = try EngineProcess.listVoices(executable: executable)
            let engine = try EngineProcess(
                executable: executable, listing: listing, hangBound: .seconds(5), startBound: .seconds(30),
                onLog: { line in lines.withLock { $0.append(line) } })
            let startStart = Clock.now()
            guard firstChunk(engine, "Warm up.", voice: "ramp") != nil else { return [.skipped("engine.first", reason: "the test engine did not speak")] }
            let startup = Clock.now() - startStart
            var rows: [BenchResult] = []
            var jobs = 1
            for voice in ["ramp", "espeak"] {
                var boundary: [Double] = []
                for _ in 0..<runs {
                    guard let seconds = firstChunk(engine, "Hello there. How are you today?", voice: voice) else { continue }
                    boundary.append(seconds)
                }
                jobs += runs
                // Each job's own figure, in job order (its standard error is relayed on a thread
                // of its own, so the last line may trail the job's end a little); the warm-up and
                // the other voice's jobs are left out by count.
                let deadline = Clock.now() + 5
                while lines.withLock({ $0.compactMap(engineMilliseconds).count }) < jobs, Clock.now() < deadline { usleep(1_000) }
                let reported = lines.withLock { $0 }.compactMap(engineMilliseconds)
                let own = Array(reported.suffix(boundary.count))
                rows.append(BenchResult(
                    name: "engine.first.\(voice)", value: Stats.median(boundary) * 1e3, unit: "ms", baseline: Stats.median(own),
                    baselineName: "the engine's own request-to-first-audio",
                    note: String(
                        format: "submit to the first chunk in narratord, p50 of %d (p90 %.3f ms); the difference is the process boundary (pipes, a thread hop each way)",
                        boundary.count, Stats.percentile(boundary, 90) * 1e3)))
            }
            rows.append(BenchResult(
                name: "engine.start", value: startup * 1e3, unit: "ms",
                note: "the first job's submit to its first chunk: spawning python3, its imports and the ready frame (what the first job waits once)"))
            return rows
        } catch {
            return [.skipped("engine.first", reason: "the test engine could not be run: \(error)")]
        }
    }

    /// Seconds from `submit` to the job's first chunk (nil: none came); waits for the job's end.
    static func firstChunk(_ engine: EngineProcess, _ text: String, voice: String) -> Double? {
        let first = Mutex<Double?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = SynthesisJob(
            text: text, voice: .named(voice),
            onChunk: { _ in
                first.withLock { if $0 == nil { $0 = Clock.now() } }
                return true
            },
            onEnd: { _ in done.signal() })
        let start = Clock.now()
        engine.submit(job)
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return first.withLock { $0 }.map { $0 - start }
    }

    /// The milliseconds of a "job N: first audio after X ms" line.
    static func engineMilliseconds(_ line: String) -> Double? {
        guard line.hasPrefix("job "), let range = line.range(of: ": first audio after ") else { return nil }
        return Double(line[range.upperBound...].dropLast(" ms".count))
    }
}
