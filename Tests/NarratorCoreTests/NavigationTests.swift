@testable import NarratorModel
import Testing

@Suite struct NavigationTests {
    func workspace(_ files: String...) throws -> Workspace {
        var w = Workspace()
        for file in files { w.register(try loadExample(file)) }
        return w
    }

    @Test func nextAndPreviousStopAtTheEnds() throws {
        var w = try workspace("segmented.json")
        let first = try w.focus(tree: "quality")
        #expect(first.focus.element == "low")
        #expect(first.title == "Stream quality")
        #expect(first.spokenText == "Stream quality, Low, button")
        #expect(try w.move(.previous).boundary)
        #expect(w.focus?.element == "low")
        #expect(try w.move(.next).utterance.text == "selected, Medium, button")
        #expect(try w.move(.last).focus.element == "high")
        let end = try w.move(.next)
        #expect(end.boundary && end.focus.element == "high" && end.title == nil)
        #expect(try w.move(.first).focus.element == "low")
    }

    @Test func titleIsSpokenOnlyWhenEnteringAnotherTree() throws {
        var w = try workspace("segmented.json", "profile.json")
        #expect(try w.focus(tree: "quality").title == "Stream quality")
        #expect(try w.move(.next).title == nil)
        #expect(try w.focus(tree: "profile").title == "Profile")
        // Returning resumes at the element last focused there.
        let back = try w.focus(tree: "quality")
        #expect(back.focus.element == "medium" && back.title == "Stream quality")
    }

