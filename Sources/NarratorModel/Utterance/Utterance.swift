/// What Narrator says for a focus stop: the main text, and the hint spoken after a pause.
public struct Utterance: Equatable, Sendable {
    /// "rating, 3, adjustable".
    public var text: String
    /// The hint (followed by "actions available" when the element has custom actions), or nil.
    public var hint: String?

    public init(text: String, hint: String? = nil) {
        self.text = text
        self.hint = hint
    }

    /// Joins parts with ", ", skipping empty parts and parts that repeat an earlier one
    /// (ignoring case), so "Play, play, button" becomes "Play, button".
    public static func join(_ parts: [String]) -> String {
        var kept: [String] = []
        var folded: [String] = []
        kept.reserveCapacity(parts.count)
        for part in parts {
            let trimmed = part.trimmingWhitespace
            guard !trimmed.isEmpty else { continue }
            let key = trimmed.lowercased()
            // Utterances have a handful of parts: a linear scan beats hashing.
            guard !folded.contains(key) else { continue }
            folded.append(key)
            kept.append(trimmed)
        }
        return kept.joined(separator: ", ")
    }
}

extension String {
    package var trimmingWhitespace: String {
        if let first = utf8.first, let last = utf8.last, first > 0x20, last > 0x20, first < 0x80, last < 0x80 {
            return self
        }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
