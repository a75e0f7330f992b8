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
}
