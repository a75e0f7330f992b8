import Foundation
import FoundationXML
@testable import NarratorCLI
import NarratorTestSupport
import Testing

/// Counts the plot's groups by class (`front`, `policy`).
private final class PlotCollector: NSObject, XMLParserDelegate {
    var classes: [String: Int] = [:]
    var texts: [String] = []
    private var inText = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if let cls = attributes["class"] { classes[cls, default: 0] += 1 }
        inText = name == "text"
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts.append(string) }
    }
}

/// `narratorctl experiment` through the built binary: the shipped 3×3×3 sweep over the shipped
/// traces, its tables, plot, CSV, JSON, rows, and a rerun from its record.
@Suite struct ExperimentCommandTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-experiment-\(UUID().uuidString.prefix(8))").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The value after "experiment " in the output's line "experiment ID: ...".
    func experimentID(_ stdout: String) -> String? {
        stdout.split(separator: "\n").first { $0.hasPrefix("experiment experiment-") }.map { String($0.split(separator: " ")[1].dropLast()) }
    }

    @Test func sweepTablesPlotCSVJSONAndRerun() throws {
        let db = directory + "/replays.db", svg = directory + "/sweep.svg", csv = directory + "/cells.csv"
        let result = try Binaries.run("narratorctl", ["experiment", "examples/experiments/bucket-sweep.json", "--db", db, "--plot", svg, "--csv", csv])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        for title in ["latency p50, s", "latency p95, s", "latency p99, s", "words heard", "unheard messages", "focus speech cut", "heard too late (started more than 2 s",
            "messages lost by outcome, all traces", "Pareto front"]
        {
            #expect(out.contains(title), "no \(title) table")
        }
        #expect(out.contains("CHAT-BURST  DOWNLOAD-PROGRESS  SLIDER-DRAG  LIVE-REGION-DUPLICATES"))
        // 27 policy rows in each of the 8 tables; the front marked with "*" in every one.
        let rows = out.split(separator: "\n").filter { ($0.hasPrefix("  burst=") || $0.hasPrefix("* burst=")) && !$0.contains(":") }
        #expect(rows.count == 27 * 8)
        let marked = Set(rows.filter { $0.hasPrefix("* ") }.map { String($0.dropFirst(2).split(separator: " ")[0]) })
        #expect(!marked.isEmpty && marked.count < 27)
        let frontLines = out.split(separator: "\n").drop { !$0.hasPrefix("Pareto front") }.dropFirst().prefix { $0.hasPrefix("  burst=") }
        #expect(Set(frontLines.map { String($0.dropFirst(2).split(separator: ":")[0]) }) == marked)
        let lines = result.lines
        let id = try #require(experimentID(out))
        #expect(lines.last == "rerun: narratorctl experiment --rerun \(id) --db \(db)")
        let summary = try #require(lines.first { $0.hasPrefix("experiment \(id): ") })
        #expect(summary.hasPrefix("experiment \(id): 108 cells, ") && summary.hasSuffix(" rows in \(db)"))

        // One CSV line per cell after the header, the front flagged.
        let csvLines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(csvLines.count == 1 + 108)
        #expect(csvLines.first?.hasPrefix("experiment,policy,trace,dedup,dedupWindow,burst,refill") == true)
        #expect(csvLines.first?.hasSuffix("focusCut,tooLate,front") == true)
        #expect(csvLines.filter { $0.hasSuffix(",true") }.count == marked.count * 4)

        // The plot: a group per policy, the front's joined, its names listed.
        let collector = PlotCollector()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: svg)))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.classes["front"] == marked.count)
        #expect(collector.classes["policy"] == 27 - marked.count)
        #expect(collector.classes["tick", default: 0] >= 6)
        #expect(collector.texts.contains { $0.contains(id) })
        #expect(Set(collector.texts).isSuperset(of: marked))

        // Every cell's rows are in the database under the experiment, readable by log and stats.
        let policy = try #require(marked.first)
        let log = try Binaries.run("narratorctl", ["log", "--db", db, "--experiment", id, "--policy", policy, "--json"])
        #expect(log.status == 0, "\(log.stderr)")
        let logged = try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as! [[String: Any]]
        // 26 + 102 + 61 + 27 announcements over the four traces, and their focus speech.
        #expect(logged.filter { $0["kind"] as? String == "announcement" }.count == 216)
        #expect(logged.contains { $0["kind"] as? String == "focus" })
        let stats = try Binaries.run("narratorctl", ["stats", "--db", db, "--experiment", id, "--policy", policy])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("queued to started: p50"))

        // Run again from the record: the same tables, every figure matching.
        let rerun = try Binaries.run("narratorctl", ["experiment", "--rerun", id, "--db", db])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.lines.last == "reproduced: all 108 cells match")
        let tables = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("  burst=") || $0.hasPrefix("* burst=") } }
        #expect(tables(rerun.stdout) == tables(out))
    }

    /// The sweep over every shipped trace, the four recorded from Orca and other programs among
    /// them (traces on the command line replace the spec's): a column per trace, 27 × 8 cells,
    /// the front marked, the plot drawn.
    @Test func sweepOverEveryShippedTrace() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: "examples/traces").filter { $0.hasSuffix(".jsonl") }.sorted()
        try #require(names.count >= 8, "\(names)")
        let svg = directory + "/all.svg"
        let result = try Binaries.run(
            "narratorctl", ["experiment", "examples/experiments/bucket-sweep.json"] + names.map { "examples/traces/" + $0 } + ["--db", directory + "/all.db", "--plot", svg])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("bucket-sweep: 27 policies × \(names.count) traces"), "\(result.stdout.prefix(200))")
        let header = try #require(result.lines.first { $0.hasPrefix("  POLICY") })
        for name in ["ORCA-GTK-FIXTURE", "ORCA-WEB-PAGE", "CHAT-BURST-RECORDED", "PROGRESS-RECORDED", "SLIDER-DRAG"] {
            #expect(header.contains(name), "\(header)")
        }
        #expect(result.stdout.contains("experiment-") && result.stdout.contains(": \(27 * names.count) cells, "))
        #expect(result.lines.contains { $0.hasPrefix("* burst=") })
        #expect(FileManager.default.fileExists(atPath: svg))
    }

    @Test func jsonHoldsTheRecordCellsAndFront() throws {
        let db = directory + "/replays.db"
        let result = try Binaries.run("narratorctl", ["experiment", "examples/experiments/bucket-sweep.json", "examples/traces/slider-drag.jsonl", "--db", db, "--late", "0.5", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let id = try #require(object["experiment"] as? String)
        let record = try #require(object["record"] as? [String: Any])
        #expect(record["narrator"] as? String == "0.1.0")
        #expect((record["synthesizer"] as? String)?.hasPrefix("eSpeak NG 1.") == true, "\(record)")
        #expect(record["late"] as? Double == 0.5)
        #expect((record["policies"] as? [Any])?.count == 27)
        let traces = try #require(record["traces"] as? [[String: Any]])
        // The command line's trace replaces the spec's four.
        #expect(traces.count == 1)
        #expect((traces[0]["path"] as? String)?.hasSuffix("examples/traces/slider-drag.jsonl") == true)
        #expect((traces[0]["sha256"] as? String)?.count == 64)
        #expect((record["spec"] as? [String: Any])?["name"] as? String == "bucket-sweep")
        #expect((object["cells"] as? [Any])?.count == 27)
        #expect(!((object["front"] as? [Any]) ?? []).isEmpty)
        #expect(object["rerun"] as? String == "narratorctl experiment --rerun \(id) --db \(db)")
    }

    @Test func rerunRefusedWhenATraceChanges() throws {
        let trace = directory + "/chat.jsonl", spec = directory + "/spec.json", db = directory + "/replays.db"
        try FileManager.default.copyItem(atPath: Binaries.repository + "/examples/traces/chat-burst.jsonl", toPath: trace)
        try Data(#"{"name": "small", "sweep": {"burst": [2, 3]}, "traces": ["chat.jsonl"]}"#.utf8).write(to: URL(fileURLWithPath: spec))
        let result = try Binaries.run("narratorctl", ["experiment", spec, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        let id = try #require(experimentID(result.stdout))
        let original = try Data(contentsOf: URL(fileURLWithPath: trace))

        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: trace))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"at": 12, "kind": "announce", "text": "one more", "tree": "chat"}"#.utf8 + [0x0A]))
        try handle.close()
        let changed = try Binaries.run("narratorctl", ["experiment", "--rerun", id, "--db", db])
        #expect(changed.status == 1)
        let message = changed.stderr
        #expect(message.contains("trace \(trace) changed since the experiment: recorded sha256 "))
        let hashes = message.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",;\n")) }.filter { $0.count == 64 }
        #expect(hashes.count == 2 && hashes[0] != hashes[1])
        #expect(changed.stdout.isEmpty)

        try FileManager.default.removeItem(atPath: trace)
        let missing = try Binaries.run("narratorctl", ["experiment", "--rerun", id, "--db", db])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("trace \(trace) is missing"))

        // Put back as it was, it reproduces.
        try original.write(to: URL(fileURLWithPath: trace))
        let restored = try Binaries.run("narratorctl", ["experiment", "--rerun", id, "--db", db])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.lines.last == "reproduced: all 2 cells match")
    }

    @Test func mistakesAreExplained() throws {
        let spec = directory + "/bad.json"
        try Data(#"{"sweep": {"burst": [2, "three"]}, "traces": ["x.jsonl"]}"#.utf8).write(to: URL(fileURLWithPath: spec))
        let bad = try Binaries.run("narratorctl", ["experiment", spec, "--db", directory + "/r.db"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "narratorctl experiment: \(spec): sweep.burst[1]: expected a whole number of at least 1\n")
        try Data(#"{"sweep": {"refil": [2]}}"#.utf8).write(to: URL(fileURLWithPath: spec))
        #expect(try Binaries.run("narratorctl", ["experiment", spec]).stderr.contains(#"sweep.refil: not a policy parameter; did you mean "refill"?"#))
        let none = try Binaries.run("narratorctl", ["experiment"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("give a SPEC.json, or --rerun ID"))
        let both = try Binaries.run("narratorctl", ["experiment", spec, "--rerun", "x"])
        #expect(both.status == 2)
        let db = directory + "/r.db"
        let ok = try Binaries.run("narratorctl", ["replay", "examples/traces/slider-drag.jsonl", "--policy", "none", "--db", db])
        #expect(ok.status == 0, "\(ok.stderr)")
        let replayID = String(ok.lines.last!.split(separator: " ")[1].dropLast())
        let notExperiment = try Binaries.run("narratorctl", ["experiment", "--rerun", replayID, "--db", db])
        #expect(notExperiment.status == 1)
        #expect(notExperiment.stderr.contains("it is a replay, not an experiment"))
        let typo = try Binaries.run("narratorctl", ["experiment", "--rerun", String(replayID.dropLast()), "--db", db])
        #expect(typo.stderr.contains("did you mean \"\(replayID)\""))
        let help = try Binaries.run("narratorctl", ["help"])
        #expect(help.stdout.contains("experiment"))
    }

    /// The plot rendered as a picture (rsvg-convert, librsvg2-bin in TEST_PACKAGES) is a real one:
    /// its full size, and far from one colour.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")))
    func plotRendersToAPicture() throws {
        let svg = directory + "/plot.svg", png = directory + "/plot.png"
        let result = try Binaries.run("narratorctl", ["experiment", "examples/experiments/bucket-sweep.json", "--db", directory + "/r.db", "--plot", svg])
        #expect(result.status == 0, "\(result.stderr)")
        let render = try CompletedRun.run("/usr/bin/rsvg-convert", [svg, "-o", png])
        #expect(render.status == 0, "\(render.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 980 && height >= 600)
        // A blank picture of that size compresses to a few kilobytes; text, ticks and points do not.
        #expect(bytes.count > 20_000)
    }
}

/// The plot's subtitle names the traces in at most two lines that fit the picture.
@Suite struct ExperimentPlotSubtitleTests {
    @Test func longListsWrapThenAreCounted() {
        let few = ExperimentPlot.subtitle(traces: ["chat", "slider"])
        #expect(few == ["p95 latency against unheard messages per policy, all 2 traces: chat, slider"])
        let many = (1...40).map { "trace-number-\($0)" }
        let lines = ExperimentPlot.subtitle(traces: many)
        #expect(lines.count == 2 && lines.allSatisfy { $0.count <= 150 + 20 })
        #expect(lines[1].hasSuffix("more") && lines[0].contains("all 40 traces: trace-number-1, "))
    }
}
