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
        case .withVariant(let base, _):
            return speaks(base, language, in: voices)
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

/// One of eSpeak NG's voice variants (`espeak-ng-data/voices/!v`): a timbre and pitch that any
/// voice can be spoken with, such as "male1" (file `m1`), "female2" (`f2`) or "Mr serious".
public struct VoiceVariant: Sendable, Hashable, Codable {
    /// The variant's given name ("female2", "Mr serious").
    public var name: String
    /// Its file name under `voices/!v` ("f2", "Mr serious"): what the engine loads.
    public var identifier: String
    public var gender: InstalledVoice.Gender

    public init(name: String, identifier: String, gender: InstalledVoice.Gender) {
        self.name = name
        self.identifier = identifier
        self.gender = gender
    }

    /// The variant named `name` (its name or file name, in any case) among `variants`.
    public static func find(_ name: String, in variants: [VoiceVariant]) -> VoiceVariant? {
        let wanted = name.lowercased()
        return variants.first { $0.identifier.lowercased() == wanted || $0.name.lowercased() == wanted }
    }

    /// The variant file for SSIP's `VOICE_TYPE` (MALE1...MALE3, FEMALE1...FEMALE3, CHILD_MALE,
    /// CHILD_FEMALE, in any case), as eSpeak NG installs them: `m1`...`m3` and `f1`...`f3`. eSpeak
    /// has no child voices, so the children get its two highest female variants (`f4` for the boy,
    /// `f5` for the girl). Nil for another word, or when `variants` lacks that file.
    public static func forVoiceType(_ type: String, in variants: [VoiceVariant]) -> VoiceVariant? {
        let file: String
        switch type.uppercased() {
        case "MALE1": file = "m1"
        case "MALE2": file = "m2"
        case "MALE3": file = "m3"
        case "FEMALE1": file = "f1"
        case "FEMALE2": file = "f2"
        case "FEMALE3": file = "f3"
        case "CHILD_MALE": file = "f4"
        case "CHILD_FEMALE": file = "f5"
        default: return nil
        }
        return variants.first { $0.identifier == file }
    }
}
