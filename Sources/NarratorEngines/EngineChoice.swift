/// The engine and voice one utterance is spoken in, chosen from the user's settings, an SSIP
/// client's own (its `OUTPUT_MODULE` and `SYNTHESIS_VOICE`), and the text's language.
///
/// The engine: the client's module if it set one that is installed, else the engine the user
/// gave this route (the speech plan's `SpeechRoute`), else the user's engine, else eSpeak NG. Text in a language
/// that engine has no voice for is read by eSpeak NG, so a German sentence is not spelt out by
/// an English neural voice. The voice: the one asked for (the client's, else the user's) when it
/// is that engine's and reads the language; else the engine's first voice for the language;
/// else its first voice. eSpeak NG's own choice (languages, variants) is ``InstalledVoice``'s.
public struct EngineChoice: Sendable, Hashable {
    public var engine: EngineName
    public var voice: VoiceChoice

    public init(engine: EngineName, voice: VoiceChoice) {
        self.engine = engine
        self.voice = voice
    }

    /// - Parameters:
    ///   - wanted: the engine asked for (the client's module, else the route's setting), nil for none.
    ///   - voiceName: the voice asked for by name (the client's, else the user's), nil for none.
    ///   - espeakVoice: what eSpeak NG would read this text in (its own rules), used when eSpeak NG speaks.
    public static func resolve(
        wanted: EngineName?, voiceName: String?, language: String?, engines: SpeechEngines, espeakVoice: VoiceChoice
    ) -> EngineChoice {
        let espeak = EngineChoice(engine: SpeechEngines.espeak, voice: espeakVoice)
        // A voice of an engine process, named alone, brings its engine with it.
        let owner = voiceName.flatMap { engines.owner(ofVoice: $0) }
        guard let name = wanted ?? owner?.engine, name != SpeechEngines.espeak,
            let engine = engines.engine(named: name), let first = engine.voices.first
        else { return espeak }
        if let language, !engine.speaks(language) { return espeak }
        let wantedBase = language.map(InstalledVoice.baseLanguage)
        func reads(_ voice: InstalledVoice) -> Bool {
            guard let wantedBase else { return true }
            return voice.languages.contains { InstalledVoice.baseLanguage($0) == wantedBase }
        }
        if let owner, owner.engine == engine.name, let voice = engine.voice(named: owner.voice), reads(voice) {
            return EngineChoice(engine: engine.name, voice: .named(voice.name))
        }
        let voice = engine.voices.first(where: reads) ?? first
        return EngineChoice(engine: engine.name, voice: .named(voice.name))
    }
}
