import NarratorModel
import Testing

/// A `value` set on an element that speaks a declarative value is refused, never dropped silently.
@Suite struct DeclarativeValueTests {
    @Test func settingTheValueOfAnAdjustableIsRefusedWithWhatToSetInstead() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        h.request(app, .focus(tree: "player", element: "rating"))
        let update = h.request(
            app, .update(tree: "player", update: .setProperties(element: "rating", properties: ["value": "five stars"]), announce: true, notify: nil))
        let error = update.error(to: app)
        #expect(error?.code == .invalidDocument)
        #expect(
            error?.problems == [
                DocumentProblem(
                    path: "set.value",
                    message: #"this element's value is declarative (its "adjustable" block), so a "value" would never be spoken; set the block instead, e.g. {"adjustable": {"value":4,"min":1,"max":5}}"#)
            ])
        #expect(update.played.isEmpty)
        // The way out it names works, and is spoken.
        let block = h.request(
            app,
            .update(
                tree: "player", update: .setProperties(element: "rating", properties: ["adjustable": ["value": 4, "min": 1, "max": 5]]), announce: true,
                notify: nil))
        #expect(block.played == ["4"])
        // The owner confirming the value it already says (a mirrored slider following an adjust)
        // says nothing twice; a new value is spoken again.
        let same = h.request(
            app,
            .update(
                tree: "player", update: .setProperties(element: "rating", properties: ["adjustable": ["value": 4, "min": 1, "max": 5, "step": 1]]),
                announce: true, notify: nil))
        #expect(same.played.isEmpty)
        let next = h.request(
            app,
            .update(
                tree: "player", update: .setProperties(element: "rating", properties: ["adjustable": ["value": 5, "min": 1, "max": 5]]), announce: true,
                notify: nil))
        #expect(next.played == ["5"])
    }

    @Test func aRepresentationsAdjustableAndValueAreNamedToo() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        let slider = h.request(app, .update(tree: "player", update: .setProperties(element: "waveform", properties: ["value": "2:00"]), announce: false, notify: nil))
        #expect(slider.error(to: app)?.problems.first?.message.contains(#"its representation's "adjustable" block"#) == true)
        try h.register(app, json: #"{"tree": "t", "root": {"id": "r", "children": [{"id": "s", "representation": {"control": "toggle", "label": "Wi-Fi", "value": "on"}}]}}"#)
        let toggle = h.request(app, .update(tree: "t", update: .setProperties(element: "s", properties: ["value": "off"]), announce: false, notify: nil))
        #expect(toggle.error(to: app)?.problems.map(\.path) == ["set.value"])
        // Clearing the block in the same update makes the value the one spoken: accepted.
        let both = h.request(
            app, .update(tree: "player", update: .setProperties(element: "rating", properties: ["value": "five stars", "adjustable": .null]), announce: false, notify: nil))
        #expect(both.body(to: app) != nil)
    }
}
