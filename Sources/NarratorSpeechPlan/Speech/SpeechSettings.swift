import NarratorEngines
import NarratorModel

/// The user's speech preferences; persisted as JSON so that they survive daemon restarts.
///
/// File format (every key optional; missing keys take the defaults shown):
/// `{"voice": null, "rate": 175, "pitch": 50, "volume": 100, "punctuation": "none",
///   "hints": true, "hintDelayMilliseconds": 400, "engine": null, "engines": {"long": "piper"},
///   "longTextWords": 40, "engineIdleSeconds": 300, "verbosity": "verbose"}`
public struct SpeechSettings: Sendable, Hashable, Codable {
    /// The voice the user chose; nil lets the tree's language pick it.
    public var voice: String?
    public var rate: Int = 175
    public var pitch: Int = 50
    public var volume: Int = 100
    public var punctuation: PunctuationLevel = .none
    public var hints: Bool = true
    public var hintDelayMilliseconds: Int = 400
    /// The engine for all speech (nil: the engine of the chosen voice, else eSpeak NG).
    public var engine: EngineName?
    /// An engine per kind of speech, over ``engine`` (`engine.long piper`).
    public var routes: [SpeechRoute: EngineName] = [:]
    /// Text of more words than this, from `speak` or an SSIP message, is ``SpeechRoute/long``.
    public var longTextWords: Int = 40
    /// An engine process (Flite, Piper) unused for this many seconds is stopped, to give its
    /// memory back, and started again by its next speech; 0 keeps it running.
    public var engineIdleSeconds: Int = 300
    /// Speech on or off (Narrator+S): off, nothing is said from any client until it is on again
    /// (what plays goes on to its end); `stop` and every other request still work. Never saved:
    /// a screen reader that started silent could not say how to make it speak.
    public var speech: Bool = true
    /// How much each element says (Narrator+V): brief leaves out hints and a table's size.
    public var verbosity: Verbosity = .verbose

    public init() {}

    /// The idle limit of the engine processes (``engineIdleSeconds``); nil: never stopped.
    public var engineIdle: Duration? { engineIdleSeconds > 0 ? .seconds(engineIdleSeconds) : nil }

    /// The names accepted by ``set(_:to:)`` and ``get(_:)``.
    public static let keys = ["voice", "rate", "pitch", "volume", "punctuation", "hints", "hint-delay", "engine"]
        + SpeechRoute.allCases.map { "engine." + $0.rawValue } + ["long-text-words", "engine-idle", "speech", "verbosity"]

    /// The `engine` that leaves the choice to the voice (and a route's to `engine`).
    public static let automaticEngine = "auto"

    /// The engine asked for on `route`: its own, else the user's; nil leaves it to the voice.
    public func engine(for route: SpeechRoute) -> EngineName? {
        routes[route] ?? engine
    }

    /// The engine processes these settings choose among `engines` (by `engine`, a route, or the
    /// voice's owner), sorted: narratord starts them before their first utterance.
    public func chosenEngines(among engines: SpeechEngines) -> [EngineName] {
        var names = Set(routes.values)
        if let engine { names.insert(engine) }
        if let voice, let owner = engines.owner(ofVoice: voice) { names.insert(owner.engine) }
        return names.filter { $0 != SpeechEngines.espeak && engines.engine(named: $0) != nil }.sorted()
    }

    /// The route a key such as `engine.long` names.
    static func route(of key: String) -> SpeechRoute? {
        guard key.hasPrefix("engine.") else { return nil }
        return SpeechRoute(rawValue: String(key.dropFirst("engine.".count)))
    }

    /// The values a setting takes when they are a fixed set, as ``set(_:to:)`` names them when it
    /// refuses one and as completion offers them; nil for a number or a voice.
    public static func choices(for key: String) -> [String]? {
        switch key {
        case "punctuation": PunctuationLevel.allCases.map(\.rawValue)
        case "hints", "speech": ["on", "off"]
        case "verbosity": Verbosity.allCases.map(\.rawValue)
        default: nil
        }
    }

    /// The `voice` that lets each utterance's language pick the voice.
    public static let automaticVoice = "auto"

    public var parameters: VoiceParameters {
        VoiceParameters(rate: rate, pitch: pitch, volume: volume, punctuation: punctuation)
    }

