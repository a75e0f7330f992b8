import NarratorBase
import NarratorCore
import NarratorEngines
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// A language code names a voice wherever a voice is named: the language's voice speaks.
@Suite struct VoiceLanguageTests {
    @Test func setVoiceTakesALanguageCodeAndGetShowsIt() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        let set = h.request(user, .set(key: "voice", value: "de"))
        var expected = SpeechSettings()
        expected.voice = "de"
        #expect(set == [.saveSettings(expected, Ticket(1)), .setTimer(h.now + Session.settingsWriteBound)])
        #expect(h.saveSettings() == [.send(user, .reply(Reply(id: 2, .success(.setting(key: "voice", value: "de"))))), .cancelTimer])
        #expect(h.request(user, .get(key: "voice")).body(to: user) == .setting(key: "voice", value: "de"))
        // Text with no language is read by the German voice the user chose, picked by its language...
        #expect(h.request(user, .speak(text: "Guten Tag")).plays == [play(1, .speak, "Guten Tag", voice: .language("de"))])
        // ...but the English tree is read in English: the German voice does not speak it.
        let focus = h.request(user, .focus(tree: "player", element: "rating"))
        #expect(focus.plays == [play(2, .focus, "Now Playing, rating, 3, adjustable", language: "en")])
        let status = try #require(h.request(user, .status).body(to: user)?.status)
        #expect(status.voice == "de")
    }

    /// The session remembers which voice reads each language, and must forget it when the user
    /// chooses another voice: a German tree read before and after each change follows the choice.
    @Test func aLanguageIsReadInTheVoiceChosenNowNotTheOneChosenBefore() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, json: #"{"tree": "einstellungen", "language": "de", "root": {"id": "r", "label": "Ton", "traits": ["button"]}}"#)
        func voiceReading() -> VoiceChoice? {
            for effect in h.request(user, .focus(tree: "einstellungen", element: nil)) {
                if case .play(let request) = effect { return request.voice }
            }
            return nil
        }
        #expect(voiceReading() == .language("de"))
        h.request(user, .set(key: "voice", value: "German"))
        h.saveSettings()
        #expect(voiceReading() == .named("German"))
        h.request(user, .set(key: "voice", value: "English (Great Britain)"))
        h.saveSettings()
        #expect(voiceReading() == .language("de"))
    }

    @Test func namesStillNameVoicesAndCodesNoVoiceSpeaksAreRefused() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        try h.register(user, json: #"{"tree": "einstellungen", "language": "de-AT", "root": {"id": "r", "label": "Ton", "traits": ["button"]}}"#)
        h.request(user, .set(key: "voice", value: "German"))
        h.saveSettings()
        // The chosen voice reads a tree in its language, a regional tag of it included.
        #expect(h.request(user, .focus(tree: "einstellungen", element: nil)).plays == [play(1, .focus, "Ton, Taste", language: "de-AT", voice: .named("German"))])
        // A regional tag of a listed language is that language's voice.
        h.request(user, .set(key: "voice", value: "de-AT"))
        h.saveSettings()
        #expect(h.request(user, .speak(text: "Hallo")).plays == [play(2, .speak, "Hallo", language: "de-AT", voice: .language("de-AT"))])
        // The English voice the user chose reads English, and keeps reading a British tree.
        h.request(user, .set(key: "voice", value: "English (Great Britain)"))
        h.saveSettings()
        #expect(h.request(user, .focus(tree: "player", element: "rating")).plays == [play(3, .focus, "Now Playing, rating, 3, adjustable", language: "en", voice: .named("English (Great Britain)"))])
        let refused = h.request(user, .set(key: "voice", value: "xx"))
        #expect(refused.error(to: user)?.code == .invalidSetting)
        #expect(refused.error(to: user)?.message.hasPrefix("no installed voice is named 'xx', nor speaks a language of that code") == true)
    }
}
