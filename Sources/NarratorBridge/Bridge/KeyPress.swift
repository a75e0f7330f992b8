import NarratorModel

/// A key the user pressed, as AT-SPI2's keystroke listener reports it (an X keysym and the
/// modifiers held): what tells a caret move by a character from one by a word or a line, as
/// Orca tells them. GTK 4 reports no keys; there the move itself tells (``CaretMotion``).
public struct KeyPress: Equatable, Sendable {
    public var keysym: UInt32
    /// X modifier bits: 1 Shift, 4 Control, 8 Alt.
    public var modifiers: UInt32

    public init(keysym: UInt32, modifiers: UInt32) {
        self.keysym = keysym
        self.modifiers = modifiers
    }

    public var shift: Bool { modifiers & 1 != 0 }
    public var control: Bool { modifiers & 4 != 0 }

    /// What a caret moved by this key moved by: Left and Right a character (with Control a
    /// word), Up, Down and the page keys a line, Home and End a character (what Orca says
    /// there), with Control a line. Nil for a key that moves no caret.
    public var caretUnit: CaretMotion.Unit? {
        switch keysym {
        case 0xFF51, 0xFF53, 0xFF96, 0xFF98: return control ? .word : .character  // Left, Right (and keypad)
        case 0xFF52, 0xFF54, 0xFF55, 0xFF56, 0xFF97, 0xFF99, 0xFF9A, 0xFF9B: return .line  // Up, Down, Page Up, Page Down
        case 0xFF50, 0xFF57, 0xFF95, 0xFF9C: return control ? .line : .character  // Home, End
        default: return nil
        }
    }

    /// Whether the key moves the focus from control to control (Tab, and Shift+Tab, which X
    /// reports as ISO_Left_Tab): the caret a field reports as it arrives is where the focus put
    /// it, which the focus's own words say, not a move the user made in its text.
    public var movesFocus: Bool { keysym == 0xFF09 || keysym == 0xFE20 }

    /// Narrator's browse cursor moved the application's focus or caret (a key Narrator took): as
    /// after Tab, the caret that arrives with it is where the focus put it, and says nothing.
    public static let cursorMoved = KeyPress(keysym: 0xFF09, modifiers: 0)

    /// Whether the key moves a selection's end rather than the caret (Shift with a moving key):
    /// the selection's change says what it took in, and the caret's own move says nothing.
    public var extendsSelection: Bool { shift && caretUnit != nil }
}
