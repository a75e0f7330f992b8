/// Which engine setting speaks an utterance: the user may give each kind of speech its own
/// engine (`engine.keys espeak-ng`, `engine.long piper`), so that a fast engine says what must
/// come at once and a natural-sounding but slower one reads what is long.
public enum SpeechRoute: String, Sendable, Hashable, CaseIterable {
    /// A typed character or key (SSIP's CHAR and KEY).
    case keys
    /// Focus, value and hint speech: where the user is.
    case focus
    /// Applications' announcements.
    case announcements
    /// `narratorctl speak` of short text.
    case speak
    /// An SSIP client's messages that are not keys.
    case ssip
    /// Text of more than `long-text-words` words, from `speak` or an SSIP message.
    case long

    /// The route of an utterance of `kind` saying `text` (`key`: an SSIP CHAR or KEY).
    public init(kind: SpeechKind, text: String, key: Bool, longTextWords: Int) {
        if key {
            self = .keys
            return
        }
        switch kind {
        case .focus, .value, .hint: self = .focus
        case .announcement: self = .announcements
        case .speak, .ssip:
            if Self.words(in: text, moreThan: longTextWords) {
                self = .long
            } else {
                self = kind == .speak ? .speak : .ssip
            }
        }
    }

    /// Whether `text` has more than `limit` words, counted without going past the limit.
    static func words(in text: String, moreThan limit: Int) -> Bool {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let space = scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r"
            if !space, !inWord {
                count += 1
                if count > limit { return true }
            }
            inWord = !space
        }
        return false
    }
}
