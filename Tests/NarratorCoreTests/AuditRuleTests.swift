@testable import NarratorModel
import Testing

/// The audit findings for a document of `children` under a 400 x 800 root.
func audit(_ children: String, extra: String = "", ignoring: Set<AuditRule> = [], limits: AuditLimits = .default) throws -> [AuditFinding] {
    try tree(children, extra: extra).audit(ignoring: ignoring, limits: limits).findings
}

func findings(_ rule: AuditRule, _ children: String, extra: String = "") throws -> [AuditFinding] {
    try audit(children, extra: extra).filter { $0.rule == rule }
}

/// Each rule with a tree that triggers it and one that does not.
@Suite struct AuditRuleTests {
    @Test func unlabelledControl() throws {
        let found = try findings(.unlabelledControl, #"{"id": "share", "traits": ["button"], "frame": [0, 0, 60, 60]}"#)
        #expect(found.map(\.element) == ["share"])
        #expect(found.first?.path == "root.children[0]")
        #expect(found.first?.message.contains(#"spoken "unlabelled, button""#) == true)
        #expect(found.first?.severity == .error)
        let toggle = try findings(
            .unlabelledControl, #"{"id": "wifi", "representation": {"control": "toggle", "isOn": true}, "frame": [0, 0, 60, 60]}"#)
        #expect(toggle.map(\.element) == ["wifi"])

        #expect(try findings(.unlabelledControl, #"{"id": "share", "label": "Share", "traits": ["button"]}"#).isEmpty)
        // A header is not a control; a combined button takes its label from its children.
        #expect(try findings(.unlabelledControl, #"{"id": "h", "traits": ["header"]}"#).isEmpty)
        #expect(
            try findings(
                .unlabelledControl,
                #"{"id": "row", "childBehavior": "combine", "traits": ["button"], "children": [{"id": "t", "label": "Favorites"}]}"#
            ).isEmpty)
    }

    @Test func adjustableWithoutValue() throws {
        let found = try findings(.adjustableWithoutValue, #"{"id": "volume", "label": "Volume", "traits": ["adjustable"]}"#)
        #expect(found.map(\.element) == ["volume"])
        #expect(found.first?.severity == .error)

        #expect(
            try findings(.adjustableWithoutValue, #"{"id": "volume", "label": "Volume", "traits": ["adjustable"], "value": "50%"}"#)
                .isEmpty)
        #expect(
            try findings(.adjustableWithoutValue, #"{"id": "rating", "label": "Rating", "adjustable": {"value": 3, "min": 1, "max": 5}}"#)
                .isEmpty)
        #expect(
            try findings(
                .adjustableWithoutValue,
                #"{"id": "w", "representation": {"control": "slider", "label": "Position", "adjustable": {"value": 1}}}"#
            ).isEmpty)
    }

    @Test func longValue() throws {
        let long = String(repeating: "x", count: 41)
        let found = try findings(.longValue, #"{"id": "sync", "label": "Sync", "value": "\#(long)"}"#)
        #expect(found.map(\.element) == ["sync"])
        #expect(found.first?.message.contains("41 characters (the limit is 40)") == true)

        let exact = String(repeating: "x", count: 40)
        #expect(try findings(.longValue, #"{"id": "sync", "label": "Sync", "value": "\#(exact)"}"#).isEmpty)
        // The limit is a parameter.
        let strict = try audit(#"{"id": "s", "label": "Sync", "value": "3 minutes ago"}"#, limits: AuditLimits(maxValueLength: 5))
        #expect(strict.map(\.rule) == [.longValue])
    }

    @Test func activationPointOutsideItsFrame() throws {
        let found = try findings(
            .activationPointOutside,
            #"{"id": "help", "label": "Help", "traits": ["link"], "frame": [16, 438, 120, 44], "activationPoint": [150, 22]}"#)
        #expect(found.map(\.element) == ["help"])
        #expect(found.first?.path == "root.children[0].activationPoint")
        #expect(found.first?.message.contains("[150, 22] lies outside its 120 x 44 frame") == true)

        #expect(
            try findings(
                .activationPointOutside,
                #"{"id": "help", "label": "Help", "traits": ["link"], "frame": [16, 438, 120, 44], "activationPoint": [110, 22]}"#
            ).isEmpty)
    }

    @Test func frameOutsideItsParent() throws {
        let found = try findings(.activationPointOutside, #"{"id": "banner", "label": "Offline", "frame": [-20, 0, 430, 48]}"#)
        #expect(found.map(\.path) == ["root.children[0].frame"])
        #expect(found.first?.message.contains(#"outside "root""#) == true)
        // A node without a frame is skipped: its children are compared with the nearest framed ancestor.
        let nested = try findings(
            .activationPointOutside,
            #"{"id": "group", "children": [{"id": "a", "label": "A", "frame": [380, 0, 40, 40]}, {"id": "b", "label": "B", "frame": [0, 0, 40, 40]}]}"#)
        #expect(nested.map(\.path) == ["root.children[0].children[0].frame"])

        #expect(try findings(.activationPointOutside, #"{"id": "banner", "label": "Offline", "frame": [0, 752, 400, 48]}"#).isEmpty)
        // Hidden nodes are never touched, so their geometry does not matter.
        #expect(
            try findings(.activationPointOutside, #"{"id": "banner", "label": "Offline", "hidden": true, "frame": [-20, 0, 430, 48]}"#)
                .isEmpty)
    }

    @Test func smallTarget() throws {
        let found = try findings(.smallTarget, #"{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 30, 44]}"#)
        #expect(found.map(\.element) == ["close"])
        #expect(found.first?.message == "30 x 44 pt is smaller than 44 x 44 pt")
        #expect(found.first?.severity == .warning)

        #expect(try findings(.smallTarget, #"{"id": "close", "label": "Close", "traits": ["button"], "frame": [0, 0, 44, 44]}"#).isEmpty)
        // Text is not a target.
        #expect(try findings(.smallTarget, #"{"id": "caption", "label": "Caption", "frame": [0, 0, 30, 12]}"#).isEmpty)
        // Children of an ignore element are not stops: only the wrapper is touched.
        #expect(
            try findings(
                .smallTarget,
                #"{"id": "rating", "label": "Rating", "childBehavior": "ignore", "adjustable": {"value": 1}, "frame": [0, 0, 200, 44], "children": [{"id": "star", "label": "star", "traits": ["button"], "frame": [0, 0, 20, 20]}]}"#
            ).isEmpty)
    }

    @Test func traitsOnCombinedChildren() throws {
        let found = try findings(
            .traitsOnCombinedChildren,
            #"{"id": "row", "childBehavior": "combine", "traits": ["button"], "children": [{"id": "title", "label": "Ann"}, {"id": "flag", "label": "flagged", "traits": ["selected", "button"]}]}"#)
        #expect(found.map(\.element) == ["flag"])
        #expect(found.first?.path == "root.children[0].children[1]")
        #expect(found.first?.message.contains(#"carries selected, which its combine wrapper "row" lacks"#) == true)
        #expect(found.first?.fix == #"add selected to "row" and remove it from this child"#)

        // The seed's favorites button: an icon's image trait inside a combined button is fine.
        #expect(
            try findings(
                .traitsOnCombinedChildren,
                #"{"id": "row", "childBehavior": "combine", "traits": ["button", "selected"], "children": [{"id": "icon", "traits": ["image"]}, {"id": "t", "label": "Favorites", "traits": ["selected"]}]}"#
            ).isEmpty)
        // An ignore element replaces its children on purpose (the five-star rating).
        #expect(
            try findings(
                .traitsOnCombinedChildren,
                #"{"id": "rating", "label": "Rating", "childBehavior": "ignore", "adjustable": {"value": 1}, "children": [{"id": "star", "label": "star", "traits": ["button"]}]}"#
            ).isEmpty)
    }

    @Test func hiddenSubtreeWithControls() throws {
        let found = try findings(
            .hiddenActionable,
            #"{"id": "drawer", "hidden": true, "children": [{"id": "settings", "label": "Settings", "traits": ["button"]}, {"id": "deco", "traits": ["image"], "hidden": true, "children": [{"id": "inner", "label": "Inner", "traits": ["button"]}]}]}"#)
        // Reported once, on the outermost hidden node; the nested hidden node stays hidden anyway.
        #expect(found.map(\.element) == ["drawer"])
        #expect(found.first?.path == "root.children[0].hidden")
        #expect(found.first?.message.contains(#"hides 1 actionable element ("settings")"#) == true)

        // Hidden decoration is what hiding is for (the seed's artwork and avatar).
        #expect(try findings(.hiddenActionable, #"{"id": "art", "label": "Artwork", "traits": ["image"], "hidden": true}"#).isEmpty)
        #expect(try loadAndAudit("player.json").isEmpty)
    }

    @Test func hiddenOrEmptyModal() throws {
        let hidden = try findings(.hiddenActionable, #"{"id": "sheet", "modal": true, "hidden": true}"#)
        #expect(hidden.map(\.path) == ["root.children[0].modal"])
        #expect(hidden.first?.message.contains("modal node is hidden") == true)
        let empty = try findings(
            .hiddenActionable, #"{"id": "sheet", "modal": true, "children": [{"id": "spacer", "frame": [0, 0, 10, 10]}]}"#)
        #expect(empty.map(\.element) == ["sheet"])
        #expect(empty.first?.message.contains("focus is trapped") == true)

        #expect(
            try findings(
                .hiddenActionable, #"{"id": "sheet", "modal": true, "children": [{"id": "ok", "label": "OK", "traits": ["button"]}]}"#
            ).isEmpty)
    }

    @Test func duplicateUtterance() throws {
        let found = try findings(
            .duplicateUtterance,
            #"{"id": "d1", "label": "Delete", "traits": ["button"]}, {"id": "d2", "label": "Delete", "traits": ["button"]}, {"id": "d3", "label": "Delete", "traits": ["button"]}"#)
        #expect(found.map(\.element) == ["d2", "d3"])
        #expect(found.first?.message.contains(#"speaks "Delete, button", exactly like "d1" (stop 1)"#) == true)

        #expect(
            try findings(
                .duplicateUtterance,
                #"{"id": "d1", "label": "Delete message from Ann", "traits": ["button"]}, {"id": "d2", "label": "Delete message from Ben", "traits": ["button"]}"#
            ).isEmpty)
        // Same label, different traits: they sound different.
        #expect(
            try findings(.duplicateUtterance, #"{"id": "a", "label": "Library", "traits": ["header"]}, {"id": "b", "label": "Library", "traits": ["tab"]}"#)
                .isEmpty)
    }

    @Test func emptyRotor() throws {
        let found = try findings(
            .emptyRotor, #"{"id": "a", "label": "A"}"#, extra: #""title": "x","#)
        #expect(found.isEmpty)
        let t = try decode(
            #"{"tree": "t", "root": {"id": "root", "rotors": [{"name": "Unread", "targets": ["a"]}, {"name": "Flagged", "targets": []}], "children": [{"id": "a", "label": "A"}]}}"#)
        let report = AccessibilityTree(document: t).audit()
        #expect(report.findings.map(\.rule) == [.emptyRotor])
        #expect(report.findings.first?.path == "root.rotors[1]")
        #expect(report.findings.first?.message.contains(#"rotor "Flagged" has no targets"#) == true)
    }

    @Test func rotorTargetMissing() throws {
        let t = try decode(
            #"{"tree": "t", "root": {"id": "root", "rotors": [{"name": "Unread", "targets": ["inbox", "inbx", "gone", "pad"]}], "children": [{"id": "inbox", "label": "Inbox"}, {"id": "gone", "label": "Gone", "hidden": true}, {"id": "pad", "frame": [0, 0, 1, 1]}]}}"#)
        let found = AccessibilityTree(document: t).audit().findings
        #expect(found.map(\.rule) == [.rotorTargetMissing, .rotorTargetMissing, .rotorTargetMissing])
        #expect(found.map(\.path) == ["root.rotors[0].targets[1]", "root.rotors[0].targets[2]", "root.rotors[0].targets[3]"])
        #expect(found[0].message.contains(#"did you mean "inbox"?"#))
        #expect(found[1].message.contains("is hidden"))
        #expect(found[2].message.contains("neither an element nor a container"))
        // The seed's Unread rotor names two stops.
        #expect(try loadAndAudit("favorites.json").isEmpty)
    }

    @Test func labelContainsTrait() throws {
        let found = try findings(.labelContainsTrait, #"{"id": "play", "label": "Play button", "traits": ["button"]}"#)
        #expect(found.map(\.element) == ["play"])
        #expect(found.first?.message.contains(#""Play button, button""#) == true)
        #expect(try findings(.labelContainsTrait, #"{"id": "home", "label": "Home tab", "traits": ["tab"]}"#).count == 1)
        #expect(try findings(.labelContainsTrait, #"{"id": "wifi", "label": "Wi-Fi switch", "traits": ["toggle"]}"#).count == 1)
        // The tree's language counts: "Taste" is German for button.
        #expect(
            try findings(.labelContainsTrait, #"{"id": "p", "label": "Abspielen Taste", "traits": ["button"]}"#, extra: #""language": "de","#)
                .count == 1)

        // Whole words only, and only for traits the element has.
        #expect(try findings(.labelContainsTrait, #"{"id": "b", "label": "Buttonhole settings", "traits": ["button"]}"#).isEmpty)
        #expect(try findings(.labelContainsTrait, #"{"id": "b", "label": "Link account", "traits": ["button"]}"#).isEmpty)
    }

    @Test func desktopControlsNeedLabelsAndSayTheirOwnRole() throws {
        for trait in ["checkBox", "radioButton", "comboBox", "textField", "menuItem"] {
            #expect(try findings(.unlabelledControl, #"{"id": "c", "traits": ["\#(trait)"], "frame": [0, 0, 60, 60]}"#).count == 1, "\(trait)")
        }
        #expect(try findings(.labelContainsTrait, #"{"id": "c", "label": "Remember me check box", "traits": ["checkBox"]}"#).count == 1)
        #expect(try findings(.labelContainsTrait, #"{"id": "c", "label": "Remember me checkbox", "traits": ["checkBox"]}"#).count == 1)
        // A check box that is also a button says "check box", not "button": a label naming a button repeats nothing.
        #expect(try findings(.labelContainsTrait, #"{"id": "c", "label": "Back button", "traits": ["checkBox", "button"]}"#).isEmpty)
    }
}

func loadAndAudit(_ example: String) throws -> [AuditFinding] {
    AccessibilityTree(document: try loadExample(example)).audit().findings
}
