/// What changed between two versions of a text field's value, as a user typing into it hears
/// it: the characters typed, or the ones deleted, rather than the whole text again on every key
/// (Orca, NVDA and VoiceOver echo the typed character, and say what Backspace took).
public struct TextEdit: Equatable, Sendable {
    /// What the new text has where the old one had `deleted`, between their common start and end.
    public var inserted: String
    public var deleted: String

    /// An edit known as it was made (an `edit` update): nothing to guess.
    public init(inserted: String, deleted: String) {
        self.inserted = inserted
        self.deleted = deleted
    }

    /// The edit from `old` to `new`: what lies between their longest common start and end.
    public init(from old: String, to new: String) {
        let a = Array(old), b = Array(new)
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var end = 0
        while end < a.count - start, end < b.count - start, a[a.count - 1 - end] == b[b.count - 1 - end] { end += 1 }
        inserted = String(b[start..<(b.count - end)])
        deleted = String(a[start..<(a.count - end)])
    }

    /// The words for it: what was typed (a character with no sound of its own by its name:
    /// "space", "tab", "newline"), else what was deleted ("x deleted"); nil when the text is the same.
    public func spoken(_ phrases: PhraseTable) -> String? {
        func said(_ text: String) -> String {
            let scalars = Array(text.unicodeScalars)
            if scalars.count == 1 { return CaretMotion.name(of: scalars[0], phrases) }
            let trimmed = text.trimmingWhitespace
            return trimmed.isEmpty ? CaretMotion.name(of: scalars.first ?? " ", phrases) : trimmed
        }
        if !inserted.isEmpty { return said(inserted) }
        if !deleted.isEmpty { return phrases[.deletedText].replacingAll("{text}", with: said(deleted)) }
        return nil
    }
}
