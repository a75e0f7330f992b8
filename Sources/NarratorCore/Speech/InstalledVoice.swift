/// An installed eSpeak NG voice: what `voices` lists and what `set voice` may name.
///
/// Read from the library once at start-up by the speech layer; the session only looks names up.
public struct InstalledVoice: Sendable, Hashable, Codable {
    public enum Gender: String, Sendable, Hashable, Codable {
        case unspecified, male, female
    }

    /// The voice's given name (what `--voice` and `set voice` accept).
    public var name: String
    /// The file name under `espeak-ng-data/voices` (also accepted for selection).
    public var identifier: String
    /// Languages in order of preference, e.g. ["en-gb", "en"].
    public var languages: [String]
    public var gender: Gender

    public init(name: String, identifier: String, languages: [String], gender: Gender) {
        self.name = name
        self.identifier = identifier
        self.languages = languages
        self.gender = gender
    }
}

extension InstalledVoice {
    /// What a voice setting names among `voices`: a voice by name or identifier, else a language
    /// one of them speaks (a code `voices` lists, such as "de" or "en-gb", or a tag whose language
    /// is listed, such as "de-AT"), which eSpeak NG resolves to that language's voice. Nil when it
    /// names neither.
    public static func choice(for name: String, in voices: [InstalledVoice]) -> VoiceChoice? {
        if voices.contains(where: { $0.name == name || $0.identifier == name }) { return .named(name) }
        let tag = name.lowercased().replacingAll("_", with: "-")
        let language = tag.split(separator: "-", maxSplits: 1).first.map(String.init) ?? tag
        guard !tag.isEmpty else { return nil }
        let spoken = voices.contains { voice in
            voice.languages.contains { listed in
                let listed = listed.lowercased()
                return listed == tag || listed == language
            }
        }
        return spoken ? .language(name) : nil
    }

    /// Whether `choice` reads text in `language` in that language: the voice lists it (or its base
    /// language, "de" for "de-AT"), or the choice is that language. eSpeak's default voice is English.
    public static func speaks(_ choice: VoiceChoice, _ language: String, in voices: [InstalledVoice]) -> Bool {
        let wanted = baseLanguage(language)
        switch choice {
        case .named(let name):
            guard let voice = voices.first(where: { $0.name == name || $0.identifier == name }) else { return false }
            return voice.languages.contains { baseLanguage($0) == wanted }
        case .language(let code):
            return baseLanguage(code) == wanted
        case .standard:
            return wanted == "en"
        }
    }

    /// The voice for text in `language` (nil: not known) when the user chose `chosen` (nil: none):
    /// the user's voice for text in its own language or in none, and for text in a language no
    /// installed voice speaks; otherwise that language's voice, so Arabic text is read in Arabic
    /// rather than spelled out by an English voice.
    public static func voice(for language: String?, chosen: VoiceChoice?, in voices: [InstalledVoice]) -> VoiceChoice {
        guard let language, choice(for: language, in: voices) != nil else { return chosen ?? .standard }
        guard let chosen else { return .language(language) }
        return speaks(chosen, language, in: voices) ? chosen : .language(language)
    }

    /// "de" for "de-AT", "de_AT" or "DE".
    static func baseLanguage(_ tag: String) -> String {
        let lowered = tag.lowercased().replacingAll("_", with: "-")
        return lowered.split(separator: "-", maxSplits: 1).first.map(String.init) ?? lowered
    }
}
