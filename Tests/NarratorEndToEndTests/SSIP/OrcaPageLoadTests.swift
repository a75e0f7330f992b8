import Foundation
import NarratorModel
import NarratorTestSupport
import Testing

extension SSIPClientTests {
    /// Issue 38: Orca 43 through narratord under the default policy loses nothing it says.
    /// Tests/Helpers/traces/record_traces.py (`--only orca-page-load`, the session that recorded
    /// examples/traces/orca-page-load.jsonl) runs the built narratord, narrator-atspi and
    /// narratorctl with Orca and Firefox ESR on a headless desktop: a page load and F5 (Orca's
    /// summary and Say All) with a client flooding narratord's SSIP socket beside it, Tab, H, and
    /// a terminal's twelve lines of output. The trace it exports is narratord's log.
    @Suite struct OrcaPageLoadTests {
        static var script: String { BuiltProducts.repository + "/Tests/Helpers/traces/record_traces.py" }

        static let hasBrowserAndTerminal: Bool = {
            guard SSIPTests.hasOrcaDesktop, SSIPTests.installed("/usr/bin/firefox-esr") else { return false }
            let vte = "import gi; gi.require_version('Vte', '2.91'); from gi.repository import Vte"
            return (try? CompletedRun.run(SSIPTests.python, ["-c", vte], timeout: .seconds(20)).status) == 0
        }()

        struct Row {
            var text: String
            var client: String
            var outcome: String
        }

        /// The trace's SSIP rows, their SSML markup taken out of the text.
        static func rows(_ path: String) throws -> [Row] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return text.split(separator: "\n").compactMap { line -> Row? in
                guard !line.hasPrefix("#"), let row = try? JSONParser().parse(String(line)), row["kind"] == "ssip" else { return nil }
                let words = (row["text"]?.stringValue ?? "").replacing(/<[^>]*>/, with: "")
                return Row(text: words, client: row["client"]?.stringValue ?? "", outcome: row["outcome"]?.stringValue ?? "")
            }
        }

        @Test(
            "Nothing Orca says on a page load, F5, Tab, H or a terminal's output is throttled or deduplicated; a flood beside it is",
            .enabled(if: hasBrowserAndTerminal && !SSIPTests.againstSpeechDispatcher,
                     "Orca's headless desktop, Firefox ESR or VTE is not installed (make test-deps), or the SSIP tests run against speech-dispatcher"))
        func orcasBurstsAreHeardAndAFloodIsNot() throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-orca-load-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: out) }
            var environment = ProcessInfo.processInfo.environment
            environment["PYTHONDONTWRITEBYTECODE"] = "1"
            var arguments = [Self.script, "--bin", BuiltProducts.directory, "--out", out, "--only", "orca-page-load", "--timeout", "400"]
            if let logs = environment["NARRATOR_SSIP_LOG_DIR"] { arguments += ["--log-dir", logs + "/orca-page-load"] }
            let run = try CompletedRun.run(SSIPTests.python, arguments, environment: environment, timeout: .seconds(440))
            let lines = run.lines.compactMap { try? JSONParser().parse($0) }
            let trace = lines.last { $0["kind"] == "trace" }
            try #require(trace?["ok"] == true, "\(trace?["error"] ?? nil) \(run.stderr.suffix(3000))")
            let rows = try Self.rows(out + "/orca-page-load.jsonl")
            let orca = rows.filter { $0.client.contains("Orca") }
            let flood = rows.filter { $0.client == "user:flood:main" }

            // Everything Orca sent was spoken, or ended by Orca's own CANCEL or by the priorities,
            // as speech-dispatcher ends them: none throttled, and none deduplicated but a repeat of
            // what was just heard (before its first cancel Orca is judged, and a window activated
            // twice makes it say "Mozilla Firefox frame." twice in a row: once is heard).
            let heard = ["spoken", "interrupted"]
            let swallowed = orca.enumerated().filter { index, row in
                row.outcome == "throttled"
                    || (row.outcome == "deduplicated" && !orca[..<index].contains { $0.text == row.text && heard.contains($0.outcome) })
            }.map(\.element)
            #expect(swallowed.isEmpty, "\(swallowed.count) of Orca's \(orca.count) messages: \(swallowed.map { "\($0.text) (\($0.outcome))" })")
            #expect(orca.allSatisfy { (heard + ["cancelled", "deduplicated"]).contains($0.outcome) }, "\(Set(orca.map(\.outcome)))")
            // What the issue's user lost, heard on the load and again on F5.
            for said in ["Finished loading Harbour rowing: autumn regatta.", "Page has 4 landmarks, 4 headings, 1 form, 1 table, 3 unvisited links."] {
                #expect(orca.filter { $0.text == said && $0.outcome == "spoken" }.count == 2, "\(said): \(orca.filter { $0.text == said })")
            }
            // The terminal's output, every line of it.
            let build = orca.filter { $0.text.contains("Compiled part") || $0.text.contains("Build finished") }
            for n in 1...12 {
                #expect(build.contains { $0.text.contains("Compiled part \(n) of 12") && $0.outcome == "spoken" }, "line \(n): \(build.map(\.text))")
            }
            // The flood beside it: forty messages at once, never cancelled by their client, throttled
            // beyond the bucket (its first and three more are spoken, a few more as it refills).
            #expect(flood.count == 40, "\(flood.count)")
            let throttled = flood.filter { $0.outcome == "throttled" }.count
            #expect(throttled >= 30, "\(throttled) of the flood's \(flood.count) throttled: \(flood.map(\.outcome))")
        }
    }
}
