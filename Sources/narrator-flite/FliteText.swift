/// Text as Flite's English front end reads it. Flite works on bytes and knows only ASCII: a
/// curly apostrophe would split "don’t" into two odd words and an accented letter would be read
/// as its bytes. So typographic punctuation becomes its ASCII form, Latin letters with accents
/// lose them, control characters become spaces (a NUL would end the C string early), and any
/// other character (emoji, other scripts) becomes a space. Done per sentence, after splitting,
/// so that `S` offsets stay those of the original text.
enum FliteText {
    static func ascii(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7f ? " " : scalar)
            } else if let replacement = replacements[scalar] {
                result += replacement
            } else if let base = latinBase(scalar) {
                result.unicodeScalars.append(base)
            } else {
                result += " "
            }
        }
        return result
    }

    /// Punctuation and symbols with an ASCII form Flite reads the same way.
    static let replacements: [Unicode.Scalar: String] = [
        "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'",
        "“": "\"", "”": "\"", "„": "\"", "‟": "\"", "″": "\"", "«": "\"", "»": "\"",
        "–": "-", "—": " - ", "‐": "-", "‑": "-", "−": "-",
        "…": "...", "\u{00A0}": " ", "\u{2009}": " ", "\u{202F}": " ",
        "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
        "€": " euros ", "£": " pounds ", "°": " degrees ",
    ]

    /// The unaccented letter of a Latin letter with a diacritic (é → e, Ç → C, ł → l), from the
    /// Latin-1 Supplement and Latin Extended-A blocks, or nil.
    static func latinBase(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        if (0xC0...0xFF).contains(value) {
            let table = Array("AAAAAAACEEEEIIIIDNOOOOO_OUUUUYTsaaaaaaaceeeeiiiidnooooo_ouuuuyty".unicodeScalars)
            let base = table[Int(value - 0xC0)]
            return base == "_" ? nil : base
        }
        if (0x100...0x17F).contains(value) {
            // Pairs of upper and lower case, in the block's order.
            let table = Array(
                "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs"
                    .unicodeScalars)
            return table[Int(value - 0x100)]
        }
        return nil
    }
}
