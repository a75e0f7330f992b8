import Foundation
import NarratorModel
import Testing

/// What a walkthrough as a new user found beyond the issue's list, met where it was met:
/// narratorctl against a real daemon.
@Suite struct WalkthroughTests {
    @Test func exportPrintsTheTreeAsItIsNowAndItRegistersAgain() throws {
        let daemon = try DaemonHarness()
        try daemon.ctl("register", DaemonHarness.repository + "/examples/player.json")
        try daemon.ctl("update", "player", "play", "--set", #"{"label": "Pause"}"#)
        let exported = try daemon.ctl("export", "player")
        #expect(exported.status == 0)
        let document = try JSONParser().parse(exported.stdout)
        #expect(document["tree"] == "player")
        #expect(exported.stdout.contains(#""label": "Pause""#), "the update is in the export: \(exported.stdout)")
        // Saved, it is a document like any other: registering it again gives the same stops.
        let file = daemon.directory + "/player-now.json"
        try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try daemon.ctl("show", "player").stdout
        try daemon.ctl("unregister", "player")
        #expect(try daemon.ctl("register", file).status == 0)
        #expect(try daemon.ctl("show", "player").stdout == before)
        #expect(try daemon.ctl("export", "nope").stderr.contains(#"no tree named "nope""#))
    }

    @Test func anEmptyTreeListSaysSo() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("trees").stdout == "no trees registered (narratorctl register FILE registers one)\n")
    }

    @Test func aRotorPastItsLastTargetGoesRoundAndSaysSo() throws {
        let daemon = try DaemonHarness()
        try daemon.ctl("register", DaemonHarness.repository + "/examples/player.json")
        try daemon.ctl("focus", "player", "play")
        // The headings rotor has nothing after "play": it goes round to the first heading.
        #expect(try daemon.ctl("rotor", "headings").stdout == "wrapped to top, Now Playing, heading\n")
        // On the only heading it goes round to that heading again and says so, as Orca's H does:
        // silence would tell the user nothing.
        #expect(try daemon.ctl("rotor", "headings").stdout == "wrapped to top, Now Playing, heading\n")
        #expect(try daemon.ctl("rotor", "headings", "previous").stdout == "wrapped to bottom, Now Playing, heading\n")
    }

    @Test func usageErrorsNameTheCommandAsOtherMessagesDo() throws {
        let daemon = try DaemonHarness()
        let bad = try daemon.ctl("update", "player", "rating", "--set", "nope")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("narratorctl update: --set takes JSON, such as '{\"value\": \"4\"}'; "), "\(bad.stderr)")
    }

    @Test func anActionForATreeWithoutAnOwnerSaysHowToKeepOne() throws {
        let daemon = try DaemonHarness()
        try daemon.ctl("register", DaemonHarness.repository + "/examples/player.json")
        try daemon.ctl("focus", "player", "play")
        let activate = try daemon.ctl("activate")
        #expect(activate.status == 1)
        #expect(activate.stderr.contains("narratorctl register --follow FILE"), "\(activate.stderr)")
    }

    @Test func anEmptyConfigurationFromDevNullIsTaken() throws {
        // `--config /dev/null` is the usual way to start without the user's settings file.
        let daemon = try DaemonHarness(extraArguments: ["--config", "/dev/null"])
        #expect(try daemon.ctl("status").status == 0)
    }

    @Test func aMissingFileSuggestsTheNearestFileBesideIt() throws {
        let ctl = DaemonHarness.binaries + "/narratorctl"
        let traces = DaemonHarness.repository + "/examples/traces/"
        let replay = try DaemonHarness.run(ctl, ["replay", traces + "chat-burst.json", "--policy", "none"])
        #expect(replay.status == 1)
        #expect(replay.stderr == "narratorctl replay: cannot read \(traces)chat-burst.json: no such file; did you mean \(traces)chat-burst.jsonl?\n")
        // Replay reads its trace as the other commands read files: a byte-order mark is dropped.
        let trace = try String(contentsOfFile: traces + "chat-burst.jsonl", encoding: .utf8)
        let withMark = try DaemonHarness.run(ctl, ["replay", "-", "--policy", "none", "--db", NSTemporaryDirectory() + "walk-\(UUID().uuidString).db"], stdin: "\u{FEFF}" + trace)
        #expect(withMark.status == 0, "\(withMark.stderr)")
    }
}
