import Foundation
import NarratorModel
import Testing

/// The seed examples, end to end: a real daemon, an app that owns its tree over the socket,
/// and narratorctl as the user's hands.
@Suite struct SeedScenarioTests {
    @Test func ratingFocusAdjustAndTheOwnerHearsOfIt() throws {
        let daemon = try DaemonHarness()
        let app = try daemon.client()
        let registered = try app.request(["cmd": "register", "document": try loadExample("player.json")])
        #expect(registered["ok"] == true)
        #expect(registered["stops"] == 6)

        let focus = try daemon.ctl("focus", "player", "rating")
        #expect(focus.status == 0)
        #expect(focus.stdout == "Now Playing, rating, 3, adjustable\n")
        #expect(try daemon.ctl("adjust", "up").stdout == "4\n")
        // The daemon changed the declarative value itself and told the owner.
        let event = try app.nextEvent()
        #expect(event == ["event": "value", "tree": "player", "element": "rating", "value": 4, "spoken": "4"])
        _ = try daemon.ctl("adjust", "up")
        let atTop = try daemon.ctl("--json", "adjust", "up")
        let reply = try JSONParser().parse(atTop.stdout)
        #expect(reply["utterance"] == "5")
        #expect(reply["boundary"] == true)
    }

    @Test func waveformScrubberSpeaksAsASlider() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("register", "examples/player.json").status == 0)
        let focus = try daemon.ctl("--json", "focus", "player", "waveform")
        let reply = try JSONParser().parse(focus.stdout)
        #expect(reply["utterance"] == "Now Playing, Playback position, 1:05, adjustable")
        #expect(reply["hint"] == "Swipe up or down to move through the track")
        #expect(reply["focus"] == ["tree": "player", "element": "waveform"])
        #expect(try daemon.ctl("adjust", "down").stdout == "1:04\n")
        // Moving on within the same tree does not repeat the title.
        #expect(try daemon.ctl("next").stdout == "rating, 3, adjustable\n")
    }

    @Test func touchOnTheSegmentedControl() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.ctl("register", "examples/segmented.json")
        _ = try daemon.ctl("focus", "quality")
        let touch = try daemon.ctl("--json", "touch", "130", "120")
        let reply = try JSONParser().parse(touch.stdout)
        #expect(reply["utterance"] == "selected, Medium, button")
        #expect(reply["focus"] == ["tree": "quality", "element": "medium"])
        let miss = try daemon.ctl("touch", "5", "5")
        #expect(miss.status == 1)
        #expect(miss.stderr.contains("no element of tree \"quality\" is at (5, 5)"))
    }

    @Test func magicTapAndEscapeAreRoutedToTheAncestorThatHandlesThem() throws {
        let daemon = try DaemonHarness()
        let app = try daemon.client()
        _ = try app.request(["cmd": "register", "document": try loadExample("player.json")])
        _ = try daemon.ctl("focus", "player", "next")
        let tap = try daemon.ctl("magic-tap")
        #expect(tap.status == 0)
        #expect(tap.stdout == "sent magicTap to root\n")
        #expect(try app.nextEvent() == ["event": "action", "tree": "player", "element": "root", "action": "magicTap"])
        _ = try daemon.ctl("escape")
        #expect(try app.nextEvent() == ["event": "action", "tree": "player", "element": "root", "action": "escape"])
    }

    @Test func activateAndNamedActionsReachTheOwner() throws {
        let daemon = try DaemonHarness()
        let app = try daemon.client()
        _ = try app.request(["cmd": "register", "document": try loadExample("player.json")])
        _ = try daemon.ctl("focus", "player", "play")
        #expect(try daemon.ctl("actions").stdout == "skip\nrepeat\n")
        _ = try daemon.ctl("activate")
        #expect(try app.nextEvent() == ["event": "action", "tree": "player", "element": "play", "action": "activate", "point": [195, 610]])
        _ = try daemon.ctl("action", "repeat")
        #expect(try app.nextEvent() == ["event": "action", "tree": "player", "element": "play", "action": "repeat"])
        let typo = try daemon.ctl("action", "skp")
        #expect(typo.status == 1 && typo.stderr.contains(#"did you mean "skip"?"#))
        // The owner answers with an update: the new label is what focus speaks next time.
        let update = try app.request(["cmd": "update", "tree": "player", "element": "play", "set": ["label": "Pause"]])
        #expect(update["ok"] == true)
        #expect(try daemon.ctl("focus", "player", "play").stdout == "Pause, button\n  hint: actions available\n")
        // Once the owner is gone, actions fail clearly and the tree stays.
        app.connection.close()
        var gone = try daemon.ctl("activate")
        for _ in 0..<50 where gone.status == 0 {
            usleep(20_000)
            gone = try daemon.ctl("activate")
        }
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("has disconnected"))
        #expect(try daemon.ctl("show", "player").status == 0)
    }
}
