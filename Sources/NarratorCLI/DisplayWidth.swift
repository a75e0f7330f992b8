/// How many terminal columns text takes, for aligning tables: East Asian wide and fullwidth
/// characters and emoji take two columns, combining marks and other zero-width characters none,
/// everything else one. Counted per grapheme cluster, so "é" written as e + U+0301, a flag, or
/// a family emoji joined with zero-width joiners each count once.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        // Emoji: those shown as emoji by default, and text-default ones asked to be emoji (U+FE0F).
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || (scalars.contains("\u{FE0F}") && scalars.first?.properties.isEmoji == true)
        {
            return 2
        }
        // Otherwise the first scalar that takes space decides; the rest (combining marks,
        // Hangul medial and final jamo) sit on it.
        for scalar in scalars {
            let width = of(scalar)
            if width > 0 { return width }
        }
        return 0
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        let value = scalar.value
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// The East Asian Wide (W) and Fullwidth (F) blocks, by block rather than code point by code
    /// point: what a table of tree titles, texts and names can meet.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x1B000...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B to F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G and H
    ]

    /// `text` followed by spaces up to `width` columns (nothing added when it is already wider).
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}

/// "1 stop", "2 stops", "0 stops": a count with its noun, singular only for exactly one.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