    @Test func focusErrorsNameTheProblem() throws {
        var w = try workspace("player.json")
        #expect(throws: NarratorError.hiddenElement(tree: "player", element: "artwork")) { try w.focus(tree: "player", element: "artwork") }
        #expect(throws: NarratorError.unknownElement(tree: "player", element: "ratng", suggestion: "rating")) {
            try w.focus(tree: "player", element: "ratng")
        }
        #expect(throws: NarratorError.unknownTree("playr", suggestion: "player")) { try w.focus(tree: "playr") }
        #expect(throws: NarratorError.noFocus) { try w.move(.next) }
        #expect(NarratorError.unknownElement(tree: "player", element: "ratng", suggestion: "rating").message
            == #"tree "player" has no element "ratng"; did you mean "rating"?"#)
    }

    @Test func focusOnAnIdInsideACombinedElement() throws {
        var w = try workspace("player.json")
        #expect(try w.focus(tree: "player", element: "star-2").focus.element == "rating")
        // A container focuses its first stop.
        #expect(try w.focus(tree: "player", element: "controls").focus.element == "previous")
    }

    @Test func touchFocusesTheElementAtAPoint() throws {
        var w = try workspace("segmented.json")
        _ = try w.focus(tree: "quality")
        #expect(try w.touch(x: 130, y: 120).focus.element == "medium")
        #expect(try w.touch(x: 20, y: 100).focus.element == "low")
        #expect(throws: NarratorError.noTarget(x: 5, y: 5, tree: "quality")) { try w.touch(x: 5, y: 5) }
    }

    @Test func activationAndNamedActionsGoToTheOwner() throws {
        var w = try workspace("player.json")
        _ = try w.focus(tree: "player", element: "play")
        // Play's frame is [125, 0, 100, 60] inside controls at [20, 580]: its centre on screen.
        #expect(try w.activate() == OwnerAction(tree: "player", element: "play", action: "activate", point: Point(x: 195, y: 610)))
        #expect(try w.actions() == ["skip", "repeat"])
        #expect(try w.perform(action: "repeat") == OwnerAction(tree: "player", element: "play", action: "repeat"))
        #expect(throws: NarratorError.unknownAction("skp", tree: "player", element: "play", available: ["skip", "repeat"])) {
            try w.perform(action: "skp")
        }
        _ = try w.focus(tree: "player", element: "next")
        #expect(throws: NarratorError.noActions(tree: "player", element: "next")) { try w.perform(action: "skip") }
        #expect(throws: NarratorError.notAdjustable(tree: "player", element: "next")) { try w.adjust(.up) }
    }

    @Test func magicTapAndEscapeRouteToTheNearestHandler() throws {
        var w = try workspace("player.json", "segmented.json")
        _ = try w.focus(tree: "player", element: "next")
        #expect(try w.route(.magicTap) == OwnerAction(tree: "player", element: "root", action: "magicTap"))
        #expect(try w.route(.escape) == OwnerAction(tree: "player", element: "root", action: "escape"))
        _ = try w.focus(tree: "quality")
        #expect(throws: NarratorError.noHandler(action: "magic tap", tree: "quality", element: "low")) { try w.route(.magicTap) }
    }

    @Test func activationPointIsInScreenSpace() throws {
        var w = Workspace()
        w.register(try decode(document(#"{"id": "g", "frame": [10, 20, 100, 100], "children": [{"id": "b", "label": "B", "frame": [5, 5, 40, 40], "activationPoint": [2, 3]}, {"id": "n", "label": "No frame"}]}"#)))
        _ = try w.focus(tree: "t", element: "b")
        #expect(try w.activate().point == Point(x: 17, y: 28))
        _ = try w.focus(tree: "t", element: "n")
        #expect(try w.activate().point == nil)
    }

    @Test func nonDeclarativeAdjustableIsDelegated() throws {
        var w = Workspace()
        w.register(try decode(document(#"{"id": "pager", "label": "Page", "value": "1 of 3", "traits": ["adjustable"]}"#)))
        _ = try w.focus(tree: "t")
        #expect(try w.adjust(.down) == .delegated(OwnerAction(tree: "t", element: "pager", action: "decrement")))
    }

    @Test func builtInAndCustomRotors() throws {
        var w = try workspace("favorites.json")
        _ = try w.focus(tree: "library")
        let rotors = try w.rotors()
        #expect(rotors.map(\.name) == ["headings", "links", "buttons", "Unread"])
        #expect(try w.rotor("Unread", .next) == .moved(try w.focus(tree: "library", element: "inbox")))
        _ = try w.focus(tree: "library", element: "heading")
        guard case .moved(let inbox) = try w.rotor("Unread", .next) else { Issue.record("no move"); return }
        #expect(inbox.focus.element == "inbox")
        guard case .moved(let updates) = try w.rotor("Unread", .next) else { Issue.record("no move"); return }
        #expect(updates.focus.element == "updates")
        // Past the last target the rotor goes round to the first and says so; back again, to the last.
        guard case .moved(let round) = try w.rotor("Unread", .next) else { Issue.record("no move"); return }
        #expect(!round.boundary && round.focus.element == "inbox")
        #expect(round.spokenText == "wrapped to top, " + round.utterance.text)
        guard case .moved(let back) = try w.rotor("Unread", .previous) else { Issue.record("no move"); return }
        #expect(back.focus.element == "updates" && back.spokenText == "wrapped to bottom, " + back.utterance.text)
        guard case .moved(let forth) = try w.rotor("Unread", .previous) else { Issue.record("no move"); return }
        #expect(forth.focus.element == "inbox" && forth.spokenText == forth.utterance.text)
        guard case .moved(let link) = try w.rotor("links", .next) else { Issue.record("no move"); return }
        #expect(link.utterance.text == "Help, link")
        // The only link, focused: past it the rotor goes round to it again and says so, not nothing.
        guard case .moved(let again) = try w.rotor("links", .next) else { Issue.record("no move"); return }
        #expect(!again.boundary && again.focus.element == link.focus.element && again.spokenText == "wrapped to top, Help, link")
        #expect(throws: NarratorError.unknownRotor("unred", available: ["headings", "links", "buttons", "Unread"])) { try w.rotor("unred", .next) }
    }

    /// A page's structural rotors: its buttons, fields, check boxes and headings by level, each
    /// with only the stops of that kind, listed only when there are any.
    @Test func structuralRotorsHoldTheStopsOfTheirKind() throws {
        let json = """
            {"tree": "page", "root": {"id": "root", "children": [
              {"id": "h1", "label": "Regatta", "traits": ["header"], "headingLevel": 1},
              {"id": "p", "label": "Boats race on Saturday."},
              {"id": "h2", "label": "Entry", "traits": ["header"], "headingLevel": 2},
              {"id": "name", "label": "Boat name", "traits": ["textField"]},
              {"id": "agree", "label": "I agree", "traits": ["checkBox"], "value": "0"},
              {"id": "send", "label": "Send", "traits": ["button"]},
              {"id": "h2b", "label": "Results", "traits": ["header"], "headingLevel": 2}
            ]}}
            """
        var w = Workspace()
        w.register(try decode(json))
        _ = try w.focus(tree: "page", element: "h1")
        let rotors = try w.rotors()
        let structure = rotors.filter { $0.kind == .structure }
        #expect(structure.map(\.name) == ["buttons", "text-fields", "check-boxes", "headings-1", "headings-2"])
        #expect(structure.first { $0.name == "headings-2" }?.items == ["h2", "h2b"])
        guard case .moved(let entry) = try w.rotor("headings-2", .next) else { Issue.record("no move"); return }
        #expect(entry.focus.element == "h2")
        guard case .moved(let box) = try w.rotor("check-boxes", .next) else { Issue.record("no move"); return }
        #expect(box.focus.element == "agree")
        #expect(throws: NarratorError.self) { try w.rotor("radio-buttons", .next) }
    }

    /// A rotor turned `within` an element (a page's document) moves only over the targets in it:
    /// the browser's own buttons are never browse mode's.
    @Test func aRotorWithinAnElementStaysInIt() throws {
        let json = """
            {"tree": "browser", "root": {"id": "root", "children": [
              {"id": "back", "label": "Back", "traits": ["button"]},
              {"id": "doc", "children": [
                {"id": "title", "label": "Regatta", "traits": ["header"], "headingLevel": 1},
                {"id": "send", "label": "Send", "traits": ["button"]}
              ]},
              {"id": "menu", "label": "Menu", "traits": ["button"]}
            ]}}
            """
        var w = Workspace()
        w.register(try decode(json))
        _ = try w.focus(tree: "browser", element: "title")
        guard case .moved(let send) = try w.rotor("buttons", .next, within: "doc") else { Issue.record("no move"); return }
        #expect(send.focus.element == "send")
        // Past it, round to the page's only button again, not the menu or Back.
        guard case .moved(let again) = try w.rotor("buttons", .next, within: "doc") else { Issue.record("no move"); return }
        #expect(again.focus.element == "send" && again.spokenText == "wrapped to top, Send, button")
        guard case .moved(let menu) = try w.rotor("buttons", .next) else { Issue.record("no move"); return }
        #expect(menu.focus.element == "menu")
        // None inside: as if the rotor had none.
        _ = try w.focus(tree: "browser", element: "title")
        #expect(throws: NarratorError.self) { try w.rotor("headings", .next, within: "back") }
    }

    @Test func actionsRotorPicksAnActionThatActivatePerforms() throws {
        var w = try workspace("player.json")
        _ = try w.focus(tree: "player", element: "play")
        #expect(try w.rotors().map(\.name) == ["headings", "buttons", "actions"])
        #expect(try w.rotor("actions", .next) == .selectedAction(name: "skip", focus: Focus(tree: "player", element: "play")))
        #expect(try w.rotor("actions", .next) == .selectedAction(name: "repeat", focus: Focus(tree: "player", element: "play")))
        #expect(try w.activate().action == "repeat")
        _ = try w.move(.next)
        _ = try w.move(.previous)
        #expect(try w.activate().action == "activate")
    }
}
