import NarratorEngines
import NarratorSSIP
import NarratorSpeechPlan
import Testing

/// The catalog of voices and variants, its pages and filters, and the lines SSIP lists it as.
@Suite struct VoiceCatalogTests {
    static let voices = [
        InstalledVoice(name: "Afrikaans", identifier: "gmw/af", languages: ["af"], gender: .male),
        InstalledVoice(name: "German", identifier: "gmw/de", languages: ["de"], gender: .male),
        InstalledVoice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb", "en"], gender: .male),
        InstalledVoice(name: "English (Received Pronunciation)", identifier: "gmw/en-GB-x-rp", languages: ["en-gb-x-rp", "en"], gender: .male),
        InstalledVoice(name: "Chinese (Mandarin, latin as Pinyin)", identifier: "sit/cmn-Latn-pinyin", languages: ["cmn-latn-pinyin"], gender: .male),
    ]
    static let variants = [
        VoiceVariant(name: "grandma", identifier: "grandma", gender: .female),
        VoiceVariant(name: "Mr_Serious", identifier: "Mr serious", gender: .unspecified),
        VoiceVariant(name: "male1", identifier: "m1", gender: .male),
    ]
    let catalog = VoiceCatalog(voices: Self.voices, variants: Self.variants)

    @Test("each voice alone, then with each variant, voice after voice, as speech-dispatcher lists them")
    func order() {
        #expect(catalog.count == 5 * 4)
        #expect(catalog.prefix(5).map(\.name) == ["Afrikaans", "Afrikaans+grandma", "Afrikaans+Mr_Serious", "Afrikaans+male1", "German"])
        #expect(catalog.last?.name == "Chinese (Mandarin, latin as Pinyin)+male1")
        let grandma = catalog[5]
        #expect(grandma.name == "German+grandma" && grandma.identifier == "gmw/de+grandma")
        #expect(grandma.gender == .female, "the variant's gender")
        #expect(catalog[6].gender == .male, "a variant without one keeps the voice's")
        #expect(grandma.choice == .withVariant(.named("German"), variant: "grandma"))
        #expect(catalog[4].choice == .named("German"))
    }

    @Test("SSIP's lines: speech-dispatcher's spelling of languages, variant none for a voice alone")
    func ssipLines() {
        #expect(SSIPVoice.language("en-gb-x-rp") == "en-GB-X-RP")
        #expect(SSIPVoice.language("cmn-latn-pinyin") == "cmn-LATN-PINYIN")
        #expect(SSIPVoice.language("af") == "af")
        let lines = SSIPVoice.lines(in: catalog)
        #expect(lines.count == catalog.count)
        #expect(lines.prefix(2) == ["Afrikaans\taf\tnone", "Afrikaans+grandma\taf\tgrandma"])
        #expect(lines.contains("English (Received Pronunciation)+Mr_Serious\ten-GB-X-RP\tMr_Serious"))
        #expect(lines == catalog.map { SSIPVoice($0).ssipLine })
    }

    @Test("LIST SYNTHESIS_VOICES language variant: speech-dispatcher 0.12's rules")
    func ssipFilters() {
        func names(_ language: String?, _ variant: String? = nil) -> [String] {
            SSIPVoice.lines(in: catalog, language: language, variant: variant).map { String($0.split(separator: "\t")[0]) }
        }
        #expect(names("de") == ["German", "German+grandma", "German+Mr_Serious", "German+male1"])
        // The language part before the first "-", or the whole tag; in any case.
        #expect(names("EN", "none") == ["English (Great Britain)", "English (Received Pronunciation)"])
        #expect(names("en-GB", "none") == ["English (Great Britain)"])
        #expect(names("en-gb-x-rp", "MALE1") == ["English (Received Pronunciation)+male1"])
        #expect(names("e") == [], "not a prefix of the language")
        #expect(names("de", "nobody") == [])
    }

    @Test("a page of what a query keeps, and how many it keeps in all")
    func listing() {
        let voices = catalog.listing(VoiceQuery())
        #expect(voices.entries.map(\.name) == Self.voices.map(\.name))
        #expect(voices.total == 5 && voices.offset == 0 && voices.variantCount == 3)
        #expect(voices.entries[2] == ListedVoice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb", "en"], gender: .male))

        // A language keeps the voices that list it or a longer tag starting with it.
        #expect(catalog.listing(VoiceQuery(language: "en")).entries.map(\.identifier) == ["gmw/en", "gmw/en-GB-x-rp"])
        #expect(catalog.listing(VoiceQuery(language: "EN_GB")).entries.map(\.identifier) == ["gmw/en", "gmw/en-GB-x-rp"])
        #expect(catalog.listing(VoiceQuery(language: "en-gb-x")).entries.map(\.identifier) == ["gmw/en-GB-x-rp"])
        #expect(catalog.listing(VoiceQuery(language: "e")).total == 0)

        let all = catalog.listing(VoiceQuery(variants: true))
        #expect(all.total == 20 && all.entries.map(\.name) == catalog.map(\.name))
        let grandmas = catalog.listing(VoiceQuery(name: "GRANDMA", variants: true))
        #expect(grandmas.total == 5 && grandmas.entries.allSatisfy { $0.variant == "grandma" })
        #expect(catalog.listing(VoiceQuery(name: "gmw/de+", variants: true)).entries.map(\.name) == [
            "German+grandma", "German+Mr_Serious", "German+male1",
        ])
        #expect(catalog.listing(VoiceQuery(language: "de", name: "m", variants: true)).entries.map(\.variant) == [nil, "grandma", "Mr_Serious", "male1"])

        let page = catalog.listing(VoiceQuery(variants: true, offset: 6, limit: 4))
        #expect(page.total == 20 && page.offset == 6)
        #expect(page.entries.map(\.name) == ["German+Mr_Serious", "German+male1", "English (Great Britain)", "English (Great Britain)+grandma"])
        let last = catalog.listing(VoiceQuery(variants: true, offset: 18, limit: 4))
        #expect(last.entries.count == 2 && last.total == 20)
        #expect(catalog.listing(VoiceQuery(offset: 99)).entries.isEmpty)
    }

    @Test("a voice is named alone, by language or identifier, each with a variant by name or file")
    func choice() {
        #expect(catalog.choice(for: "German") == .named("German"))
        #expect(catalog.choice(for: "German+grandma") == .withVariant(.named("German"), variant: "grandma"))
        #expect(catalog.choice(for: "gmw/de+Mr_Serious") == .withVariant(.named("gmw/de"), variant: "Mr serious"))
        #expect(catalog.choice(for: "de+m1") == .withVariant(.language("de"), variant: "m1"))
        #expect(catalog.choice(for: "German+nobody") == nil)
        #expect(catalog.choice(for: "Nobody+grandma") == nil)
        #expect(catalog.choice(for: "German+") == nil)
    }

    @Test("a name that names nothing gets the nearest one, each half of voice+variant on its own")
    func suggestion() {
        #expect(catalog.suggestion(for: "Germna") == "German")
        #expect(catalog.suggestion(for: "Germna+grandma") == "German+grandma")
        #expect(catalog.suggestion(for: "German+grandmaa") == "German+grandma")
        #expect(catalog.suggestion(for: "Gernam+Mr_Sirious") == "German+Mr_Serious")
        #expect(catalog.suggestion(for: "Klingon") == nil)
        #expect(catalog.suggestion(for: "German+zzzzzzzz") == nil)
    }
}
