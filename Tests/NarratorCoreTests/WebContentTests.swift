@testable import NarratorModel
import Testing

/// What a web page needs of a tree: headings say their level, the controls rotor moves over a
/// form's fields and buttons (and exists only where there is a field to fill in).
@Suite struct WebContentTests {
    static let page = document(#"""
        {"id": "h1", "label": "Welcome", "traits": ["header"], "headingLevel": 1, "frame": [0, 0, 400, 40]},
        {"id": "intro", "label": "This page tests what a screen reader says.", "traits": ["staticText"], "frame": [0, 40, 400, 20]},
        {"id": "docs", "label": "Read the docs", "traits": ["link"], "frame": [0, 60, 400, 20]},
        {"id": "h2", "label": "Sign in", "traits": ["header"], "headingLevel": 2, "frame": [0, 80, 400, 40]},
        {"id": "email", "label": "Email", "traits": ["textField"], "frame": [0, 120, 400, 20]},
        {"id": "remember", "label": "Remember me", "traits": ["checkBox"], "value": "0", "frame": [0, 140, 400, 20]},
        {"id": "send", "label": "Send", "traits": ["button"], "frame": [0, 160, 400, 20]}
        """#)

    @Test("a heading says its level after its name; without one, only that it is a heading")
    func headingLevels() throws {
        let said = utterances(AccessibilityTree(document: try decode(Self.page)))
        #expect(said.first == "Welcome, heading level 1")
        #expect(said.contains("Sign in, heading level 2"))
        let plain = try tree(#"{"id": "h", "label": "News", "traits": ["header"], "frame": [0, 0, 10, 10]}"#)
        #expect(utterances(plain) == ["News, heading"])
    }

    @Test("a heading level outside 1 to 6 is refused, naming the node's path")
    func badLevelsAreRefused() {
        #expect(problems(document(#"{"id": "h", "label": "H", "traits": ["header"], "headingLevel": 7}"#)).contains { $0.contains("headingLevel") && $0.contains("children[0]") })
        #expect(problems(document(#"{"id": "h", "label": "H", "traits": ["header"], "headingLevel": "2"}"#)).contains { $0.contains("headingLevel") })
    }

    @Test("the controls rotor holds a form's field, check box and button in reading order, and moves over them")
    func controlsRotor() throws {
        var w = Workspace()
        w.register(try decode(Self.page))
        _ = try w.focus(tree: "t", element: "h1")
        let rotors = try w.rotors()
        #expect(rotors.map(\.name) == ["headings", "links", "controls", "buttons", "text-fields", "check-boxes", "headings-1", "headings-2"])
        #expect(rotors.first { $0.name == "controls" }?.items == ["email", "remember", "send"])
        guard case .moved(let field) = try w.rotor("controls", .next) else { Issue.record("no move"); return }
        #expect(field.focus.element == "email")
        guard case .moved(let box) = try w.rotor("controls", .next) else { Issue.record("no move"); return }
        #expect(box.utterance.text == "Remember me, not checked, check box")
    }

    @Test("a tree with buttons but nothing to fill in has no controls rotor")
    func noFieldNoControlsRotor() throws {
        var w = Workspace()
        w.register(try decode(document(#"{"id": "a", "label": "Play", "traits": ["button"], "frame": [0, 0, 10, 10]}"#)))
        _ = try w.focus(tree: "t")
        #expect(try w.rotors().map(\.name).contains("controls") == false)
    }
}
