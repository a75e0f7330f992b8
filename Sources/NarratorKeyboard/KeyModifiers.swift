/// The modifiers of a chord: Narrator's own key, and X's Shift, Control and Alt (Caps Lock and
/// Num Lock, which X reports as modifiers too, change no binding).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let narrator = KeyModifiers(rawValue: 1)
    public static let control = KeyModifiers(rawValue: 2)
    public static let alt = KeyModifiers(rawValue: 4)
    public static let shift = KeyModifiers(rawValue: 8)

    /// From X's modifier bits as AT-SPI2 reports them: Shift 1, Control 4, Mod1 (Alt) 8.
    public init(x bits: UInt32) {
        var modifiers: KeyModifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 4 != 0 { modifiers.insert(.control) }
        if bits & 8 != 0 { modifiers.insert(.alt) }
        self = modifiers
    }

    /// In the order a keymap writes them: `Narrator+Control+Alt+Shift+`.
    static let spelled: [(KeyModifiers, String)] = [(.narrator, "Narrator"), (.control, "Control"), (.alt, "Alt"), (.shift, "Shift")]
}
