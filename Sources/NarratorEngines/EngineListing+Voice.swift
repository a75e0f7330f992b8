extension EngineListing {
    /// The engine's voice for a choice made among every engine's voices: the voice of that name;
    /// for a language, the first voice listing it (its exact tag, else its base language, so
    /// "en-GB" finds a voice listing "en"); for ``VoiceChoice/standard``, a name the engine does
    /// not have or a language none of its voices speaks, the first voice (text is still read,
    /// as eSpeak NG reads it in its default voice). A variant is eSpeak NG's and changes
    /// nothing here. Nil only for a listing without voices.
    public func voice(for choice: VoiceChoice) -> Voice? {
        switch choice {
        case .standard:
            break
        case .named(let name):
            if let voice = voices.first(where: { $0.name == name }) { return voice }
        case .language(let tag):
            let wanted = tag.lowercased().replacingAll("_", with: "-")
            if let voice = voices.first(where: { $0.languages.contains(wanted) }) { return voice }
            let base = InstalledVoice.baseLanguage(wanted)
            if let voice = voices.first(where: { $0.languages.contains { InstalledVoice.baseLanguage($0) == base } }) { return voice }
        case .withVariant(let base, _):
            return voice(for: base)
        }
        return voices.first
    }

    /// The voices as the speech layer lists them; a voice's identifier is its name.
    public var installedVoices: [InstalledVoice] {
        voices.map { InstalledVoice(name: $0.name, identifier: $0.name, languages: $0.languages, gender: $0.gender) }
    }
}
