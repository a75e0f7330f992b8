import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// Actions on the focused element: the ones the daemon carries out itself, and the ones it hands
/// to the app that owns the tree (as an event on the owner's connection).
@Suite struct ActionTests {
    @Test func adjustingADeclarativeValueSpeaksTheValueAndTellsTheOwner() throws {
        var h = Harness()
        let app = h.client(pid: 50)
        try h.register(app, example: "player.json")
        let user = h.client(pid: 60)
        h.request(user, .focus(tree: "player", element: "rating"))
        let up = h.request(user, .adjust(.up))
        let rating = Focus(tree: "player", element: "rating")
        #expect(
            up == [
                .stopSpeech(UtteranceID(1)),
                .appendLog(
                    LogRow(
                        utterance: 1, kind: .focus, text: "Now Playing, rating, 3, adjustable", tree: "player", element: "rating", queuedAt: 1_700_000_005,
                        startedAt: 1_700_000_005, endedAt: 1_700_000_005, outcome: .ended(.interrupted), interruptedBy: .speech(.value)), nil),
                .send(app, .event(.value(ValueChange(tree: "player", element: "rating", value: 4, spoken: "4")))),
                .send(user, .reply(Reply(id: 3, .success(.adjusted(AdjustReport(utterance: "4", focus: rating, value: 4, boundary: false)))))),
                // Handed to the player as the batch (this one request) ends.
                play(2, .value, "4", language: "en"),
            ])
        h.request(user, .adjust(.up))
        let top = h.request(user, .adjust(.up))
        #expect(top.body(to: user) == .adjusted(AdjustReport(utterance: "5", focus: rating, value: 5, boundary: true)))
        // The tree keeps the new value: showing it reads 5.
        let stops = try #require(h.request(user, .show(tree: "player")).body(to: user)?.stops)
        #expect(stops.first { $0.id == "rating" }?.utterance.text == "rating, 5, adjustable")
    }

    @Test func activateSendsTheActionWithItsPointToTheOwner() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        let user = h.client()
        h.request(user, .focus(tree: "player", element: "play"))
        let activate = h.request(user, .activate)
        let play = Focus(tree: "player", element: "play")
        #expect(
            activate == [
                .send(app, .event(.action(OwnerAction(tree: "player", element: "play", action: "activate", point: Point(x: 195, y: 610))))),
                .send(user, .reply(Reply(id: 3, .success(.delivered(Delivery(action: "activate", element: "play", focus: play)))))),
            ])
        let named = h.request(user, .action(name: "repeat"))
        #expect(named.events(to: app) == [.action(OwnerAction(tree: "player", element: "play", action: "repeat"))])
        #expect(h.request(user, .action(name: "rpeat")).error(to: user)?.message.contains(#"did you mean "repeat"?"#) == true)
    }

    @Test func magicTapAndEscapeGoToTheNearestAncestorThatHandlesThem() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        h.request(app, .focus(tree: "player", element: "next"))
        let tap = h.request(app, .magicTap)
        #expect(tap.events(to: app) == [.action(OwnerAction(tree: "player", element: "root", action: "magicTap"))])
        #expect(tap.replies(to: app).map(\.outcome) == [.success(.delivered(Delivery(action: "magicTap", element: "root", focus: Focus(tree: "player", element: "next"))))])
    }

    @Test func anActionForAnAppThatHasGoneFailsWithOwnerGone() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        h.feed(.disconnected(app))
        let user = h.client()
        h.request(user, .focus(tree: "player", element: "play"))
        let activate = h.request(user, .activate)
        #expect(
            activate.error(to: user)
                == ReplyError(
                    .ownerGone,
                    #"the app that registered tree "player" has disconnected, so nothing can perform activate on "play"; the app must register the tree again (from a shell, narratorctl register --follow FILE stays connected as its owner)"#))
        #expect(activate.events(to: app).isEmpty)
        // A declarative value still changes without its owner: the daemon needs no app for it.
        h.request(user, .focus(tree: "player", element: "rating"))
        #expect(h.request(user, .adjust(.down)).body(to: user) == .adjusted(AdjustReport(utterance: "2", focus: Focus(tree: "player", element: "rating"), value: 2, boundary: false)))
    }

    @Test func anAppAnswersAnActionWithAnUpdateThatIsSpokenWhenAsked() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, json: #"{"tree": "t", "root": {"id": "r", "children": [{"id": "vol", "label": "Volume", "value": "3", "traits": ["adjustable"]}]}}"#)
        h.request(app, .focus(tree: "t", element: "vol"))
        let up = h.request(app, .adjust(.up))
        #expect(up.events(to: app) == [.action(OwnerAction(tree: "t", element: "vol", action: "increment"))])
        let update = h.request(app, .update(tree: "t", update: .setProperties(element: "vol", properties: ["value": "4"]), announce: true, notify: nil))
        #expect(update.played == ["4"])
        #expect(update.body(to: app) == .updated(UpdateReport(tree: "t", element: "vol", spokenValue: "4")))
        // Without "announce" the change is silent.
        let quiet = h.request(app, .update(tree: "t", update: .setProperties(element: "vol", properties: ["value": "5"]), announce: false, notify: nil))
        #expect(quiet.played.isEmpty)
    }

    @Test("typing into the focused field says what was typed or deleted, not the whole text again")
    func typingIsEchoedNotReread() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, json: #"{"tree": "t", "root": {"id": "r", "children": [{"id": "name", "label": "Name", "value": "Ada", "traits": ["textField"], "selectedTextRange": [0, 3]}, {"id": "vol", "label": "Volume", "value": "3", "traits": ["adjustable"]}]}}"#)
        h.request(app, .focus(tree: "t", element: "name"))
        func typed(_ properties: JSONValue) -> [String] {
            h.request(app, .update(tree: "t", update: .setProperties(element: "name", properties: properties), announce: true, notify: nil)).played
        }
        // The selection replaced by a key: the key.
        #expect(typed(["value": "B", "selectedTextRange": .null]) == ["B"])
        #expect(typed(["value": "Bo"]) == ["o"])
        #expect(typed(["value": "Bo b"]) == ["b"])
        #expect(typed(["value": "Bo "]) == ["b deleted"])
        #expect(typed(["value": "Bo  "]) == ["space"])
        // A paste in the middle: what was pasted.
        #expect(typed(["value": "Bo and Al  "]) == ["and Al"])
        // Emptied: what went.
        #expect(typed(["value": .null]) == ["Bo and Al deleted"])
        #expect(typed(["value": "Ada"]) == ["Ada"])
        // The same value confirmed says nothing; a field not focused says nothing.
        #expect(typed(["value": "Ada"]) == [])
        h.request(app, .focus(tree: "t", element: "vol"))
        #expect(typed(["value": "Adam"]) == [])
    }

    @Test func removingTheFocusedElementMovesFocusToTheNearestAndSpeaksIt() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        h.request(app, .focus(tree: "player", element: "play"))
        let removed = h.request(app, .update(tree: "player", update: .remove(element: "play"), announce: false, notify: nil))
        let report = try #require(removed.body(to: app)?.updated)
        #expect(report.focus?.focus == Focus(tree: "player", element: "next"))
        #expect(removed.played == ["Next track, button"])
    }
}
