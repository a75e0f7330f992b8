import Foundation
import Testing

/// The traces shipped in examples/traces that were recorded from real programs (Orca through
/// narratord's SSIP server, exported with `narratorctl log --trace`; see examples/traces/README.md)
/// replay with `narratorctl replay --check` exactly as they were logged. No desktop: the built
/// narratorctl and the files only.
@Suite struct ShippedTraceTests {
    /// The recorded traces; each must be shipped and carry logged outcomes.
    static let recorded = ["orca-gtk-fixture", "orca-web-page", "chat-burst-recorded", "progress-recorded", "orca-page-load"]

    static var tracesDirectory: String { Binaries.repository + "/examples/traces" }

    /// Every shipped trace with at least one logged outcome (hand-written ones carry none).
    static var withOutcomes: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tracesDirectory)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().filter { !loggedOutcomes(tracesDirectory + "/" + $0).isEmpty }
            .map { String($0.dropLast(".jsonl".count)) }
    }

    /// The `outcome` of each event line (comments and the meta line carry none).
    static func loggedOutcomes(_ path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["outcome"] as? String
        }
    }

    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-shipped-\(UUID().uuidString.prefix(8))").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func check(_ path: String) throws -> (status: Int32, compared: Int?, matching: Int?, mismatches: [Any], output: String) {
        let run = try Binaries.run("narratorctl", ["replay", path, "--check", "--json", "--db", directory + "/replays.db"])
        let object = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any]
        let check = object?["check"] as? [String: Any]
        return (run.status, check?["compared"] as? Int, check?["matching"] as? Int, check?["mismatches"] as? [Any] ?? [],
                run.stdout + run.stderr)
    }

    @Test func everyRecordedTraceIsShippedWithItsRecipe() throws {
        #expect(Set(Self.withOutcomes).isSuperset(of: Self.recorded), "\(Self.withOutcomes)")
        for name in Self.recorded {
            let text = try String(contentsOfFile: Self.tracesDirectory + "/\(name).jsonl", encoding: .utf8)
            let lines = text.split(separator: "\n")
            // The header says how to re-record it, before the exported trace's meta line.
            let header = lines.prefix { $0.hasPrefix("#") }
            #expect(header.contains { $0.contains("record_traces.py") && $0.contains("--only \(name)") }, "\(name)")
            #expect(lines.dropFirst(header.count).first?.contains(#""kind":"meta""#) == true, "\(name)")
        }
    }

    @Test(arguments: withOutcomes) func replaysAsLogged(name: String) throws {
        let path = Self.tracesDirectory + "/\(name).jsonl"
        let logged = Self.loggedOutcomes(path)
        let result = try check(path)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.compared == logged.count, "\(result.output)")
        #expect(result.matching == logged.count, "\(result.output)")
        #expect(result.mismatches.isEmpty, "\(result.output)")
    }

    /// Issue 38 on the recorded traffic: where Orca cancels its own speech (on a key, a window
    /// change), nothing it says is throttled or deduplicated under any built-in policy: the page
    /// loads, F5, Tab, structural keys, Say All, the web page's live regions and a terminal's
    /// output of orca-page-load and orca-web-page, the keys of orca-gtk-fixture. What is judged
    /// is the flooding client beside Orca in orca-page-load (its forty "Flood message number N"),
    /// throttled under every policy but `none`.
    @Test(arguments: ["default", "strict"]) func aScreenReaderLosesNothingAndAFloodIsThrottled(policy: String) throws {
        for name in ["orca-page-load", "orca-web-page", "orca-gtk-fixture"] {
            let run = try Binaries.run("narratorctl", ["replay", Self.tracesDirectory + "/\(name).jsonl", "--policy", policy, "--json", "--db", directory + "/replays.db"])
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let experiment = try #require(object["experiment"] as? String)
            let log = try Binaries.run("narratorctl", ["log", "--experiment", experiment, "--db", directory + "/replays.db", "--json", "--limit", "100000"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]], "\(log.stderr)")
            let judged = rows.filter { ["throttled", "deduplicated"].contains($0["outcome"] as? String) }.compactMap { $0["text"] as? String }
            let orcas = judged.filter { !$0.hasPrefix("Flood message number") }
            #expect(orcas.isEmpty, "\(name) under \(policy): Orca's \(orcas)")
            if name == "orca-page-load" {
                #expect(judged.count >= 30, "\(name) under \(policy): \(judged.count) of the flood's 40 throttled")
            }
        }
    }

    /// The check is not vacuous: one logged outcome changed in a copy of a recorded trace is found.
    @Test func aChangedOutcomeIsCaught() throws {
        let text = try String(contentsOfFile: Self.tracesDirectory + "/progress-recorded.jsonl", encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(#""outcome":"throttled""#) })
        lines[index] = lines[index].replacingOccurrences(of: #""outcome":"throttled""#, with: #""outcome":"spoken""#)
        let copy = directory + "/tampered.jsonl"
        try lines.joined(separator: "\n").write(toFile: copy, atomically: true, encoding: .utf8)
        let result = try check(copy)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.compared == Self.loggedOutcomes(copy).count)
        #expect(result.matching == (result.compared ?? 0) - 1, "\(result.output)")
        #expect(result.mismatches.count == 1, "\(result.output)")
    }
}
