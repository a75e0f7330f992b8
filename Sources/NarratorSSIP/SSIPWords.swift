import NarratorModel

/// How KEY, CHAR and SOUND_ICON are put into words, and spelling mode: speech-dispatcher hands
/// these to the synthesizer as they are; narratord speaks words, so it says them itself.
public enum SSIPWords {
    /// A KEY name: SSIP joins modifiers and the key with "_" (`shift_a`, `control_alt_delete`),
    /// writes keypad keys `kp-…`, and names the keys "_" and "\"" `underscore` and `double-quote`.
    /// Unknown names read as the words in them (`nosuchkey_xyz` → "nosuchkey xyz").
    public static func key(_ name: String) -> String {
        if name.count == 1 { return character(name) }
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard !parts.isEmpty else { return character(name) }
        return parts.map { keyPart(String($0)) }.joined(separator: " ")
    }

    static func keyPart(_ part: String) -> String {
        let lowered = part.lowercased()
        if let word = keyWords[lowered] { return word }
        if lowered.hasPrefix("kp-"), lowered.count > 3 {
            let key = String(part.dropFirst(3))
            return "keypad " + (keypadWords[key] ?? keyPart(key))
        }
        if part.count == 1 { return character(part) }
        let words = part.split(separator: "-", omittingEmptySubsequences: true)
        return words.isEmpty ? character(part) : words.map { keyWords[$0.lowercased()] ?? String($0) }.joined(separator: " ")
    }

    /// Key names of SSIP (and the abbreviations clients use) that do not read as written.
    static let keyWords: [String: String] = [
        "ctrl": "control", "control": "control", "alt": "alt", "shift": "shift", "meta": "meta",
        "super": "super", "hyper": "hyper", "kp": "keypad",
        "esc": "escape", "escape": "escape", "del": "delete", "delete": "delete",
        "backspace": "backspace", "bs": "backspace", "enter": "enter", "return": "return",
        "tab": "tab", "space": "space", "underscore": "underscore", "double-quote": "double quote",
        "prior": "page up", "pgup": "page up", "next": "page down", "pgdn": "page down",
        "num-lock": "num lock", "scroll-lock": "scroll lock", "caps-lock": "caps lock",
        "print": "print screen", "menu": "menu", "window": "windows",
        "up": "up", "down": "down", "left": "left", "right": "right",
        "home": "home", "end": "end", "insert": "insert", "pause": "pause", "break": "break",
    ]

    /// The keypad's operator keys, named as printed on them rather than as punctuation.
    static let keypadWords: [String: String] = ["-": "minus", "+": "plus", "*": "times", "/": "divide", ".": "decimal point"]

    /// CHAR's argument: one character, or a name for one (`space`, which is how clients send a
    /// space). Letters and digits read as themselves; symbols and white space by name.
    public static func character(_ char: String) -> String {
        if char.count == 1, let first = char.first {
            if let name = characterNames[first] { return name }
            return char
        }
        if let word = keyWords[char.lowercased()] { return word }
        return char
    }

    /// (Shared with browse mode's characters: ``CharacterName``.)
    static let characterNames = CharacterName.names

    /// A SOUND_ICON's name as words: narratord has no sound files, so it says the icon's name
    /// (`window-close` → "window close").
    public static func soundIcon(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        return words.isEmpty ? name : words.joined(separator: " ")
    }

    /// Spelling mode (`SET SELF SPELLING on`): each character read on its own, separated by spaces.
    public static func spelled(_ text: String) -> String {
        text.map { character(String($0)) }.joined(separator: " ")
    }
}