    public var schedulerConfiguration: SpeechSchedulerConfiguration {
        SpeechSchedulerConfiguration(hintsEnabled: hints, hintDelay: .milliseconds(hintDelayMilliseconds), speechEnabled: speech)
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
        case "engine": return engine?.rawValue ?? Self.automaticEngine
        case "long-text-words": return String(longTextWords)
        case "engine-idle": return String(engineIdleSeconds)
        case "speech": return speech ? "on" : "off"
        case "verbosity": return verbosity.rawValue
        default:
            guard let route = Self.route(of: key) else { throw .unknownKey(key) }
            return routes[route]?.rawValue ?? Self.automaticEngine
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
        case "rate": rate = try number(VoiceParameters.rates)
        case "pitch": pitch = try number(VoiceParameters.pitches)
        case "volume": volume = try number(VoiceParameters.volumes)
        case "punctuation":
            guard let level = PunctuationLevel(rawValue: value) else {
                throw .outOfRange(key: key, value: value, allowed: (Self.choices(for: key) ?? []).joined(separator: ", "))
            }
            punctuation = level
        case "hints", "speech":
            let on: Bool
            switch value {
            case "on", "true", "1": on = true
            case "off", "false", "0": on = false
            default: throw .outOfRange(key: key, value: value, allowed: (Self.choices(for: key) ?? []).joined(separator: ", "))
            }
            if key == "hints" { hints = on } else { speech = on }
        case "verbosity":
            guard let level = Verbosity(rawValue: value) else {
                throw .outOfRange(key: key, value: value, allowed: (Self.choices(for: key) ?? []).joined(separator: ", "))
            }
            verbosity = level
        case "hint-delay": hintDelayMilliseconds = try number(0...10_000)
        case "engine": engine = (value == Self.automaticEngine || value.isEmpty) ? nil : EngineName(value)
        case "long-text-words": longTextWords = try number(1...100_000)
        case "engine-idle": engineIdleSeconds = try number(0...86_400)
        default:
            guard let route = Self.route(of: key) else { throw .unknownKey(key) }
            routes[route] = (value == Self.automaticEngine || value.isEmpty) ? nil : EngineName(value)
        }
    }

    /// ``set(_:to:)``, and a voice must name an entry of `catalog` (a voice by name or identifier,
    /// or a language one of them speaks, `de`, `en-gb`, each optionally with "+variant":
    /// "German+grandma"): it is kept as given, so `get voice` shows it.
    /// A voice may also be another engine's (`slt`, `flite/slt`), and an engine must be installed.
    public mutating func set(
        _ key: String, to value: String, installed catalog: VoiceCatalog, engines: SpeechEngines? = nil
    ) throws(SpeechSettingsError) {
        var changed = self
        try changed.set(key, to: value)
        if key == "voice", let name = changed.voice, catalog.choice(for: name) == nil {
            let other = engines?.owner(ofVoice: name).flatMap { owner in
                engines?.engine(named: owner.engine)?.voice(named: owner.voice) ?? (owner.engine == SpeechEngines.espeak ? catalog.voices.first { $0.name == owner.voice } : nil)
            }
            if other == nil { throw .unknownVoice(name, suggestion: catalog.suggestion(for: name)) }
        }
        if key == "engine" || Self.route(of: key) != nil, value != Self.automaticEngine, !value.isEmpty, let engines,
            engines.engine(named: EngineName(value)) == nil {
            throw .unknownEngine(value, installed: engines.names.map(\.rawValue))
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
        engine = try container.decodeIfPresent(String.self, forKey: .engine).map { EngineName($0) }
        let routeNames = try container.decodeIfPresent([String: String].self, forKey: .routes) ?? [:]
        for (name, engine) in routeNames { if let route = SpeechRoute(rawValue: name) { routes[route] = EngineName(engine) } }
        longTextWords = try container.decodeIfPresent(Int.self, forKey: .longTextWords) ?? defaults.longTextWords
        engineIdleSeconds = try container.decodeIfPresent(Int.self, forKey: .engineIdleSeconds) ?? defaults.engineIdleSeconds
        speech = try container.decodeIfPresent(Bool.self, forKey: .speech) ?? defaults.speech
        verbosity = try container.decodeIfPresent(String.self, forKey: .verbosity).flatMap(Verbosity.init(rawValue:)) ?? defaults.verbosity
    }

    private enum CodingKeys: String, CodingKey {
        case voice, rate, pitch, volume, punctuation, hints, hintDelayMilliseconds, engine, longTextWords, engineIdleSeconds, speech, verbosity
        case routes = "engines"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(voice, forKey: .voice)
        try container.encode(rate, forKey: .rate)
        try container.encode(pitch, forKey: .pitch)
        try container.encode(volume, forKey: .volume)
        try container.encode(punctuation, forKey: .punctuation)
        try container.encode(hints, forKey: .hints)
        try container.encode(hintDelayMilliseconds, forKey: .hintDelayMilliseconds)
        try container.encodeIfPresent(engine?.rawValue, forKey: .engine)
        if !routes.isEmpty {
            try container.encode(Dictionary(uniqueKeysWithValues: routes.map { ($0.key.rawValue, $0.value.rawValue) }), forKey: .routes)
        }
        try container.encode(longTextWords, forKey: .longTextWords)
        try container.encode(engineIdleSeconds, forKey: .engineIdleSeconds)
        try container.encode(speech, forKey: .speech)
        try container.encode(verbosity.rawValue, forKey: .verbosity)
    }
}

/// Why a setting could not be read, changed or saved.
public enum SpeechSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownKey(String)
    case outOfRange(key: String, value: String, allowed: String)
    /// A voice name that names nothing, and the nearest that does (if one is close).
    case unknownVoice(String, suggestion: String?)
    /// An engine that is not installed, and those that are.
    case unknownEngine(String, installed: [String])
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownEngine(let name, let installed):
            "no engine is named '\(name)': installed are \(installed.joined(separator: ", ")) (or 'auto': the voice's engine)"
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

