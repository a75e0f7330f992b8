@testable import NarratorModel
import Testing

@Suite struct UpdateTests {
    func workspace() throws -> Workspace {
        var w = Workspace()
        w.register(try loadExample("player.json"))
        return w
    }

    @Test func setPropertiesChangesWhatIsSpoken() throws {
        var w = try workspace()
        _ = try w.focus(tree: "player", element: "play")
        let moved = try w.update(tree: "player", .setProperties(element: "play", properties: ["label": "Pause", "hint": "Pauses"]))
        #expect(moved == nil)
        #expect(try w.focus(tree: "player", element: "play").utterance == Utterance(text: "Pause, button", hint: "Pauses, actions available"))
        _ = try w.update(tree: "player", .setProperties(element: "play", properties: ["hint": nil, "actions": nil]))
        #expect(try w.focus(tree: "player", element: "play").utterance.hint == nil)
    }

    @Test func rarePropertiesSetAndClearedLeaveTheElementAsItWas() throws {
        var w = try workspace()
        let before = try w.tree("player")
        _ = try w.update(
            tree: "player",
            .setProperties(element: "title", properties: [
                "actions": ["copy"], "activationPoint": [1, 2], "rotors": [["name": "Links", "targets": ["play"]]],
                "adjustable": ["value": 1],
            ]))
        let set = try w.tree("player").node("title")
        #expect(set?.actions == ["copy"])
        #expect(set?.activationPoint == Point(x: 1, y: 2))
        #expect(set?.rotors == [CustomRotor(name: "Links", targets: ["play"])])
        #expect(set?.adjustable?.value == 1)
        // A copy of the tree taken before keeps its own values.
        #expect(before.node("title")?.actions == [])
        #expect(before.node("title")?.adjustable == nil)
        _ = try w.update(
            tree: "player",
            .setProperties(element: "title", properties: ["actions": nil, "activationPoint": nil, "rotors": nil, "adjustable": nil]))
        #expect(try w.tree("player").document == before.document)
        #expect(try w.focus(tree: "player", element: "title").utterance == Utterance(text: "Now Playing, heading", hint: nil))
    }

    @Test func badPropertiesAreRejectedWithPathsAndLeaveTheTree() throws {
        var w = try workspace()
        #expect {
            try w.update(tree: "player", .setProperties(element: "play", properties: ["lable": "x", "frame": [1, 2]]), path: [.key("set")])
        } throws: {
            ($0 as? NarratorError) == .invalidDocument(.invalid([
                DocumentProblem(path: "set.lable", message: #"unknown key; did you mean "label"?"#),
                DocumentProblem(path: "set.frame", message: "expected 4 numbers, got 2"),
            ]))
        }
        #expect(try w.focus(tree: "player", element: "play").utterance.text == "Play, button")
        #expect(throws: NarratorError.unknownElement(tree: "player", element: "plya", suggestion: "play")) {
            try w.update(tree: "player", .remove(element: "plya"))
        }
        #expect(throws: NarratorError.cannotRemoveRoot(tree: "player")) { try w.update(tree: "player", .remove(element: "root")) }
    }

    @Test func replaceChildren() throws {
        var w = try workspace()
        _ = try w.update(
            tree: "player",
            .replaceChildren(element: "controls", children: [
                .object(JSONObject(["id": "stop", "label": "Stop", "traits": ["button"]])),
                .object(JSONObject(["id": "play", "label": "Play", "traits": ["button"]])),
            ]))
        let stops = try w.stops(of: "player").map(\.id)
        #expect(stops == ["title", "waveform", "rating", "stop", "play"])
        // Ids elsewhere in the tree cannot be reused.
        #expect {
            try w.update(tree: "player", .replaceChildren(element: "controls", children: [.object(JSONObject(["id": "rating"]))]), path: [.key("children")])
        } throws: {
            ($0 as? NarratorError)?.message == #"children[0].id: id "rating" is already used elsewhere in the tree"#
        }
    }

    @Test func focusMovesToTheNearestStopWhenItsElementDisappears() throws {
        var w = try workspace()
        _ = try w.focus(tree: "player", element: "play")
        let moved = try w.update(tree: "player", .remove(element: "play"))
        #expect(moved?.focus.element == "next")
        #expect(moved?.title == nil)
        #expect(w.focus == Focus(tree: "player", element: "next"))
        // The last stop goes: focus moves back to the one before.
        let back = try w.update(tree: "player", .remove(element: "next"))
        #expect(back?.focus.element == "previous")
        // Hiding the focused element's container also moves focus.
        let hidden = try w.update(tree: "player", .setProperties(element: "controls", properties: ["hidden": true]))
        #expect(hidden?.focus.element == "rating")
    }

    @Test func manyUpdatesCompactTheTree() throws {
        var w = try workspace()
        for round in 0..<200 {
            let kids: [JSONValue] = (0..<3).map { .object(JSONObject(["id": .string("b\(round)-\($0)"), "label": .string("B\($0)")])) }
            _ = try w.update(tree: "player", .replaceChildren(element: "controls", children: .array(kids)))
        }
        let tree = try w.tree("player")
        #expect(tree.nodeCount == 15)
        #expect(tree.nodes.count < 15 + 200)
        #expect(try w.stops(of: "player").map(\.id).suffix(3) == ["b199-0", "b199-1", "b199-2"])
    }
}
