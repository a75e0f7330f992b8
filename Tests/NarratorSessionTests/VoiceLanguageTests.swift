import NarratorCore
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
        #expect(set == [.saveSettings(expected, Ticket(1))])
        #expect(h.saveSettings() == [.send(user, .reply(Reply(id: 2, .success(.setting(key: "voice", value: "de")))))])
        #expect(h.request(user, .get(key: "voice")).body(to: user) == .setting(key: "voice", value: "de"))
        // The English tree is read by the German voice the user chose, picked by its language.
        let focus = h.request(user, .focus(tree: "player", element: "rating"))
        #expect(focus.first == play(1, .focus, "Now Playing, rating, 3, adjustable", language: "en", voice: .language("de")))
        guard case .status(let status)? = h.request(user, .status).body(to: user) else { return }
        #expect(status.voice == "de")
    }

    @Test func namesStillNameVoicesAndCodesNoVoiceSpeaksAreRefused() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        h.request(user, .set(key: "voice", value: "German"))
        h.saveSettings()
        #expect(h.request(user, .focus(tree: "player", element: "rating")).first == play(1, .focus, "Now Playing, rating, 3, adjustable", language: "en", voice: .named("German")))
        // A regional tag of a listed language is that language's voice.
        h.request(user, .set(key: "voice", value: "de-AT"))
        h.saveSettings()
        #expect(h.request(user, .move(.next, tree: nil)).first { if case .play = $0 { true } else { false } } == play(2, .focus, "Previous track, button", language: "en", voice: .language("de-AT")))
        let refused = h.request(user, .set(key: "voice", value: "xx"))
        #expect(refused.error(to: user)?.code == .invalidSetting)
        #expect(refused.error(to: user)?.message.hasPrefix("no installed voice is named 'xx', nor speaks a language of that code") == true)
    }
}
