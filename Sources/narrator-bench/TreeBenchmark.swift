import Foundation
import NarratorModel
import NarratorSystem

/// Loading and listing large trees: decode + validate + compile + utterances for every stop,
/// beside Foundation's JSONSerialization reading the same text (the "just read the JSON" baseline).
enum TreeBenchmark {
    /// A document of `count` nodes: groups of 100 buttons with labels, values and frames.
    static func document(nodes count: Int) -> String {
        var out = #"{"tree": "big", "title": "Big", "root": {"id": "root", "frame": [0, 0, 1000, 100000], "children": ["#
        var made = 1
        var group = 0
        while made < count {
            if group > 0 { out += "," }
            out += #"{"id": "g\#(group)", "frame": [0, \#(group * 50), 1000, 50], "children": ["#
            made += 1
            var first = true
            for item in 0..<100 where made < count {
                if !first { out += "," }
                first = false
                out += #"{"id": "g\#(group)-\#(item)", "label": "Item \#(item)", "value": "\#(item % 7)", "traits": ["button"], "frame": [\#(item * 10), 0, 10, 50]}"#
                made += 1
            }
            out += "]}"
            group += 1
        }
        return out + "]}}"
    }

    /// Run in a child process (`narrator-bench tree-memory N`): resident memory added by holding
    /// a loaded tree, with the transient JSON freed; then the same once the freed memory has been
    /// given back to the system (as narratord does after a large request), which leaves the tree
    /// alone. A fresh process keeps earlier runs out of it.
    static func memoryChild(nodes count: Int) {
        let bytes = Array(document(nodes: count).utf8)
        let before = Memory.residentBytes()
        let tree = AccessibilityTree(document: try! TreeDocumentDecoder().decode(bytes: bytes))
        let after = Memory.residentBytes()
        Syscall.releaseFreedMemory()
        let released = Memory.residentBytes()
        print(after - before, released - before)
        withExtendedLifetime(tree) {}
    }

    /// Resident bytes the tree added in a child process: as loaded, and after the release.
    static func measureMemoryInChild(nodes count: Int) -> (loaded: Int, released: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["tree-memory", String(count)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try! process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let figures = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard figures.count == 2 else { return (-1, -1) }
        return (figures[0], figures[1])
    }

    static func run(sizes: [Int], repeats: Int) -> [BenchResult] {
        var results: [BenchResult] = []
        for size in sizes {
            let text = document(nodes: size)
            let bytes = Array(text.utf8)
            var baseline: [Double] = []
            var load: [Double] = []
            var list: [Double] = []
            var phases: [[Double]] = [[], [], []]
            var stops = 0
            let residentBytes = measureMemoryInChild(nodes: size)
            for _ in 0..<repeats {
                let b0 = Clock.now()
                _ = try! JSONSerialization.jsonObject(with: Data(bytes))
                baseline.append(Clock.now() - b0)

                let p0 = Clock.now()
                let json = try! JSONParser(maxDepth: 600).parse(bytes)
                let p1 = Clock.now()
                let doc = try! TreeDocumentDecoder().decode(json)
                let p2 = Clock.now()
                _ = AccessibilityTree(document: doc)
                let p3 = Clock.now()
                phases[0].append(p1 - p0); phases[1].append(p2 - p1); phases[2].append(p3 - p2)

                let t0 = Clock.now()
                let tree = AccessibilityTree(document: try! TreeDocumentDecoder().decode(bytes: bytes))
                let t1 = Clock.now()
                var spoken = 0
                for position in 0..<tree.stopCount { spoken &+= tree.utterance(atStop: position).text.utf8.count }
                let t2 = Clock.now()
                stops = tree.stopCount
                load.append(t1 - t0)
                list.append(t2 - t1)
                precondition(spoken > 0)
            }
            let loadMedian = Stats.median(load), baseMedian = Stats.median(baseline)
            results.append(
                BenchResult(
                    name: "tree.load.\(size)", value: loadMedian * 1000, unit: "ms",
                    baseline: baseMedian * 1000, baselineName: "JSONSerialization of the same text",
                    note: "decode + validate + compile \(size) nodes (\(bytes.count / 1024) KiB)"))
            results.append(
                BenchResult(
                    name: "tree.phases.\(size)", value: Stats.median(phases[0]) * 1000, unit: "ms",
                    note: String(format: "parse; then decode %.1f ms, compile %.1f ms", Stats.median(phases[1]) * 1000, Stats.median(phases[2]) * 1000)))
            results.append(
                BenchResult(
                    name: "tree.list.\(size)", value: Stats.median(list) * 1000, unit: "ms",
                    note: "compose the utterance of all \(stops) stops"))
            results.append(
                BenchResult(
                    name: "tree.memory.\(size)", value: Double(residentBytes.loaded) / Double(size), unit: "B/node",
                    note: "resident memory of a fresh process holding the tree, minus its JSON text, per node; "
                        + "\(residentBytes.released / size) B/node once freed memory is given back"))
        }
        return results
    }
}
