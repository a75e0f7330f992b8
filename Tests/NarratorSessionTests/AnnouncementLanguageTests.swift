import NarratorProtocol
import Testing

/// Which language (so which voice) reads an announcement or a `speak` text.
@Suite struct AnnouncementLanguageTests {
    static let arabic = #"{"tree": "news", "title": "أخبار", "language": "ar", "root": {"id": "r", "children": [{"id": "h", "label": "العناوين", "traits": ["header"]}]}}"#

    @Test func anExplicitLanguagePicksTheVoice() throws {
        var h = Harness(policy: .none)
        let app = h.client()
        let speak = h.request(app, #"{"id": 1, "cmd": "speak", "text": "مرحبا", "language": "ar"}"#)
        #expect(speak.plays == [play(1, .speak, "مرحبا", language: "ar")])
        h.finishSpeaking()
        let announce = h.request(app, #"{"id": 2, "cmd": "announce", "text": "تم التنزيل", "language": "ar"}"#)
        #expect(announce.plays == [play(2, .announcement(.default), "تم التنزيل", language: "ar")])
    }

    @Test func withoutOneTheFocusedTreesLanguageReadsIt() throws {
        var h = Harness(policy: .none)
        let app = h.client()
        // No focus, no language: eSpeak NG's default voice, as before.
        #expect(h.request(app, .speak(text: "Hello")).plays == [play(1, .speak, "Hello")])
        h.finishSpeaking()
        try h.register(app, json: Self.arabic)
        try h.register(app, example: "player.json")
        h.request(app, .focus(tree: "news", element: nil))
        h.finishSpeaking()
        #expect(h.request(app, .speak(text: "مرحبا")).plays == [play(3, .speak, "مرحبا", language: "ar")])
        h.finishSpeaking()
        let announce = h.request(app, .announce(text: "تم التنزيل", priority: .default, tree: nil, element: nil, key: nil))
        #expect(announce.plays == [play(4, .announcement(.default), "تم التنزيل", language: "ar")])
        h.finishSpeaking()
        // A tree named with the announcement reads it in its own language; a language given wins.
        let english = h.request(app, .announce(text: "Track saved", priority: .default, tree: "player", element: nil, key: nil))
        #expect(english.plays == [play(5, .announcement(.default), "Track saved", language: "en")])
        h.finishSpeaking()
        let french = h.request(app, .announce(text: "Enregistré", priority: .default, tree: "player", element: nil, key: nil, language: "fr"))
        #expect(french.plays == [play(6, .announcement(.default), "Enregistré", language: "fr")])
    }

    @Test func aLanguageNoInstalledVoiceSpeaksIsRefused() {
        var h = Harness()
        let app = h.client()
        let speak = h.request(app, .speak(text: "x", language: "zz"))
        #expect(speak.error(to: app) == ReplyError(.invalidField, #"speak.language: no installed voice speaks "zz" (narratorctl voices lists the languages)"#))
        #expect(speak.played.isEmpty)
        let announce = h.request(app, .announce(text: "x", priority: .default, tree: nil, element: nil, key: nil, language: "zz"))
        #expect(announce.error(to: app)?.message.hasPrefix("announce.language: no installed voice speaks") == true)
    }

    @Test func theUsersVoiceReadsItsOwnLanguageAndAnotherLanguagesVoiceReadsTheRest() throws {
        var h = Harness(policy: .none)
        let app = h.client()
        h.request(app, .set(key: "voice", value: "English (Great Britain)"))
        h.saveSettings()
        #expect(h.request(app, .speak(text: "Hello", language: "en-US")).plays == [play(1, .speak, "Hello", language: "en-US", voice: .named("English (Great Britain)"))])
        h.finishSpeaking()
        // Arabic is not spelled out by the English voice the user chose: the Arabic voice reads it.
        #expect(h.request(app, .speak(text: "مرحبا", language: "ar")).plays == [play(2, .speak, "مرحبا", language: "ar")])
    }

    @Test func aLanguageThatIsNotATagIsRefused() {
        var h = Harness()
        let app = h.client()
        for bad in ["", "arabic!", "a", "en--GB", "1234"] {
            let effects = h.request(app, #"{"id": 1, "cmd": "speak", "text": "x", "language": "\#(bad)"}"#)
            #expect(effects.error(to: app)?.code == .invalidField, "\(bad)")
            #expect(effects.played.isEmpty)
        }
        #expect(
            h.request(app, #"{"id": 1, "cmd": "announce", "text": "x", "language": "arabic!"}"#).error(to: app)?.message
                == #"announce.language: expected a language code such as "ar" or "en-GB", got "arabic!""#)
    }
}
