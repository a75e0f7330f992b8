/// What `GET` answers (251). speech-dispatcher answers 514 to the rest (`GET CLIENT_NAME`, `GET PRIORITY`).
public enum SSIPGettable: String, Sendable, Hashable, CaseIterable {
    case rate = "RATE"
    case pitch = "PITCH"
    /// speech-dispatcher 0.11.4 has no GET for it; answering costs nothing and python's client offers it.
    case pitchRange = "PITCH_RANGE"
    case volume = "VOLUME"
    case voiceType = "VOICE_TYPE"
    case language = "LANGUAGE"
    case outputModule = "OUTPUT_MODULE"
    /// python3-speechd's `get_punctuation` sends it and speech-dispatcher answers (`251-some`).
    case punctuation = "PUNCTUATION"

    /// The parameter as `GET` spells it (any case on input).
    public var ssip: String { rawValue }
}
