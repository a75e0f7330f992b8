import NarratorModel

/// What an engine process says of itself (`--list-voices`, and its `ready` frame): its name,
/// version and voices, each with the languages it speaks and its sample rate.
public struct EngineListing: Sendable, Hashable {
    public struct Voice: Sendable, Hashable {
        public var name: String
        /// Lower-case BCP 47 tags, most specific first ("en-us", "en").
        public var languages: [String]
        public var gender: InstalledVoice.Gender
        public var sampleRate: Int

        public init(name: String, languages: [String], gender: InstalledVoice.Gender, sampleRate: Int) {
            self.name = name
            self.languages = languages
            self.gender = gender
            self.sampleRate = sampleRate
        }
    }

    public var engine: String
    public var version: String
    public var voices: [Voice]

    public init(engine: String, version: String, voices: [Voice]) {
        self.engine = engine
        self.version = version
        self.voices = voices
    }

    public var json: JSONValue {
        .object(JSONObject([
            .init(key: "engine", value: .string(engine)),
            .init(key: "version", value: .string(version)),
            .init(key: "voices", value: .array(voices.map { voice in
                .object(JSONObject([
                    .init(key: "name", value: .string(voice.name)),
                    .init(key: "languages", value: .array(voice.languages.map { .string($0) })),
                    .init(key: "gender", value: .string(voice.gender.rawValue)),
                    .init(key: "sampleRate", value: .number(Double(voice.sampleRate))),
                ]))
            })),
        ]))
    }

    /// Parses the listing, naming the field that is wrong (`voices[2].sampleRate`).
    public init(json text: String) throws(EngineListingError) {
        let value: JSONValue
        do { value = try JSONParser().parse(text) } catch { throw EngineListingError(path: "$", reason: "not JSON: \(error)") }
        guard let object = value.objectValue else { throw EngineListingError(path: "$", reason: "not an object") }
        guard let engine = object["engine"]?.stringValue, !engine.isEmpty else {
            throw EngineListingError(path: "engine", reason: "must be a non-empty string")
        }
        guard let list = object["voices"]?.arrayValue else { throw EngineListingError(path: "voices", reason: "must be an array") }
        var voices: [Voice] = []
        for (index, entry) in list.enumerated() {
            let path = "voices[\(index)]"
            guard let name = entry["name"]?.stringValue, !name.isEmpty else {
                throw EngineListingError(path: path + ".name", reason: "must be a non-empty string")
            }
            guard let languages = entry["languages"]?.arrayValue?.compactMap(\.stringValue), !languages.isEmpty else {
                throw EngineListingError(path: path + ".languages", reason: "must be a non-empty array of strings")
            }
            let gender = entry["gender"]?.stringValue.flatMap(InstalledVoice.Gender.init(rawValue:)) ?? .unspecified
            guard let rate = entry["sampleRate"]?.numberValue, rate >= 4000, rate <= 192_000, rate == rate.rounded() else {
                throw EngineListingError(path: path + ".sampleRate", reason: "must be a whole number of samples per second, 4000...192000")
            }
            voices.append(Voice(name: name, languages: languages.map { $0.lowercased() }, gender: gender, sampleRate: Int(rate)))
        }
        self.init(engine: engine, version: object["version"]?.stringValue ?? "", voices: voices)
    }
}

/// Where an engine's listing is wrong.
public struct EngineListingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}
