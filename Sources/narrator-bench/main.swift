import Foundation

// narrator-bench: Narrator's benchmarks, each beside a baseline measured in the same run.
// Usage: narrator-bench [SUITE...] [--out FILE]   (suites: tree, roundtrip, speech, daemon, announce, spd; default: all)

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
let allSuites = ["tree", "roundtrip", "speech", "daemon", "announce", "spd"]
let suites = arguments.isEmpty ? allSuites : arguments
var results: [BenchResult] = []
for suite in suites {
    switch suite {
    case "tree": results += TreeBenchmark.run(sizes: [1_000, 10_000, 100_000], repeats: 5)
    case "roundtrip": results += try RoundTripBenchmark.run(samples: 2000)
    case "speech": results += SpeechBenchmark.run(runs: 50)
    case "daemon": results += try DaemonBenchmark.run(sizes: [1_000, 10_000, 100_000, 1_000_000], moves: 500, idleSeconds: 5)
    case "announce": results += AnnouncementBenchmark.run(count: 50_000)
    case "spd": results += SpeechDispatcherBenchmark.run(runs: 30)
    default:
        FileHandle.standardError.write(Data("narrator-bench: unknown suite \(suite) (known: \(allSuites.joined(separator: ", ")))\n".utf8))
        exit(2)
    }
}
print(Report.table(results))
if let outPath {
    try Report.write(results, to: outPath)
    print("\nwrote \(outPath)")
}
