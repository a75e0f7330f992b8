import CEspeak

/// An installed eSpeak NG voice, as listed by the library.
public struct EspeakVoice: Sendable, Hashable, Codable {
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

    /// Reads one entry of `espeak_ListVoices`.
    init(_ voice: espeak_VOICE) {
        name = voice.name.map { String(cString: $0) } ?? ""
        identifier = voice.identifier.map { String(cString: $0) } ?? ""
        languages = Self.languages(voice.languages)
        switch voice.gender {
        case 1: gender = .male
        case 2: gender = .female
        default: gender = .unspecified
        }
    }

    /// Decodes the packed list: a priority byte, a NUL-terminated language, repeated, ended by a zero byte.
    private static func languages(_ packed: UnsafePointer<CChar>?) -> [String] {
        guard var cursor = packed else { return [] }
        var result: [String] = []
        while cursor.pointee != 0 {
            let language = String(cString: cursor + 1)
            result.append(language)
            cursor += 1 + language.utf8.count + 1
        }
        return result
    }
}
