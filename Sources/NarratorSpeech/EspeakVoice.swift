import CEspeak
import NarratorEngines

/// The engine's name for an installed voice (the type itself is the core's, which the session reads).
public typealias EspeakVoice = InstalledVoice

extension InstalledVoice {
    /// Reads one entry of `espeak_ListVoices`.
    init(_ voice: espeak_VOICE) {
        let gender: Gender
        switch voice.gender {
        case 1: gender = .male
        case 2: gender = .female
        default: gender = .unspecified
        }
        self.init(
            name: voice.name.map { String(cString: $0) } ?? "", identifier: voice.identifier.map { String(cString: $0) } ?? "",
            languages: Self.languages(voice.languages), gender: gender)
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
