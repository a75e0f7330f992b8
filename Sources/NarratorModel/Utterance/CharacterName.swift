/// A character as a screen reader says it alone (a character read by the arrow keys, SSIP's
/// CHAR): letters and digits as themselves, white space and punctuation by name, which a
/// synthesizer would otherwise say nothing for.
public enum CharacterName {
    public static let names: [Character: String] = [
        " ": "space", "\n": "new line", "\r\n": "new line", "\r": "carriage return", "\t": "tab",
        "\u{A0}": "no-break space",
        ".": "period", ",": "comma", ";": "semicolon", ":": "colon", "!": "exclamation mark",
        "?": "question mark", "'": "apostrophe", "\"": "double quote", "`": "grave accent",
        "(": "left paren", ")": "right paren", "[": "left bracket", "]": "right bracket",
        "{": "left brace", "}": "right brace", "<": "less than", ">": "greater than",
        "/": "slash", "\\": "backslash", "|": "vertical bar", "-": "dash", "_": "underscore",
        "+": "plus", "=": "equals", "*": "star", "&": "ampersand", "%": "percent",
        "$": "dollar", "#": "number sign", "@": "at", "^": "caret", "~": "tilde",
        "\u{2026}": "ellipsis", "\u{2013}": "en dash", "\u{2014}": "em dash",
        "\u{20AC}": "euro", "\u{A3}": "pound", "\u{A7}": "section", "\u{B0}": "degree",
    ]

    /// `character` as said alone: "space", "period", "a".
    public static func spoken(_ character: Character) -> String {
        names[character] ?? String(character)
    }
}
