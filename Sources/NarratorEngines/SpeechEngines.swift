/// One engine's voices, as the session chooses among them.
public struct EngineVoices: Sendable, Hashable {
    public var name: EngineName
    public var voices: [InstalledVoice]

    public init(name: EngineName, voices: [InstalledVoice]) {
        self.name = name
        self.voices = voices
    }

    /// Whether one of its voices reads `language` (by its base language: an en-us voice reads en-gb).
    public func speaks(_ language: String) -> Bool {
        let wanted = InstalledVoice.baseLanguage(language)
        return voices.contains { $0.languages.contains { InstalledVoice.baseLanguage($0) == wanted } }
    }

    /// The voice named `name` (its name or identifier).
    public func voice(named name: String) -> InstalledVoice? {
        voices.first { $0.name == name || $0.identifier == name }
    }
}

/// Every engine narratord has, eSpeak NG first: it is always there (in narratord's process), it
/// speaks over a hundred languages, and it is what speech falls back to when another fails.
public struct SpeechEngines: Sendable, Hashable {
    /// eSpeak NG's name, the engine everything falls back to.
    public static let espeak = EngineName.espeak

    /// eSpeak NG, then the engine processes found at start-up, in a stable order.
    public private(set) var all: [EngineVoices]

    /// eSpeak NG with `espeakVoices`, then `others` (any entry named like eSpeak NG is left out).
    public init(espeakVoices: [InstalledVoice], others: [EngineVoices] = []) {
        all = [EngineVoices(name: Self.espeak, voices: espeakVoices)] + others.filter { $0.name != Self.espeak }
    }

    public var names: [EngineName] { all.map(\.name) }

    public func engine(named name: EngineName) -> EngineVoices? {
        all.first { $0.name == name }
    }

    /// The engine and voice a voice name means: "flite/slt" says both (so does "espeak-ng/German");
    /// a bare "slt" names the engine process that has a voice of that name. Nil otherwise: then
    /// the name is eSpeak NG's to resolve (a voice, a language, a variant), or nobody's.
    public func owner(ofVoice name: String) -> (engine: EngineName, voice: String)? {
        if let slash = name.firstIndex(of: "/"), let engine = engine(named: EngineName(String(name[..<slash]))) {
            return (engine.name, String(name[name.index(after: slash)...]))
        }
        for engine in all.dropFirst() {
            if let voice = engine.voice(named: name) { return (engine.name, voice.name) }
        }
        return nil
    }
}
