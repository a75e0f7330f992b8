/// The current word, and a text spelled letter by letter, for the key that says the word at
/// Narrator's cursor and, pressed twice, spells it (Orca's review current word, KP_5).
public enum Spelling {
    /// The word holding `offset` in `text`, or the one just before it (a caret after the last
    /// letter of a word is on that word, as Orca says it); nil where there is none on the line.
    public static func word(at offset: Int, in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        var start = min(max(offset, 0), scalars.count)
        if start == scalars.count || !CaretMotion.isWordCharacter(scalars[start]) {
            // Back over the blanks to the word before, on the same line.
            var back = start
            while back > 0, !CaretMotion.isWordCharacter(scalars[back - 1]), scalars[back - 1] != "\n" { back -= 1 }
            guard back > 0, CaretMotion.isWordCharacter(scalars[back - 1]) else { return nil }
            start = back - 1
        }
        var end = start
        while start > 0, CaretMotion.isWordCharacter(scalars[start - 1]) { start -= 1 }
        while end < scalars.count, CaretMotion.isWordCharacter(scalars[end]) { end += 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// `text` one character at a time, each as it is said alone ("space" for a blank), the
    /// characters parted by commas so that each is heard as a letter, not read as a word:
    /// "S, t, a, r, t".
    public static func spelled(_ text: String, _ phrases: PhraseTable) -> String {
        text.trimmingWhitespace.unicodeScalars.map { CaretMotion.name(of: $0, phrases) }.joined(separator: ", ")
    }
}
