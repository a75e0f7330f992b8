import NarratorBase

/// A key going down or up, as an application gets it: the keysym and X's modifier bits (from
/// AT-SPI2's keystroke listener, or made of an X raw event by ``RawKeyboard``), stamped with the
/// monotonic clock when it came in.
public struct KeyEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case press, release }

    public var kind: Kind
    public var key: Keysym
    /// X's modifier bits: Shift 1, Lock 2, Control 4, Mod1 (Alt) 8, Mod2 (Num Lock) 16.
    public var xModifiers: UInt32
    public var at: MonotonicInstant

    public init(_ kind: Kind, _ key: Keysym, xModifiers: UInt32 = 0, at: MonotonicInstant) {
        self.kind = kind
        self.key = key
        self.xModifiers = xModifiers
        self.at = at
    }
}

/// What the key's target is, as the bridge knows it: browse mode's keys are Narrator's only on
/// a document read in browse mode, never in a text field or a control that wants letters.
public struct KeyContext: Equatable, Sendable {
    /// The focus is in a document (a web page).
    public var page: Bool
    /// The focus is on something in it that takes keys (a field, a combo box, a slider), put there
    /// by the application (Tab), not by browse mode's cursor: focus mode, until Escape.
    public var field: Bool

    public init(page: Bool, field: Bool = false) {
        self.page = page
        self.field = field
    }

    /// Browse mode's keys apply here (when browse mode is on).
    public var inDocument: Bool { page && !field }
}

/// What the interpreter decided for one key event.
public struct KeyVerdict: Equatable, Sendable {
    /// Narrator takes the key: the application never sees it. Otherwise it goes on unchanged.
    public var take: Bool
    public var actions: [KeyAction]

    public init(take: Bool, _ actions: [KeyAction] = []) {
        self.take = take
        self.actions = actions
    }

    public static let pass = KeyVerdict(take: false)
    public static let taken = KeyVerdict(take: true)
}

/// What a key asks of Narrator, for the bridge to carry out.
public enum KeyAction: Equatable, Sendable {
    /// Run a command; `presses` is 2 when the same chord came twice in quick succession.
    case run(KeyCommand, presses: Int)
    /// Learn mode: say what the chord does (nil: nothing), without doing it.
    case describe(KeyChord, KeyCommand?)
    case learnModeStarted
    case learnModeEnded
    /// Browse mode (true) or focus mode (false) was chosen.
    case browseMode(Bool)
    /// Control alone: silence now (the key still reaches the application).
    case stopSpeech
    /// Caps Lock was Narrator's key: the X server toggled its lock anyway, so it is put back
    /// as it was before the press (on: locked).
    case restoreCapsLock(on: Bool)
}
