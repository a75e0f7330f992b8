import NarratorBase
import NarratorModel
import NarratorSpeechPlan
import Testing

/// Speech off and verbosity as settings: off, the scheduler starts nothing from anyone (what
/// plays, the "Speech off." that said so, ends as it would) until it is on again; both are kept
/// in the settings file.
@Suite("Speech off and verbosity")
struct SpeechOffTests {
    @Test("switched off, what waits is dropped and what plays goes on to its end; nothing new starts, of any kind, until on")
    func speechOffDropsEverythingNew() {
        var h = Harness()
        let said = h.say(.speak, "Speech off.")
        let waiting = h.say(.announcement(.low), "Download complete")
        h.configure(SpeechSchedulerConfiguration(speechEnabled: false))
        #expect(h.phases(waiting).last == .dropped(.speechOff))
        #expect(h.playingID == said)
        h.finish(said)
        #expect(h.phases(said) == [.queued, .started, .finished])
        for kind in [SpeechKind.focus, .value, .speak, .announcement(.high), .ssip(.text), .hint] {
            let dropped = h.say(kind)
            #expect(h.phases(dropped) == [.queued, .dropped(.speechOff)], "\(kind)")
        }
        #expect(h.playingID == nil)
        h.configure(SpeechSchedulerConfiguration(speechEnabled: true))
        let back = h.say(.speak, "Speech on.")
        #expect(h.phases(back) == [.queued, .started])
    }

    @Test("speech and verbosity: set and got as words; verbosity kept in the file when not the default, speech off never; refused when not one of theirs")
    func theSettings() throws {
        var settings = SpeechSettings()
        #expect(try settings.get("speech") == "on")
        #expect(settings.json["speech"] == nil && settings.json["verbosity"] == nil)
        #expect(settings.schedulerConfiguration.speechEnabled)
        try settings.set("speech", to: "off")
        try settings.set("verbosity", to: "brief")
        #expect(try settings.get("speech") == "off")
        #expect(try settings.get("verbosity") == "brief")
        #expect(!settings.schedulerConfiguration.speechEnabled)
        // Speech off is never written: narratord's next start speaks.
        #expect(settings.json["speech"] == nil && settings.json["verbosity"] == "brief")
        var read = try SpeechSettings(json: try JSONParser().parse(settings.json.compactText))
        #expect(read.speech && read.verbosity == .brief)
        read.speech = false
        #expect(read == settings)
        #expect(throws: SpeechSettingsError.outOfRange(key: "verbosity", value: "chatty", allowed: "brief, verbose")) { try settings.set("verbosity", to: "chatty") }
        #expect(throws: SpeechSettingsError.outOfRange(key: "speech", value: "maybe", allowed: "on, off")) { try settings.set("speech", to: "maybe") }
    }
}
