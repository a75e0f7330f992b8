@testable import NarratorModel
import Testing

/// Audit as a whole: ignore lists, ordering, paths after updates, the examples.
@Suite struct AuditTests {
    @Test func seedExamplesAuditClean() throws {
        for example in ["player.json", "favorites.json", "profile.json", "segmented.json"] {
            let findings = try loadAndAudit(example)
            #expect(findings.isEmpty, "\(example): \(findings.map { "\($0.rule.rawValue) \($0.path)" })")
        }
    }

    @Test func problemExampleTriggersEveryRule() throws {
        let report = AccessibilityTree(document: try loadExample("audit-problems.json")).audit()
        #expect(Set(report.findings.map(\.rule)) == Set(AuditRule.allCases))
        #expect(report.reaches(.error) && report.reaches(.warning))
    }

    @Test func findingsComeInDocumentOrder() throws {
        let findings = try audit(
            #"{"id": "a", "traits": ["button"], "frame": [0, 0, 10, 10]}, {"id": "b", "label": "Volume", "traits": ["adjustable"]}"#)
        #expect(findings.map(\.element) == ["a", "a", "b"])
        #expect(findings.map(\.rule) == [.unlabelledControl, .smallTarget, .adjustableWithoutValue])
    }

    @Test func rulesCanBeSwitchedOffByTheCaller() throws {
        let children = #"{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 30, 30]}"#
        #expect(try audit(children).map(\.rule) == [.smallTarget])
        let report = try tree(children).audit(ignoring: [.smallTarget])
        #expect(report.findings.isEmpty)
        #expect(report.ignored == [.smallTarget])
    }

    @Test func rulesCanBeSwitchedOffByTheDocument() throws {
        let t = try tree(
            #"{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 30, 30]}"#,
            extra: #""audit": {"ignore": ["small-target"]},"#)
        #expect(t.auditIgnore == [.smallTarget])
        let report = t.audit()
        #expect(report.findings.isEmpty)
        #expect(report.ignored == [.smallTarget])
    }

    @Test func reachesComparesSeverities() throws {
        let report = try tree(#"{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 30, 30]}"#).audit()
        #expect(report.reaches(.warning))
        #expect(!report.reaches(.error))
        #expect(report.count(.warning) == 1 && report.count(.error) == 0)
    }

    @Test func pathsFollowTheTreeAfterUpdates() throws {
        var t = try tree(
            #"{"id": "first", "label": "First"}, {"id": "list", "children": [{"id": "x", "label": "X"}, {"id": "icon", "traits": ["button"]}]}"#)
        #expect(t.audit().findings.map(\.path) == ["root.children[1].children[1]"])
        try t.apply(.remove(element: "first"))
        try t.apply(.remove(element: "x"))
        #expect(t.jsonPath(of: "icon") == "root.children[0].children[0]")
        #expect(t.audit().findings.map(\.path) == ["root.children[0].children[0]"])
        #expect(t.jsonPath(of: "missing") == nil)
    }

    @Test func findingsAsJSON() throws {
        let finding = try audit(#"{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 30, 30]}"#)[0]
        #expect(finding.json["rule"] == "small-target")
        #expect(finding.json["severity"] == "warning")
        #expect(finding.json["element"] == "close")
        #expect(finding.json["path"] == "root.children[0]")
        #expect(finding.json["fix"]?.stringValue == AuditRule.smallTarget.fix)
    }

    @Test func ruleIdsAreStable() {
        #expect(
            AuditRule.ids == [
                "unlabelled-control", "adjustable-without-value", "long-value", "activation-point-outside", "small-target",
                "traits-on-combined-children", "hidden-actionable", "duplicate-utterance", "empty-rotor",
                "rotor-target-missing", "label-contains-trait",
            ])
    }
}

/// The document key `"audit": {"ignore": [...]}`.
@Suite struct AuditSettingsTests {
    @Test func unknownRuleIsAProblemWithASuggestion() {
        let found = problems(document(#"{"id": "a"}"#, extra: #""audit": {"ignore": ["small-targt"]},"#))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(#"audit.ignore[0]: unknown audit rule "small-targt"; did you mean "small-target"?"#) == true)
    }

    @Test func malformedSettingsAreProblems() {
        #expect(
            problems(document(#"{"id": "a"}"#, extra: #""audit": {"ignroe": []},"#))
                == [#"audit.ignroe: unknown key; did you mean "ignore"?"#])
        #expect(problems(document(#"{"id": "a"}"#, extra: #""audit": ["small-target"],"#)).first?.hasPrefix("audit: expected an object") == true)
        #expect(problems(document(#"{"id": "a"}"#, extra: #""audit": {"ignore": "small-target"},"#)) == ["audit.ignore: expected an array of rule ids, got a string"])
        #expect(problems(document(#"{"id": "a"}"#, extra: #""adit": {},"#)) == [#"adit: unknown key; did you mean "audit"?"#])
    }

    @Test func encoderRoundTripsTheIgnoreList() throws {
        let doc = try decode(document(#"{"id": "a"}"#, extra: #""audit": {"ignore": ["empty-rotor", "small-target"]},"#))
        #expect(doc.auditIgnore == [.emptyRotor, .smallTarget])
        let json = TreeDocumentEncoder.json(doc)
        #expect(json["audit"]?["ignore"] == .array(["empty-rotor", "small-target"]))
        #expect(try TreeDocumentDecoder().decode(json) == doc)
        #expect(AccessibilityTree(document: doc).document == doc)
        // Absent when empty.
        #expect(TreeDocumentEncoder.json(try decode(document(#"{"id": "a"}"#)))["audit"] == nil)
    }
}
