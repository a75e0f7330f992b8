import Foundation
import NarratorModel
import Testing

/// The settings the speech and verbosity keys change, through a real narratord: speech off
/// silences everything (a `speak` is dropped, never synthesized) until it is on again, and brief
/// verbosity leaves a focus move's hint out.
@Suite struct SpeechSettingsKeyTests {
    /// The speech events of utterance `id`, read until its life ends.
    static func life(of id: Double, on client: RawClient) throws -> [JSONValue] {
        var events: [JSONValue] = []
        while true {
            let event = try client.nextEvent()
            guard event["utterance"]?.numberValue == id else { continue }
            events.append(event)
            if ["finished", "interrupted", "dropped"].contains(event["phase"]?.stringValue ?? "") { return events }
        }
    }

    @Test("speech off: a speak is dropped (speechOff), stop still answers, and the setting is not saved (a restart speaks); on again, it is spoken")
    func speechOffSilencesUntilOn() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.client()
        #expect(try client.request(["cmd": "subscribe"])["ok"] == true)
        #expect(try client.request(["cmd": "set", "key": "speech", "value": "off"])["value"] == "off")
        let muted = try #require(try client.request(["cmd": "speak", "text": "nobody hears this"])["speech"]?.numberValue)
        let silenced = try Self.life(of: muted, on: client)
        #expect(silenced.map { $0["phase"]?.stringValue ?? "" } == ["queued", "dropped"], "\(silenced)")
        #expect(silenced.last?["reason"] == "speechOff")
        #expect(try client.request(["cmd": "stop"])["ok"] == true)
        #expect(try daemon.ctl("get", "speech").stdout == "off\n")
        // Off lasts while narratord runs, never into its next start: a screen reader that starts
        // silent cannot be heard to be turned on again.
        let saved = try String(contentsOfFile: daemon.directory + "/state/settings.json", encoding: .utf8)
        #expect(!saved.contains("speech"), "\(saved)")

        #expect(try client.request(["cmd": "set", "key": "speech", "value": "on"])["value"] == "on")
        let heard = try #require(try client.request(["cmd": "speak", "text": "speech is back"])["speech"]?.numberValue)
        #expect(try Self.life(of: heard, on: client).map { $0["phase"]?.stringValue ?? "" } == ["queued", "started", "finished"])
    }

    @Test("brief verbosity: the focus move says no hint; verbose again, the hint is back")
    func briefVerbosityDropsTheHint() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("register", "examples/favorites.json").status == 0)
        _ = try daemon.ctl("focus", "library")
        #expect(try daemon.ctl("next").stdout == "Favorites, 3 items, button\n  hint: Double-tap to toggle. actions available\n")
        #expect(try daemon.ctl("set", "verbosity", "brief").stdout == "verbosity = brief\n")
        _ = try daemon.ctl("first")
        #expect(try daemon.ctl("next").stdout == "Favorites, 3 items, button\n")
        #expect(try daemon.ctl("set", "verbosity", "verbose").status == 0)
        _ = try daemon.ctl("first")
        #expect(try daemon.ctl("next").stdout.contains("hint: Double-tap to toggle."))
    }
}
