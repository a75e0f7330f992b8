/// Which punctuation characters eSpeak NG reads aloud.
public enum PunctuationLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case none
    /// Symbols that carry meaning in UI text (#, $, %, &, *, +, /, <, =, >, @, \, ^, _, |, ~).
    case some
    /// Everything but the marks that end or split a sentence (. , ; : ! ?): the symbols of `some`
    /// and brackets, quotes and dashes. Speech Dispatcher's `PUNCTUATION most`.
    case most
    case all
}

/// How capital letters are made noticeable (Speech Dispatcher's `CAP_LET_RECOGN`).
public enum CapitalLetters: String, Sendable, Hashable, Codable, CaseIterable {
    /// Capitals are read like other letters (eSpeak NG's default).
    case none
    /// Each capital is spoken at a raised pitch.
    case pitch
    /// The word "capital" is said before each capital.
    case spell
    /// A short sound plays before each capital.
    case icon
}

/// The prosody of synthesized speech, in the protocol's units (every engine maps them to its own).
public struct VoiceParameters: Sendable, Hashable {
    /// The rates a voice may be given, in words per minute: the one range every front end checks
    /// (`set rate`, `--rate`, SSIP's scale, replays, experiments) and every engine is given.
    public static let rates: ClosedRange<Int> = 80...450
    /// Pitches and pitch ranges (50 is the voice's own).
    public static let pitches: ClosedRange<Int> = 0...100
    /// Volumes (100 is normal).
    public static let volumes: ClosedRange<Int> = 0...200

    /// Words per minute, within ``rates``.
    public var rate: Int
    /// Base pitch, 0...100 (50 is the voice's normal pitch).
    public var pitch: Int
    /// Volume, 0...200 (100 is normal).
    public var volume: Int
    public var punctuation: PunctuationLevel
    /// How much the pitch varies, 0...100: 0 is a monotone, 50 the voice's normal intonation
    /// (Speech Dispatcher's `PITCH_RANGE`).
    public var pitchRange: Int
    /// How capitals are signalled.
    public var capitals: CapitalLetters

    public init(
        rate: Int = 175, pitch: Int = 50, volume: Int = 100, punctuation: PunctuationLevel = .none,
        pitchRange: Int = 50, capitals: CapitalLetters = .none
    ) {
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.pitchRange = pitchRange
        self.capitals = capitals
    }
}

/// How the engine picks the voice for one utterance.
public indirect enum VoiceChoice: Sendable, Hashable {
    /// The voice the user chose by name (or identifier).
    case named(String)
    /// The best voice for a language tag such as "en-GB" or "fr".
    case language(String)
    /// eSpeak NG's default voice ("en").
    case standard
    /// A voice spoken with one of eSpeak NG's variants ("m1", "female2", "Mr serious"), which
    /// change its timbre and pitch: what SSIP's `VOICE_TYPE` and `SYNTHESIS_VOICE` ask for.
    case withVariant(VoiceChoice, variant: String)

    /// The voice without its variant.
    public var base: VoiceChoice {
        if case .withVariant(let base, _) = self { return base.base }
        return self
    }

    /// The variant asked for, if any.
    public var variant: String? {
        if case .withVariant(_, let variant) = self { return variant }
        return nil
    }

    /// This voice with `variant` (nil or empty: the plain voice), replacing any variant it had.
    public func with(variant: String?) -> VoiceChoice {
        guard let variant, !variant.isEmpty else { return base }
        return .withVariant(base, variant: variant)
    }
}

extension ClosedRange where Bound == Int {
    /// `value`, or the bound it passed.
    public func clamp(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
