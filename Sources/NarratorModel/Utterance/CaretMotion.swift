/// What a caret or a selection moving in a text field says, as screen readers say it (Orca's
/// words are the reference): the character now at the caret, the word moved over, the line
/// arrived on ("blank" when it is empty), or what a selection took in ("F selected") or gave
/// back ("F unselected", "unselected" when it went).
public struct CaretMotion: Equatable, Sendable {
    /// How far a caret move went: what the user asked for with the key (Left, Ctrl+Right, Down).
    public enum Unit: String, CaseIterable, Sendable {
        case character, word, line
    }

    public var text: String
    /// The caret or selection before (nil: not known), and after.
    public var from: TextRange?
    public var to: TextRange
    /// What the move was by, when the one who moved it knows (the key); else it is told from
    /// the move itself.
    public var unit: Unit?

    public init(text: String, from: TextRange?, to: TextRange, unit: Unit? = nil) {
        self.text = text
        self.from = from
        self.to = to
        self.unit = unit
    }

    /// The words for the move; nil when nothing moved.
    public func spoken(_ phrases: PhraseTable) -> String? {
        guard from != to else { return nil }
        let scalars = Array(text.unicodeScalars)
        if to.length > 0 || (from?.length ?? 0) > 0 {
            return selectionChange(scalars, phrases)
        }
        let caret = clamp(to.location, scalars)
        switch unit ?? inferredUnit(scalars) {
        case .character: return Self.character(at: caret, in: scalars, phrases)
        case .line: return Self.line(at: caret, in: scalars, phrases)
        case .word: return word(scalars, caret: caret, phrases)
        }
    }

    /// Without the key: a move to another line says the line, one character the character, and
    /// anything longer on the same line the word moved over.
    func inferredUnit(_ scalars: [Unicode.Scalar]) -> Unit {
        guard let from else { return .line }
        let old = clamp(from.location, scalars), new = clamp(to.location, scalars)
        if Self.lineStart(old, scalars) != Self.lineStart(new, scalars) { return .line }
        return abs(new - old) == 1 ? .character : .word
    }

    /// The selection grew (what it took in, "selected") or shrank (what it gave back,
    /// "unselected"), or went ("unselected").
    func selectionChange(_ scalars: [Unicode.Scalar], _ phrases: PhraseTable) -> String? {
        if to.length == 0 { return phrases[.unselected] }
        let old = from.map { $0.length > 0 ? $0 : TextRange(location: $0.location, length: 0) } ?? TextRange(location: to.location, length: 0)
        let oldSet = old.location..<(old.location + old.length), newSet = to.location..<(to.location + to.length)
        // One end stays (the anchor) and the other moves: the difference is one run.
        if old.length > 0, oldSet.lowerBound == newSet.lowerBound || oldSet.upperBound == newSet.upperBound {
            if newSet.count > oldSet.count {
                let added = oldSet.lowerBound == newSet.lowerBound ? oldSet.upperBound..<newSet.upperBound : newSet.lowerBound..<oldSet.lowerBound
                return Self.run(added, scalars, phrases).map { phrases[.selectedText].replacingAll("{text}", with: $0) }
            }
            let removed = oldSet.lowerBound == newSet.lowerBound ? newSet.upperBound..<oldSet.upperBound : oldSet.lowerBound..<newSet.lowerBound
            return Self.run(removed, scalars, phrases).map { phrases[.unselectedText].replacingAll("{text}", with: $0) }
        }
        return Self.run(newSet, scalars, phrases).map { phrases[.selectedText].replacingAll("{text}", with: $0) }
    }

    /// The word the caret moved over (or, with nothing between, the one it is in).
    func word(_ scalars: [Unicode.Scalar], caret: Int, _ phrases: PhraseTable) -> String? {
        let old = from.map { clamp($0.location, scalars) } ?? caret
        var start = min(old, caret), end = max(old, caret)
        // Out to the whole words at either end (Ctrl+Right from "F|irst" moves over "First").
        while start > 0, Self.isWordCharacter(scalars[start - 1]), start < scalars.count, Self.isWordCharacter(scalars[start]) { start -= 1 }
        while end < scalars.count, end > 0, Self.isWordCharacter(scalars[end - 1]), Self.isWordCharacter(scalars[end]) { end += 1 }
        let words = String(String.UnicodeScalarView(scalars[start..<end])).split { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "_" }
        if let first = words.first, words.count == 1 { return String(first) }
        if words.count > 1, let first = words.first, let last = words.last {
            // More than one word (a move whose key is not known): the one the caret is in now.
            return caret >= old ? String(last) : String(first)
        }
        return Self.character(at: caret, in: scalars, phrases)
    }

    /// The character at `offset`, named when it has no sound of its own; "blank" at the end of
    /// a line or of the text.
    public static func character(at offset: Int, in scalars: [Unicode.Scalar], _ phrases: PhraseTable) -> String {
        guard offset >= 0, offset < scalars.count, scalars[offset] != "\n", scalars[offset] != "\r" else { return phrases[.blank] }
        return name(of: scalars[offset], phrases)
    }

    /// A character as it is said alone.
    static func name(of scalar: Unicode.Scalar, _ phrases: PhraseTable) -> String {
        switch scalar {
        case " ", "\u{A0}": phrases[.space]
        case "\t": phrases[.tabCharacter]
        case "\n", "\r", "\u{2028}": phrases[.newline]
        default: String(scalar)
        }
    }

    /// The line the caret is on, without its break and trailing blanks; "blank" when nothing is left.
    public static func line(at offset: Int, in scalars: [Unicode.Scalar], _ phrases: PhraseTable) -> String {
        let start = lineStart(offset, scalars)
        var end = start
        while end < scalars.count, scalars[end] != "\n" { end += 1 }
        let line = String(String.UnicodeScalarView(scalars[start..<end])).trimmingWhitespace
        return line.isEmpty ? phrases[.blank] : line
    }

    static func lineStart(_ offset: Int, _ scalars: [Unicode.Scalar]) -> Int {
        var start = min(max(offset, 0), scalars.count)
        while start > 0, scalars[start - 1] != "\n" { start -= 1 }
        return start
    }

    /// A run of text as said: line breaks as spaces, a blank run by its character's name.
    static func run(_ range: Range<Int>, _ scalars: [Unicode.Scalar], _ phrases: PhraseTable) -> String? {
        let range = max(0, range.lowerBound)..<min(scalars.count, max(range.upperBound, range.lowerBound))
        guard !range.isEmpty else { return nil }
        let said = String(String.UnicodeScalarView(scalars[range].map { $0 == "\n" || $0 == "\r" ? " " : $0 })).trimmingWhitespace
        return said.isEmpty ? name(of: scalars[range.lowerBound], phrases) : said
    }

    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "'" || scalar == "_"
    }

    func clamp(_ offset: Int, _ scalars: [Unicode.Scalar]) -> Int { min(max(offset, 0), scalars.count) }
}
