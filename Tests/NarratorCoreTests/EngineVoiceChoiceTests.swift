@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// Which of an engine's voices speaks a voice choice, and its voices as the speech layer lists them.
@Suite struct EngineVoiceChoiceTests {
    let listing = EngineListing(engine: "piper", version: "1.2", voices: [
        .init(name: "lessac", languages: ["en-us", "en"], gender: .female, sampleRate: 22050),
        .init(name: "alan", languages: ["en-gb", "en"], gender: .male, sampleRate: 16000),
        .init(name: "thorsten", languages: ["de-de", "de"], gender: .male, sampleRate: 22050),
    ])

    @Test("the standard voice is the first; a name is that voice; an unknown name is the first")
    func byName() {
        #expect(listing.voice(for: .standard)?.name == "lessac")
        #expect(listing.voice(for: .named("alan"))?.name == "alan")
        #expect(listing.voice(for: .named("nobody"))?.name == "lessac")
    }

    @Test("a language is the first voice listing its tag, else its base language, else the first voice")
    func byLanguage() {
        #expect(listing.voice(for: .language("en-GB"))?.name == "alan")
        #expect(listing.voice(for: .language("en_gb"))?.name == "alan")
        #expect(listing.voice(for: .language("en"))?.name == "lessac")
        #expect(listing.voice(for: .language("de-AT"))?.name == "thorsten")
        #expect(listing.voice(for: .language("ar"))?.name == "lessac")
    }

    @Test("an eSpeak NG variant changes nothing; a listing without voices has none")
    func variantsAndEmpty() {
        #expect(listing.voice(for: .withVariant(.named("thorsten"), variant: "f2"))?.name == "thorsten")
        #expect(EngineListing(engine: "x", version: "", voices: []).voice(for: .standard) == nil)
    }

    @Test("each voice is listed under its name, with its languages and gender")
    func installedVoices() {
        #expect(listing.installedVoices.first == InstalledVoice(name: "lessac", identifier: "lessac", languages: ["en-us", "en"], gender: .female))
        #expect(listing.installedVoices.map(\.identifier) == ["lessac", "alan", "thorsten"])
    }
}
