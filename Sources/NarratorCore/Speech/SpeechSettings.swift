/// The user's speech preferences; persisted as JSON so that they survive daemon restarts.
///
/// File format (every key optional; missing keys take the defaults shown):
/// `{"voice": null, "rate": 175, "pitch": 50, "volume": 100, "punctuation": "none",
///   "hints": true, "hintDelayMilliseconds": 400}`
public struct SpeechSettings: Sendable, Hashable, Codable {
    /// The voice the user chose; nil lets the tree's language pick it.
    public var voice: String?
    public var rate: Int = 175
    public var pitch: Int = 50
    public var volume: Int = 100
    public var punctuation: PunctuationLevel = .none
    public var hints: Bool = true
    public var hintDelayMilliseconds: Int = 400

    public init() {}

    /// The names accepted by ``set(_:to:)`` and ``get(_:)``.
    public static let keys = ["voice", "rate", "pitch", "volume", "punctuation", "hints", "hint-delay"]

    /// The values a setting takes when they are a fixed set, as ``set(_:to:)`` names them when it
    /// refuses one and as completion offers them; nil for a number or a voice.
    public static func choices(for key: String) -> [String]? {
        switch key {
        case "punctuation": PunctuationLevel.allCases.map(\.rawValue)
        case "hints": ["on", "off"]
        default: nil
        }
    }

    /// The `voice` that lets each utterance's language pick the voice.
    public static let automaticVoice = "auto"

    public var parameters: VoiceParameters {
        VoiceParameters(rate: rate, pitch: pitch, volume: volume, punctuation: punctuation)
    }

    public var schedulerConfiguration: SpeechSchedulerConfiguration {
        SpeechSchedulerConfiguration(hintsEnabled: hints, hintDelay: .milliseconds(hintDelayMilliseconds))
    }

    /// The value of a setting as text (`voice` is "auto" when the language picks it).
    public func get(_ key: String) throws(SpeechSettingsError) -> String {
        switch key {
        case "voice": return voice ?? Self.automaticVoice
        case "rate": return String(rate)
        case "pitch": return String(pitch)
        case "volume": return String(volume)
        case "punctuation": return punctuation.rawValue
        case "hints": return hints ? "on" : "off"
        case "hint-delay": return String(hintDelayMilliseconds)
        default: throw .unknownKey(key)
        }
    }

    /// Changes a setting from text, checking its range. `voice auto` returns the choice to the language.
    public mutating func set(_ key: String, to value: String) throws(SpeechSettingsError) {
        func number(_ range: ClosedRange<Int>) throws(SpeechSettingsError) -> Int {
            guard let number = Int(value), range.contains(number) else {
                throw .outOfRange(key: key, value: value, allowed: "\(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        switch key {
        case "voice": voice = (value == Self.automaticVoice || value.isEmpty) ? nil : value
        case "rate": rate = try number(80...450)
        case "pitch": pitch = try number(0...100)
        case "volume": volume = try number(0...200)
        case "punctuation":
            guard let level = PunctuationLevel(rawValue: value) else {
                throw .outOfRange(key: key, value: value, allowed: Self.choices(for: key)!.joined(separator: ", "))
            }
            punctuation = level
        case "hints":
            switch value {
            case "on", "true", "1": hints = true
            case "off", "false", "0": hints = false
            default: throw .outOfRange(key: key, value: value, allowed: Self.choices(for: key)!.joined(separator: ", "))
            }
        case "hint-delay": hintDelayMilliseconds = try number(0...10_000)
        default: throw .unknownKey(key)
        }
    }

    /// ``set(_:to:)``, and a voice must name an entry of `catalog` (a voice by name or identifier,
    /// or a language one of them speaks, `de`, `en-gb`, each optionally with "+variant":
    /// "German+grandma"): it is kept as given, so `get voice` shows it.
    public mutating func set(_ key: String, to value: String, installed catalog: VoiceCatalog) throws(SpeechSettingsError) {
        var changed = self
        try changed.set(key, to: value)
        if key == "voice", let name = changed.voice, catalog.choice(for: name) == nil {
            throw .unknownVoice(name, suggestion: catalog.suggestion(for: name))
        }
        self = changed
    }

    /// The voice the user chose, as the engine selects it: a voice by name, or a language's voice
    /// (see ``VoiceCatalog/choice(for:)``), with its variant; nil lets each utterance's language pick it.
    public func chosenVoice(installed catalog: VoiceCatalog) -> VoiceChoice? {
        guard let voice else { return nil }
        // A name saved before (or written in the file by hand) that names neither is passed on
        // as a name: the engine falls back to its default voice for it.
        return catalog.choice(for: voice) ?? .named(voice)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SpeechSettings()
        voice = try container.decodeIfPresent(String.self, forKey: .voice)
        rate = try container.decodeIfPresent(Int.self, forKey: .rate) ?? defaults.rate
        pitch = try container.decodeIfPresent(Int.self, forKey: .pitch) ?? defaults.pitch
        volume = try container.decodeIfPresent(Int.self, forKey: .volume) ?? defaults.volume
        punctuation = try container.decodeIfPresent(PunctuationLevel.self, forKey: .punctuation) ?? defaults.punctuation
        hints = try container.decodeIfPresent(Bool.self, forKey: .hints) ?? defaults.hints
        hintDelayMilliseconds =
            try container.decodeIfPresent(Int.self, forKey: .hintDelayMilliseconds) ?? defaults.hintDelayMilliseconds
    }
}

/// Why a setting could not be read, changed or saved.
public enum SpeechSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownKey(String)
    case outOfRange(key: String, value: String, allowed: String)
    /// A voice name that names nothing, and the nearest that does (if one is close).
    case unknownVoice(String, suggestion: String?)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownKey(let key):
            "unknown speech setting '\(key)': expected one of \(SpeechSettings.keys.joined(separator: ", "))"
        case .outOfRange(let key, let value, let allowed):
            "'\(value)' is not a valid \(key): expected \(allowed)"
        case .unknownVoice(let name, let suggestion):
            "no installed voice is named '\(name)'\(suggestion.map { " (did you mean '\($0)'?)" } ?? ""), nor speaks a language of that code: "
                + "narratorctl voices lists them (a name or one of its languages, each also as NAME+VARIANT, see --variants), or use 'auto' to follow the language"
        case .unreadable(let path, let reason):
            "cannot read speech settings '\(path)': \(reason) (fix or delete the file)"
        case .unwritable(let path, let reason):
            "cannot save speech settings to '\(path)': \(reason)"
        }
    }
}

