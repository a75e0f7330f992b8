import Foundation
import FoundationXML
import NarratorModel
import Testing

/// Counts the announcements SVG marks stand for by their class attribute, per policy lane (a
/// counted band stands for `data-count` of them).
private final class LaneCollector: NSObject, XMLParserDelegate {
    var lanes: [String] = []
    var counts: [String: [String: Int]] = [:]
    private var lane: String?
    /// Groups open inside the lane.
    private var depth = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if name == "g", attributes["class"] == "lane" {
            lane = attributes["data-policy"]
            lanes.append(lane ?? "")
            depth = 0
            return
        }
        if name == "g", lane != nil { depth += 1 }
        if let lane, var cls = attributes["class"] {
            if cls.hasSuffix(" cluster") { cls.removeLast(" cluster".count) }
            counts[lane, default: [:]][cls, default: 0] += attributes["data-count"].flatMap(Int.init) ?? 1
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard name == "g", lane != nil else { return }
        if depth == 0 { lane = nil } else { depth -= 1 }
    }
}

/// `narratorctl replay`, `log` and `stats` through the real binary, with real eSpeak NG lengths and a real SQLite file.
@Suite struct ReplayCommandTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-replay-\(UUID().uuidString.prefix(8))").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The table's cells for one policy row, keyed by heading.
    func row(_ table: String, policy: String) -> [String: String] {
        let lines = table.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        guard let header = lines.first, let cells = lines.first(where: { $0.first == policy }) else { return [:] }
        // Headings with spaces ("P50 S", "SPEECH S", "FOCUS CUT") are split too: rebuild them.
        var names: [String] = []
        var index = 0
        while index < header.count {
            if index + 1 < header.count, ["S", "CUT"].contains(header[index + 1]) {
                names.append(header[index] + " " + header[index + 1])
                index += 2
            } else {
                names.append(header[index])
                index += 1
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(names, cells))
    }

    @Test func sliderDragTableTimelineAndLog() throws {
        let db = directory + "/log.db", svg = directory + "/slider.svg"
        let result = try Binaries.run(
            "narratorctl", ["replay", "examples/traces/slider-drag.jsonl", "--policy", "none", "--policy", "default", "--db", db, "--timeline", svg])
        #expect(result.status == 0, "\(result.stderr)")
        let none = row(result.stdout, policy: "none"), tuned = row(result.stdout, policy: "default")
        // Without a policy every one of the 61 frames is said; the tuned policy says the first few and the final value.
        #expect(Int(none["SPOKEN"] ?? "")! + Int(none["INTERRUPTED"] ?? "")! == 61)
        #expect(none["THROTTLED"] == "0")
        #expect(Int(tuned["SPOKEN"] ?? "")! <= 4)
        #expect(Int(tuned["THROTTLED"] ?? "")! >= 55)
        #expect(Double(tuned["P95 S"] ?? "")! < Double(none["P95 S"] ?? "")!)

        // The timeline: one lane per policy, a queued mark for each of the 61 frames, a mark per throttled one
        // (frames too close to tell apart are one band that says how many).
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: svg)))
        let collector = LaneCollector()
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.lanes == ["none", "default"])
        #expect(collector.counts["none"]?["queued"] == 61)
        #expect(collector.counts["default"]?["unspoken throttled"] == Int(tuned["THROTTLED"]!))
        #expect(collector.counts["default"]?["speech spoken"] == Int(tuned["SPOKEN"]!))

        // Every decision is in the log under the experiment id.
        let experiment = try #require(result.stdout.split(separator: "\n").last?.split(separator: " ").dropFirst().first.map { String($0.dropLast()) })
        let log = try Binaries.run("narratorctl", ["log", "--db", db, "--experiment", experiment, "--policy", "default", "--json"])
        #expect(log.status == 0, "\(log.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as! [[String: Any]]
        #expect(rows.filter { $0["kind"] as? String == "announcement" }.count == 61)
        #expect(rows.filter { $0["outcome"] as? String == "throttled" }.count == Int(tuned["THROTTLED"]!))
        #expect(rows.contains { $0["kind"] as? String == "focus" })
        let stats = try Binaries.run("narratorctl", ["stats", "--db", db, "--experiment", experiment, "--policy", "none"])
        // 61 announcements and the 2 focus utterances of the trace.
        #expect(stats.stdout.contains("rows: 63"))
        #expect(stats.stdout.contains("priority/kind: default 61, focus 2"))
        #expect(stats.stdout.contains("queued to started: p50"))
        // Live rows are kept apart from replayed ones.
        #expect(try Binaries.run("narratorctl", ["log", "--db", db]).stdout.contains("(no rows)"))
    }

    @Test func policyFilesAndCSV() throws {
        let db = directory + "/log.db", policy = directory + "/chatty.json"
        try Data(#"{"base": "default", "burst": 20, "refill": 5, "dedup": false}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let result = try Binaries.run("narratorctl", ["replay", "examples/traces/chat-burst.jsonl", "--policy", "strict", "--policy", policy, "--db", db])
        #expect(result.status == 0, "\(result.stderr)")
        let chatty = row(result.stdout, policy: "chatty"), strict = row(result.stdout, policy: "strict")
        #expect(Int(chatty["SPOKEN"]!)! > Int(strict["SPOKEN"]!)!)
        let experiment = String(result.stdout.split(separator: "\n").last!.split(separator: " ")[1].dropLast())
        let csv = try Binaries.run("narratorctl", ["log", "--db", db, "--experiment", experiment, "--csv", "--tree", "system"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("id,announcement,utterance,kind,text,priority,tree") == true)
        // Text with a comma is quoted, as RFC 4180 says.
        #expect(lines.dropFirst().allSatisfy { $0.contains(#","Battery low, 10 percent",high,system"#) })
        #expect(lines.count == 3)  // header + strict + chatty
    }

    /// `--check` on a trace whose logged outcomes the replay does not give back: exit 1, each
    /// line named; a policy it names that is not built in must be given as a file.
    @Test func checkListsWhatReplayedOtherwise() throws {
        let trace = directory + "/logged.jsonl", db = directory + "/replays.db"
        let lines = [
            #"{"kind": "meta", "source": "hand-made"}"#,
            #"{"at": 0, "kind": "announce", "text": "Saved", "priority": "default", "duration": 0.5, "outcome": "spoken", "policy": "default"}"#,
            #"{"at": 0.1, "kind": "announce", "text": "saved", "priority": "default", "outcome": "spoken", "policy": "default"}"#,
            #"{"at": 2, "kind": "ssip", "text": "Inbox", "priority": "text", "client": "user:orca:default", "connection": 3, "duration": 0.4, "outcome": "spoken", "policy": "default"}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let check = try Binaries.run("narratorctl", ["replay", trace, "--check", "--db", db])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("check: 2 of 3 logged outcomes replayed the same"), "\(check.stdout)")
        #expect(check.stdout.contains(#"line 3: announce "saved" logged spoken, replayed deduplicated"#), "\(check.stdout)")
        let json = try JSONParser().parse(try Binaries.run("narratorctl", ["replay", trace, "--check", "--db", db, "--json"]).stdout)
        #expect(json["check"]?["matching"] == 2 && json["check"]?["mismatches"]?.arrayValue?.first?["line"] == 3)

        try lines.map { $0.replacingOccurrences(of: #""policy": "default""#, with: #""policy": "chatty""#) }.joined(separator: "\n")
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let unnamed = try Binaries.run("narratorctl", ["replay", trace, "--check", "--db", db])
        #expect(unnamed.status == 2)
        #expect(unnamed.stderr.contains(#"was logged under policy "chatty", which is not built in: give its file with --policy FILE"#), "\(unnamed.stderr)")
        let policy = directory + "/chatty.json"
        try Data(#"{"base": "default", "dedup": false}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let given = try Binaries.run("narratorctl", ["replay", trace, "--check", "--policy", policy, "--db", db])
        // Without dedup the repeat is spoken, as logged: every outcome agrees.
        #expect(given.status == 0, "\(given.stdout)\(given.stderr)")
        #expect(given.stdout.contains("check: 3 of 3 logged outcomes replayed the same"))

        let handWritten = try Binaries.run("narratorctl", ["replay", "examples/traces/slider-drag.jsonl", "--check", "--db", db])
        #expect(handWritten.status == 1)
        #expect(handWritten.stderr.contains("nothing to check"), "\(handWritten.stderr)")
    }

    /// Orca sends SSML: a message the trace has no played length for is timed as eSpeak NG says
    /// it, markup unsaid, about as long as its plain words take (not the seconds its tags would).
    @Test func anSSMLMessageIsTimedByItsWords() throws {
        let ssml = directory + "/ssml.jsonl", plain = directory + "/plain.jsonl", db = directory + "/replays.db"
        try #"{"at": 0, "kind": "ssip", "text": "<speak><mark name=\"0:1\"/>4 <mark name=\"2:10\"/>percent.</speak>"}"#
            .write(toFile: ssml, atomically: true, encoding: .utf8)
        try #"{"at": 0, "kind": "ssip", "text": "4 percent."}"#.write(toFile: plain, atomically: true, encoding: .utf8)
        func seconds(_ trace: String) throws -> Double {
            let run = try Binaries.run("narratorctl", ["replay", trace, "--policy", "none", "--db", db, "--json"])
            try #require(run.status == 0, "\(run.stderr)")
            return try #require(try JSONParser().parse(run.stdout)["policies"]?.arrayValue?.first?["speechSeconds"]?.numberValue)
        }
        let marked = try seconds(ssml), words = try seconds(plain)
        // eSpeak NG pauses a little at SSML's clause marks (Orca's "1 percent." played in 1.1 s
        // live); said as text, the tags took 7 s.
        #expect(words > 0.3 && marked >= words && marked < 2 * words, "SSML \(marked) s, plain \(words) s")
    }

    /// `--voice ENGINE/VOICE` times the utterances on that engine process (found beside
    /// narratorctl, as narratord finds it): engines speak at their own pace, so the same trace
    /// takes another time to say.
    @Test func anEngineVoiceTimesTheTraceOnThatEngine() throws {
        let trace = directory + "/long.jsonl", db = directory + "/replays.db"
        try #"{"at": 0, "kind": "speak", "text": "The quick brown fox jumps over the lazy dog, and then it runs far away into the woods."}"#
            .write(toFile: trace, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        func seconds(_ voice: String?) throws -> Double {
            let run = try Binaries.run(
                "narratorctl", ["replay", trace, "--policy", "none", "--db", db, "--json"] + (voice.map { ["--voice", $0] } ?? []), environment: environment)
            try #require(run.status == 0, "\(voice ?? "default"): \(run.stderr)")
            return try #require(try JSONParser().parse(run.stdout)["policies"]?.arrayValue?.first?["speechSeconds"]?.numberValue)
        }
        let espeak = try seconds(nil), flite = try seconds("flite/slt"), piper = try seconds("piper/joe")
        for (name, value) in [("espeak-ng", espeak), ("flite", flite), ("piper", piper)] {
            #expect(value > 2 && value < 15, "\(name): \(value) s for 18 words")
        }
        #expect(Set([espeak, flite, piper]).count == 3, "eSpeak \(espeak) s, Flite \(flite) s, Piper \(piper) s")
        // Cached per engine: a second run gives the same length.
        #expect(try seconds("flite/slt") == flite)

        let unknown = try Binaries.run("narratorctl", ["replay", trace, "--policy", "none", "--db", db, "--voice", "flite/nobody"], environment: environment)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains(#"engine flite has no voice "nobody" (it has slt, kal, kal16, awb, rms)"#), "\(unknown.stderr)")
    }

    @Test func mistakesAreExplained() throws {
        let both = try Binaries.run("narratorctl", ["log", "--trace", "--json", "--db", directory + "/x.db"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give one of --json, --csv and --trace, not --json and --trace"), "\(both.stderr)")
        let limited = try Binaries.run("narratorctl", ["log", "--trace", "--limit", "5", "--db", directory + "/x.db"])
        #expect(limited.status == 2)
        #expect(limited.stderr.contains("--limit does not go with it"), "\(limited.stderr)")
        let until = try Binaries.run("narratorctl", ["log", "--until", "soon"])
        #expect(until.status == 2 && until.stderr.contains("--until takes a duration"))
        let badPolicy = try Binaries.run("narratorctl", ["replay", "examples/traces/chat-burst.jsonl", "--policy", "strickt"])
        #expect(badPolicy.status == 2)
        #expect(badPolicy.stderr.contains("did you mean \"strict\""))
        let missing = try Binaries.run("narratorctl", ["log", "--db", directory + "/nothing.db"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no log at"))
        let since = try Binaries.run("narratorctl", ["log", "--since", "yesterday"])
        #expect(since.status == 2)
        #expect(since.stderr.contains("--since takes a duration"))
    }
}
