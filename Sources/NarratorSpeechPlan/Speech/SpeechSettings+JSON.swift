import NarratorEngines
import NarratorModel

/// The settings file as the project's own JSON: the daemon reads and writes it without
/// Foundation's coders (the file format is the one ``SpeechSettings`` documents).
extension SpeechSettings {
    /// Why a settings file's JSON is not settings: which key, and what it holds instead.
    public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Reads settings from a file's JSON: every key optional (missing or null takes the default),
    /// unknown keys ignored, a key of the wrong type refused.
    public init(json: JSONValue) throws(FileError) {
        guard case .object(let object) = json else { throw FileError(description: "expected an object, found \(json.typeName)") }
        self.init()
        func integer(_ key: String) throws(FileError) -> Int? {
            guard let value = object[key]?.nonNull else { return nil }
            guard case .number(let number) = value, number.rounded() == number, let whole = Int(exactly: number) else {
                throw FileError(description: "\"\(key)\": expected a whole number, found \(value.compactText)")
            }
            return whole
        }
        if let value = object["voice"]?.nonNull {
            guard case .string(let name) = value else { throw FileError(description: "\"voice\": expected a string, found \(value.typeName)") }
            voice = name
        }
        rate = try integer("rate") ?? rate
        pitch = try integer("pitch") ?? pitch
        volume = try integer("volume") ?? volume
        if let value = object["punctuation"]?.nonNull {
            guard case .string(let name) = value, let level = PunctuationLevel(rawValue: name) else {
                throw FileError(
                    description: "\"punctuation\": expected one of \(PunctuationLevel.allCases.map(\.rawValue).joined(separator: ", ")), found \(value.compactText)")
            }
            punctuation = level
        }
        if let value = object["hints"]?.nonNull {
            guard case .bool(let on) = value else { throw FileError(description: "\"hints\": expected true or false, found \(value.typeName)") }
            hints = on
        }
        hintDelayMilliseconds = try integer("hintDelayMilliseconds") ?? hintDelayMilliseconds
        if let value = object["engine"]?.nonNull {
            guard case .string(let name) = value else { throw FileError(description: "\"engine\": expected a string, found \(value.typeName)") }
            engine = EngineName(name)
        }
        if let value = object["engines"]?.nonNull {
            guard case .object(let routesObject) = value else {
                throw FileError(description: "\"engines\": expected an object of kind to engine, found \(value.typeName)")
            }
            for member in routesObject.members {
                guard let route = SpeechRoute(rawValue: member.key) else {
                    throw FileError(
                        description: "\"engines\".\(member.key): not a kind of speech; expected one of \(SpeechRoute.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard case .string(let name) = member.value else {
                    throw FileError(description: "\"engines\".\(member.key): expected an engine's name, found \(member.value.typeName)")
                }
                routes[route] = EngineName(name)
            }
        }
        if let value = object["verbosity"]?.nonNull {
            guard case .string(let name) = value, let level = Verbosity(rawValue: name) else {
                throw FileError(description: "\"verbosity\": expected one of \(Verbosity.allCases.map(\.rawValue).joined(separator: ", ")), found \(value.compactText)")
            }
            verbosity = level
        }
        longTextWords = try integer("longTextWords") ?? longTextWords
        engineIdleSeconds = try integer("engineIdleSeconds") ?? engineIdleSeconds
    }

    /// The file's JSON, keys sorted (`voice` left out while the language picks it).
    public var json: JSONValue {
        var members: [JSONObject.Member] = []
        if let engine { members.append(.init(key: "engine", value: .string(engine.rawValue))) }
        if !routes.isEmpty {
            let sorted = routes.sorted { $0.key.rawValue < $1.key.rawValue }
            members.append(.init(key: "engines", value: .object(JSONObject(sorted.map { .init(key: $0.key.rawValue, value: .string($0.value.rawValue)) }))))
        }
        // Written only when changed, so a file from before engines reads back as it was.
        if longTextWords != SpeechSettings().longTextWords {
            members.append(.init(key: "longTextWords", value: .number(Double(longTextWords))))
        }
        if engineIdleSeconds != SpeechSettings().engineIdleSeconds {
            members.append(.init(key: "engineIdleSeconds", value: .number(Double(engineIdleSeconds))))
        }
        if verbosity != SpeechSettings().verbosity { members.append(.init(key: "verbosity", value: .string(verbosity.rawValue))) }
        members += [
            .init(key: "hintDelayMilliseconds", value: .number(Double(hintDelayMilliseconds))),
            .init(key: "hints", value: .bool(hints)),
            .init(key: "pitch", value: .number(Double(pitch))),
            .init(key: "punctuation", value: .string(punctuation.rawValue)),
            .init(key: "rate", value: .number(Double(rate))),
        ]
        if let voice { members.append(.init(key: "voice", value: .string(voice))) }
        members.append(.init(key: "volume", value: .number(Double(volume))))
        return .object(JSONObject(members.sorted { $0.key < $1.key }))
    }
}
