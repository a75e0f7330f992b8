/// The SSIP commands that say something, as the log's `command` column and traces name them.
public enum SSIPSpeechCommand: String, Sendable, Hashable, CaseIterable {
    case speak = "SPEAK"
    case char = "CHAR"
    case key = "KEY"
    case soundIcon = "SOUND_ICON"

    /// Only `SPEAK` messages go before the gate: a character, a key or an icon is the user's own
    /// echo, never deduplicated or throttled.
    public var isJudged: Bool { self == .speak }
}
