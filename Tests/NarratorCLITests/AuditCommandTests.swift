import Foundation
import Testing

/// `narratorctl audit` through the real binary: what a developer sees in CI.
@Suite struct AuditCommandTests {
    let smallButton = #"{"tree": "t", "root": {"id": "r", "frame": [0, 0, 400, 800], "children": [{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 30, 30]}]}}"#

    @Test func tableListsFindingsAndExitsOneOnErrors() throws {
        let result = try Binaries.run("narratorctl", ["audit", "examples/audit-problems.json"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("SEVERITY  RULE") == true)
        #expect(lines.contains { $0.hasPrefix("error     unlabelled-control") && $0.contains("compose") && $0.contains("root.children[1]") })
        #expect(lines.contains { $0.contains("fix: give it a short label") })
        #expect(lines.last == "inbox: 8 errors, 6 warnings in 11 focus stops")
    }

    @Test func seedExamplesPass() throws {
        for example in ["player", "favorites", "profile", "segmented"] {
            let result = try Binaries.run("narratorctl", ["audit", "--fail-on", "warning", "examples/\(example).json"])
            #expect(result.status == 0, "\(example): \(result.stdout)")
            #expect(result.stdout.contains("no findings"))
        }
    }

    @Test func jsonIsAnArrayOfFindings() throws {
        let result = try Binaries.run("narratorctl", ["audit", "--json", "examples/audit-problems.json"])
        #expect(result.status == 1)
        let findings = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: String]]
        #expect(findings.count == 14)
        #expect(Set(findings[0].keys) == ["rule", "severity", "element", "path", "message", "fix"])
        #expect(findings.contains { $0["rule"] == "small-target" && $0["element"] == "compose" && $0["severity"] == "warning" })
    }

    @Test func failOnPicksTheLevel() throws {
        let warningsOnly = try Binaries.run("narratorctl", ["audit", "-"], stdin: smallButton)
        #expect(warningsOnly.status == 0)
        #expect(warningsOnly.stdout.contains("small-target"))
        #expect(try Binaries.run("narratorctl", ["audit", "--fail-on", "warning", "-"], stdin: smallButton).status == 1)
        #expect(try Binaries.run("narratorctl", ["audit", "--fail-on", "error", "-"], stdin: smallButton).status == 0)
        let typo = try Binaries.run("narratorctl", ["audit", "--fail-on", "warnig", "-"], stdin: smallButton)
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean warning?"))
    }

    @Test func ignoreSwitchesRulesOff() throws {
        let result = try Binaries.run("narratorctl", ["audit", "--fail-on", "warning", "--ignore", "small-target", "-"], stdin: smallButton)
        #expect(result.status == 0)
        #expect(result.stdout == "t: no findings in 1 focus stop (ignored: small-target)\n")
        let problems = try Binaries.run(
            "narratorctl",
            ["audit", "--json", "--ignore", "hidden-actionable", "--ignore", "rotor-target-missing", "examples/audit-problems.json"])
        let rules = (try JSONSerialization.jsonObject(with: Data(problems.stdout.utf8)) as! [[String: String]]).map { $0["rule"]! }
        #expect(!rules.contains("hidden-actionable") && !rules.contains("rotor-target-missing") && rules.contains("small-target"))
        let typo = try Binaries.run("narratorctl", ["audit", "--ignore", "small-targt", "-"], stdin: smallButton)
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean small-target?"))
    }

    @Test func aDocumentCanIgnoreRulesForItself() throws {
        let ignoring = smallButton.replacingOccurrences(of: #""tree": "t","#, with: #""tree": "t", "audit": {"ignore": ["small-target"]},"#)
        let result = try Binaries.run("narratorctl", ["audit", "--fail-on", "warning", "-"], stdin: ignoring)
        #expect(result.status == 0)
        #expect(result.stdout.contains("(ignored: small-target)"))
        let typo = smallButton.replacingOccurrences(of: #""tree": "t","#, with: #""tree": "t", "audit": {"ignore": ["small-targt"]},"#)
        let invalid = try Binaries.run("narratorctl", ["audit", "-"], stdin: typo)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains(#"audit.ignore[0]: unknown audit rule "small-targt"; did you mean "small-target"?"#))
    }

    @Test func svgWritesThePicture() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("inbox.svg").path
        let result = try Binaries.run("narratorctl", ["audit", "--svg", path, "examples/audit-problems.json"])
        #expect(result.status == 1)
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains(#"data-rule="unlabelled-control""#))
        #expect(svg.contains(#"class="stop" data-id="title" data-order="1""#))
        let unwritable = try Binaries.run("narratorctl", ["audit", "--svg", "/nonexistent/dir/x.svg", "examples/player.json"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("cannot write /nonexistent/dir/x.svg"))
    }

    @Test func targetsThatAreNotFiles() throws {
        let missing = try Binaries.run("narratorctl", ["audit", "/nonexistent/tree.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read /nonexistent/tree.json: no such file"))
        // Any other name is a registered tree, which needs the daemon: here none is running.
        let name = try Binaries.run("narratorctl", ["--socket", "/tmp/narrator-none/x.sock", "audit", "player"])
        #expect(name.status == 3)
        #expect(name.stderr.contains("cannot reach narratord at /tmp/narrator-none/x.sock"))
        let invalid = try Binaries.run("narratorctl", ["audit", "-"], stdin: #"{"tree": "t"}"#)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains(#"missing "root""#))
    }

    @Test func helpListsTheRules() throws {
        let help = try Binaries.run("narratorctl", ["help", "audit"])
        #expect(help.stdout.contains("Usage: narratorctl audit [--fail-on LEVEL] [--ignore RULE] [--svg PATH] FILE|TREE"))
        #expect(help.stdout.contains("label-contains-trait (warning)"))
        #expect(try Binaries.run("narratorctl", ["--help"]).stdout.contains("audit"))
    }
}
