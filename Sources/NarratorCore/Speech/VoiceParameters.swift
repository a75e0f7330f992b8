/// Which punctuation characters eSpeak NG reads aloud.
public enum PunctuationLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case none
    /// Symbols that carry meaning in UI text (#, $, %, &, *, +, /, <, =, >, @, \, ^, _, |, ~).
    case some
    case all
}

/// The prosody of synthesized speech.
public struct VoiceParameters: Sendable, Hashable {
    /// Words per minute, 80...450.
    public var rate: Int
    /// Base pitch, 0...100 (50 is the voice's normal pitch).
    public var pitch: Int
    /// Volume, 0...200 (100 is normal).
    public var volume: Int
    public var punctuation: PunctuationLevel

    public init(rate: Int = 175, pitch: Int = 50, volume: Int = 100, punctuation: PunctuationLevel = .none) {
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
    }
}

/// How the engine picks the voice for one utterance.
public enum VoiceChoice: Sendable, Hashable {
    /// The voice the user chose by name (or identifier).
    case named(String)
    /// The best voice for a language tag such as "en-GB" or "fr".
    case language(String)
    /// eSpeak NG's default voice ("en").
    case standard
}
