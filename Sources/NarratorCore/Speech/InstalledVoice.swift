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
