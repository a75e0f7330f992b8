import Foundation
import NarratorModel
import NarratorTestSupport
import Testing

extension SSIPClientTests {
    /// Narrator beside Orca 43 on the same keys, on one headless desktop:
    /// Tests/Helpers/atspi/orca_compare.py runs narratord, narrator-atspi and Orca (speaking
    /// through narratord's SSIP server) and says, key by key, which facts each said (title, name,
    /// role, state, value, position, status; on a page a heading's level, a table's size, a cell's
    /// header and place, the wrap). docs/atspi.md holds the tables it prints.
    @Suite struct OrcaComparisonTests {
        static var script: String { BuiltProducts.repository + "/Tests/Helpers/atspi/orca_compare.py" }

        static let enabled = SSIPTests.hasOrcaDesktop && ProcessInfo.processInfo.environment["NARRATOR_SSIP_SERVER"] != "speech-dispatcher"

        @Test(
            "Narrator says every fact Orca says, key by key, in no more words",
            .enabled(if: enabled, "Orca's headless desktop is not installed (make test-deps), or the SSIP tests run against speech-dispatcher"))
        func narratorCarriesWhatOrcaCarries() throws {
            try Self.compare(scenario: "fixture", timeout: 170, steps: 12)
        }

        /// Runs orca_compare.py's `scenario` and checks its steps: each fact Orca said at a key,
        /// Narrator said at that key too, and Narrator said no more words in all.
        static func compare(scenario: String, timeout: Int, steps expected: Int) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["PYTHONDONTWRITEBYTECODE"] = "1"
            var arguments = [script, "--scenario", scenario, "--bin", BuiltProducts.directory, "--timeout", "\(timeout)"]
            if let logs = environment["NARRATOR_SSIP_LOG_DIR"] { arguments += ["--log-dir", logs + "/orca-compare-" + scenario] }
            let run = try CompletedRun.run("/usr/bin/python3", arguments, environment: environment, timeout: .seconds(timeout + 30))
            let lines = run.lines.compactMap { try? JSONParser().parse($0) }
            let summary = try #require(SSIPTests.final(lines, kind: "summary"), "no summary: \(run.stdout.suffix(2000)) \(run.stderr.suffix(3000))")
            #expect(summary["ok"] == true, "\(summary["error"] ?? nil) \(run.stderr.suffix(2000))")
            let steps = lines.filter { $0["kind"] == "step" }
            #expect(steps.count >= expected, "\(steps.count) steps")
            // Each fact Orca said at a key, Narrator said at that key too.
            for step in steps {
                guard case .object(let orca)? = step["orca"]?["facts"] else { continue }
                for member in orca.members where member.value == true {
                    #expect(step["narrator"]?["facts"]?[member.key] == true, "step \(step["n"] ?? nil) (\(step["key"] ?? nil)): Orca said its \(member.key), Narrator did not: \(step["narrator"]?["texts"] ?? nil)")
                }
            }
            let narratorWords = summary["narrator_words"]?.numberValue ?? .infinity
            let orcaWords = summary["orca_words"]?.numberValue ?? 0
            // What each said at each key, so that a failure says where the words came from.
            let said = steps.map { step in
                "\(step["n"] ?? nil) \(step["key"] ?? nil): Orca \(step["orca"]?["texts"] ?? nil), Narrator \(step["narrator"]?["texts"] ?? nil)"
            }
            #expect(narratorWords <= orcaWords, "Narrator said \(narratorWords) words, Orca \(orcaWords):\n\(said.joined(separator: "\n"))")
        }
    }
}

/// Browse mode's structural and table keys on a page in Firefox, Orca 43's phase then
/// Narrator's (orca_compare.py's page-keys scenario, Tests/Helpers/atspi/page_keys.py). Unlike the
/// fixture's comparison it takes some 200 s alone (both readers, 25 keys each), which would take
/// `make test` past its 15 minutes: `make test-compare` runs it.
@Suite struct PageKeysComparisonTests {
    @Test(
        "On a page in Firefox, browse mode's structural and table keys: Narrator says every fact Orca says at each, in no more words in all",
        .enabled(if: SSIPClientTests.OrcaComparisonTests.enabled && SSIPTests.installed("/usr/bin/firefox-esr"),
                 "Orca's headless desktop or Firefox ESR is not installed (make test-deps), or the SSIP tests run against speech-dispatcher"))
    func structuralAndTableKeysOnAPage() throws {
        try SSIPClientTests.OrcaComparisonTests.compare(scenario: "page-keys", timeout: 300, steps: 25)
    }
}
