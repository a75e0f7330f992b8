/// An X keysym: what AT-SPI2's keystroke listener reports a key as, and what a keymap names.
/// Names are X's (`KP_Add`, `Insert`, `h`), so a line of a keymap reads as `xev` shows the key.
public struct Keysym: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    public static func < (lhs: Keysym, rhs: Keysym) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The keysym named `name` (X's spelling; `H` is Shift+h, as X reports it), or nil.
    public init?(named name: String) {
        if let value = Self.byName[name] {
            self.init(value)
        } else if name.count == 1, let scalar = name.unicodeScalars.first, scalar.isASCII,
            scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
        {
            self.init(scalar.value)
        } else {
            return nil
        }
    }

    /// X's name for the key (a letter in lower case), or its number when it has none here.
    public var name: String {
        if let name = Self.byValue[rawValue] { return name }
        if let scalar = Unicode.Scalar(rawValue), scalar.isASCII, rawValue > 0x20, rawValue < 0x7F { return String(Character(scalar)) }
        return "0x" + String(rawValue, radix: 16, uppercase: true)
    }

    public var description: String { name }

    /// A Latin capital letter is the same key with Shift held: X reports Shift+h as `H`. So are
    /// the US layout's shifted digits (Shift+1 is `exclam`), which Orca's Shift+1 to 6 press.
    public var unshifted: Keysym {
        if (0x41...0x5A).contains(rawValue) { return Keysym(rawValue + 0x20) }
        if let digit = Self.shiftedDigits[rawValue] { return Keysym(digit) }
        return self
    }

    /// `! @ # $ % ^ & * ( )` over `1 2 3 4 5 6 7 8 9 0` on a US keyboard.
    static let shiftedDigits: [UInt32: UInt32] = [
        0x21: 0x31, 0x40: 0x32, 0x23: 0x33, 0x24: 0x34, 0x25: 0x35, 0x5E: 0x36, 0x26: 0x37, 0x2A: 0x38, 0x28: 0x39, 0x29: 0x30,
    ]

    /// Whether the key is a modifier of its own (Shift, Control, Alt, Super), which never
    /// completes a chord.
    public var isModifier: Bool { (0xFFE1...0xFFEE).contains(rawValue) || rawValue == 0xFE03 }

    public var isControl: Bool { rawValue == 0xFFE3 || rawValue == 0xFFE4 }

    public static let insert = Keysym(0xFF63)
    public static let keypadInsert = Keysym(0xFF9E)
    public static let capsLock = Keysym(0xFFE5)
    public static let escape = Keysym(0xFF1B)

    /// The named keys a keymap may use beyond letters and digits.
    static let names: [(String, UInt32)] = [
        ("space", 0x20), ("comma", 0x2C), ("period", 0x2E), ("slash", 0x2F), ("semicolon", 0x3B),
        ("apostrophe", 0x27), ("minus", 0x2D), ("equal", 0x3D), ("bracketleft", 0x5B), ("bracketright", 0x5D),
        ("BackSpace", 0xFF08), ("Tab", 0xFF09), ("Return", 0xFF0D), ("Escape", 0xFF1B), ("Delete", 0xFFFF),
        ("Home", 0xFF50), ("Left", 0xFF51), ("Up", 0xFF52), ("Right", 0xFF53), ("Down", 0xFF54),
        ("Page_Up", 0xFF55), ("Page_Down", 0xFF56), ("End", 0xFF57), ("Insert", 0xFF63),
        ("KP_Enter", 0xFF8D), ("KP_Home", 0xFF95), ("KP_Left", 0xFF96), ("KP_Up", 0xFF97), ("KP_Right", 0xFF98),
        ("KP_Down", 0xFF99), ("KP_Page_Up", 0xFF9A), ("KP_Page_Down", 0xFF9B), ("KP_End", 0xFF9C),
        ("KP_Begin", 0xFF9D), ("KP_Insert", 0xFF9E), ("KP_Delete", 0xFF9F), ("KP_Multiply", 0xFFAA),
        ("KP_Add", 0xFFAB), ("KP_Subtract", 0xFFAD), ("KP_Divide", 0xFFAF),
        ("F1", 0xFFBE), ("F2", 0xFFBF), ("F3", 0xFFC0), ("F4", 0xFFC1), ("F5", 0xFFC2), ("F6", 0xFFC3),
        ("F7", 0xFFC4), ("F8", 0xFFC5), ("F9", 0xFFC6), ("F10", 0xFFC7), ("F11", 0xFFC8), ("F12", 0xFFC9),
        ("Shift_L", 0xFFE1), ("Shift_R", 0xFFE2), ("Control_L", 0xFFE3), ("Control_R", 0xFFE4),
        ("Caps_Lock", 0xFFE5), ("Alt_L", 0xFFE9), ("Alt_R", 0xFFEA), ("Super_L", 0xFFEB), ("Super_R", 0xFFEC),
        ("ISO_Left_Tab", 0xFE20),
    ]
    static let byName: [String: UInt32] = Dictionary(names.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
    static let byValue: [UInt32: String] = Dictionary(names.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
}
