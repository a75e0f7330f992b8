import NarratorEngines

/// What the `voices` request asks for: a filter and a page of the ``VoiceCatalog``, so that a
/// list of 13,000 voices and variants can be read a screenful at a time, or narrowed to the few
/// that matter (`narratorctl voices --language de --name grandma`).
public struct VoiceQuery: Sendable, Hashable {
    /// Only voices that speak this language: a tag they list, or a longer one it starts ("de"
    /// keeps "de" and "de-ch", "en-gb" keeps "en-gb-x-rp"); case and "_" for "-" do not matter.
    public var language: String?
    /// Only entries whose name or identifier holds this text, in any case ("grandma", "German+", "gmw/de").
    public var name: String?
    /// Each voice with each variant too, not only the voices alone.
    public var variants: Bool
    /// The matches to skip before the page starts.
    public var offset: Int
    /// The most matches to return (nil: every one from `offset`).
    public var limit: Int?
    /// Only this engine's voices ("flite"); nil: every engine's.
    public var engine: String?

    public init(
        language: String? = nil, name: String? = nil, variants: Bool = false, offset: Int = 0, limit: Int? = nil, engine: String? = nil
    ) {
        self.engine = engine
        self.language = language
        self.name = name
        self.variants = variants
        self.offset = offset
        self.limit = limit
    }
}

/// One entry of the catalog as the `voices` reply gives it.
public struct ListedVoice: Sendable, Hashable {
    /// "German" or "German+grandma", what `set voice` takes.
    public var name: String
    /// "gmw/de" or "gmw/de+grandma".
    public var identifier: String
    /// The voice's languages, in order of preference.
    public var languages: [String]
    public var gender: InstalledVoice.Gender
    /// The variant's name, nil for the voice alone.
    public var variant: String?
    /// The engine that speaks it ("espeak-ng", "flite", "piper").
    public var engine: String

    public init(
        name: String, identifier: String, languages: [String], gender: InstalledVoice.Gender, variant: String? = nil,
        engine: String = SpeechEngines.espeak.rawValue
    ) {
        self.engine = engine
        self.name = name
        self.identifier = identifier
        self.languages = languages
        self.gender = gender
        self.variant = variant
    }

    public init(_ entry: VoiceEntry, engine: String = SpeechEngines.espeak.rawValue) {
        self.init(
            name: entry.name, identifier: entry.identifier, languages: entry.voice.languages, gender: entry.gender,
            variant: entry.variant?.name, engine: engine)
    }
}

/// A page of the voices a ``VoiceQuery`` matched.
public struct VoiceListing: Sendable, Hashable {
    public var entries: [ListedVoice]
    /// How many entries matched, over every page.
    public var total: Int
    /// Where this page starts among them.
    public var offset: Int
    /// How many variants each voice has (what a listing without variants folds away).
    public var variantCount: Int

    public init(entries: [ListedVoice], total: Int, offset: Int, variantCount: Int) {
        self.entries = entries
        self.total = total
        self.offset = offset
        self.variantCount = variantCount
    }
}

extension VoiceCatalog {
    /// The page of entries `query` asks for, in catalog order. Only the page's entries are made;
    /// the others are counted.
    public func listing(_ query: VoiceQuery) -> VoiceListing {
        var listing = VoiceListing(entries: [], total: 0, offset: query.offset, variantCount: variants.count)
        collect(query, engine: SpeechEngines.espeak.rawValue, into: &listing)
        return listing
    }

    /// Adds the entries `query` matches to `listing`, counting on from its total (so that the
    /// catalogs of several engines page as one list).
    func collect(_ query: VoiceQuery, engine: String, into listing: inout VoiceListing) {
        if let wanted = query.engine, wanted != engine { return }
        let needle = query.name?.lowercased()
        let end = query.limit.map { query.offset + $0 } ?? Int.max
        for voice in voices where query.language.map({ Self.speaks(voice, $0) }) ?? true {
            let lowered = voice.name.lowercased(), file = voice.identifier.lowercased()
            func take(_ variant: VoiceVariant?) {
                if let needle {
                    let name = variant.map { lowered + "+" + $0.name.lowercased() } ?? lowered
                    let identifier = variant.map { file + "+" + $0.identifier.lowercased() } ?? file
                    guard name.contains(needle) || identifier.contains(needle) else { return }
                }
                if listing.total >= query.offset && listing.total < end {
                    listing.entries.append(ListedVoice(VoiceEntry(voice: voice, variant: variant), engine: engine))
                }
                listing.total += 1
            }
            take(nil)
            if query.variants { for variant in variants { take(variant) } }
        }
    }

    /// Whether `voice` lists `language`, or a longer tag that starts with it (RFC 4647's basic filtering).
    static func speaks(_ voice: InstalledVoice, _ language: String) -> Bool {
        let wanted = normalized(language)
        return voice.languages.contains { listed in
            let listed = normalized(listed)
            return listed == wanted || listed.hasPrefix(wanted + "-")
        }
    }

    static func normalized(_ tag: String) -> String { tag.lowercased().replacingAll("_", with: "-") }
}

extension SpeechEngines {
    /// The page `query` asks for over every engine: eSpeak NG's catalog (with `variants`), then
    /// each engine process's voices (they have no variants), as one list.
    public func listing(_ query: VoiceQuery, variants: [VoiceVariant]) -> VoiceListing {
        var listing = VoiceListing(entries: [], total: 0, offset: query.offset, variantCount: variants.count)
        for engine in all {
            let catalog = VoiceCatalog(voices: engine.voices, variants: engine.name == Self.espeak ? variants : [])
            catalog.collect(query, engine: engine.name.rawValue, into: &listing)
        }
        return listing
    }
}
