import Foundation

// narrator-bench: Narrator's benchmarks, each beside a baseline measured in the same run.
// Usage: narrator-bench [SUITE...] [--out FILE]   (suites: tree, roundtrip, speech, voices, engine, daemon, busy, announce, spd, static, engines, idle, lines, atspi; default: all;
// pages: only the atspi suite's Firefox pages; hostile: only its row beside hostile applications;
// keys: only its row for the keys Narrator does not take; browse-keys: only its rows for browse mode's H, K and Down/Up by line)
// `load` (make load) is the long load test; it runs only when named and fails the run when a check fails.

var arguments = Array(CommandLine.arguments.dropFirst())
var outPath: String?
if let index = arguments.firstIndex(of: "--out"), index + 1 < arguments.count {
    outPath = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
if arguments.first == "tree-memory", arguments.count == 2, let count = Int(arguments[1]) {
    TreeBenchmark.memoryChild(nodes: count)
    exit(0)
}
let allSuites = ["tree", "roundtrip", "speech", "voices", "engine", "daemon", "busy", "announce", "spd", "static", "engines", "idle", "lines", "atspi"]
let suites = arguments.isEmpty ? allSuites : arguments
var results: [BenchResult] = []
var failures: [String] = []
for suite in suites {
    switch suite {
    case "tree": results += TreeBenchmark.run(sizes: [1_000, 10_000, 100_000], repeats: 5)
    case "roundtrip": results += try RoundTripBenchmark.run(samples: 2000)
    case "speech": results += SpeechBenchmark.run(runs: 50)
    case "voices": results += VoiceBenchmark.run(repeats: 20)
    case "engine": results += EngineBenchmark.run(runs: 30)
    case "daemon": results += try DaemonBenchmark.run(sizes: [1_000, 10_000, 100_000, 1_000_000], moves: 500, idleSeconds: 5)
    case "busy": results += try BusyDaemonBenchmark.run(rounds: 5, samplesPerRound: 100, nodes: 100_000)
    case "announce": results += AnnouncementBenchmark.run(count: 50_000)
    case "spd": results += SpeechDispatcherBenchmark.run(runs: 30)
    case "static":
        // The narratord of the packages (make deb), which make bench builds apart from the release build.
        let daemon = ProcessInfo.processInfo.environment["NARRATOR_STATIC_DAEMON"] ?? ".build/static/release/narratord"
        results += StaticRuntimeBenchmark.run(runs: 30, daemon: daemon)
    case "engines":
        let engines = EnginesBenchmark.run(runs: 20)
        results += engines.results
        failures += engines.failures
    case "idle": results += IdleSinkBenchmark.run(rounds: 10)
    case "atspi":
        results += try ATSPIBenchmark.suite(repeats: 15, moves: 500, pageRepeats: 3, presses: 20)
    case "pages":
        results += try ATSPIBenchmark.suite(repeats: 0, moves: 0, pageRepeats: 3, presses: 0, onlyPages: true)
    case "hostile":
        // Alone, it has the time for more presses than in the atspi suite: a steadier median.
        results += ATSPIBenchmark.hostileFocusLatency(presses: 60)
    case "lines": results += LinesBenchmark.run(items: 2_500, repeats: 5)
    case "keys": results += ATSPIBenchmark.keyPassthrough(presses: 40)
    case "browse-keys": results += ATSPIBenchmark.structuralKeyLatency(presses: 20)
    case "load":
        let load = try LoadTest.run(.fromEnvironment())
        results += load.results
        failures += load.failures
    default:
        FileHandle.standardError.write(Data("narrator-bench: unknown suite \(suite) (known: \((allSuites + ["pages", "hostile", "keys", "browse-keys", "load"]).joined(separator: ", ")))\n".utf8))
        exit(2)
    }
}
print(Report.table(results))
if let outPath {
    try Report.write(results, to: outPath)
    print("\nwrote \(outPath)")
}
if !failures.isEmpty {
    FileHandle.standardError.write(Data(("\nFAILED:\n" + failures.map { "  - \($0)" }.joined(separator: "\n") + "\n").utf8))
    exit(1)
}
