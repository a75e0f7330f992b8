/// A key with the modifiers held, as a keymap binds it: `Narrator+h`, `Alt+Shift+Right`, `KP_Add`.
public struct KeyChord: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var key: Keysym
    public var modifiers: KeyModifiers

    public init(_ key: Keysym, _ modifiers: KeyModifiers = []) {
        // Shift+h arrives as `H`, Shift+1 as `exclam`: one chord either way.
        if key.unshifted != key {
            self.key = key.unshifted
            self.modifiers = modifiers.union(.shift)
        } else {
            self.key = key
            self.modifiers = modifiers
        }
    }

    /// Parses `Narrator+Shift+h`; modifier names without case (`Ctrl` for Control too).
    public init(parsing text: String) throws(KeymapProblem) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard let last = parts.last, !last.isEmpty else { throw .noKey(text) }
        var modifiers: KeyModifiers = []
        for part in parts.dropLast() {
            switch part.lowercased() {
            case "narrator": modifiers.insert(.narrator)
            case "control", "ctrl": modifiers.insert(.control)
            case "alt": modifiers.insert(.alt)
            case "shift": modifiers.insert(.shift)
            default: throw .unknownModifier(part)
            }
        }
        guard let key = Keysym(named: last) else { throw .unknownKey(last) }
        self.init(key, modifiers)
    }

    public var description: String {
        KeyModifiers.spelled.filter { modifiers.contains($0.0) }.map { $0.1 + "+" }.joined() + key.name
    }

    public static func < (lhs: KeyChord, rhs: KeyChord) -> Bool {
        (lhs.modifiers.rawValue, lhs.key) < (rhs.modifiers.rawValue, rhs.key)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

extension KeyChord {
    /// How learn mode says the chord: "Narrator T", "Shift H", "keypad Enter".
    public var spoken: String {
        var words = KeyModifiers.spelled.filter { modifiers.contains($0.0) }.map(\.1)
        var name = key.name
        if name.hasPrefix("KP_") { name = "keypad " + name.dropFirst(3) }
        words.append(name.count == 1 ? name.uppercased() : name.replacingUnderscores)
        return words.joined(separator: " ")
    }
}

extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
