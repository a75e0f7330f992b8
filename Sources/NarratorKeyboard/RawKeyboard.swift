import NarratorBase

/// The keyboard as raw events tell it: X's raw events carry a keycode and nothing else, so the
/// modifiers held are kept here from the raw events themselves, in the order they came, and the
/// locks (Caps Lock, Num Lock) as XKB last reported them. Each raw key becomes the ``KeyEvent``
/// an application would have been given, with the state before the key, as X reports it.
public struct RawKeyboard: Equatable, Sendable {
    public var table: KeyboardTable
    /// XKB's locked modifiers: Lock 2, Mod2 (Num Lock) 16.
    public var locked: UInt32 = 0
    /// The keys held down that are modifiers, with the bit each holds.
    private var held: [UInt8: UInt32] = [:]
    /// What each key held down was pressed as: its release is the same key, whatever changed since.
    private var pressedAs: [UInt8: Keysym] = [:]
    /// The last few keys reported, with the server's time: the press that starts a grab is
    /// reported twice (raw, then grabbed), and counts once.
    private var recent: [RecentKey] = []

    private struct RecentKey: Equatable, Sendable {
        var keycode: UInt8
        var down: Bool
        var time: UInt
    }

    public init(table: KeyboardTable) { self.table = table }

    /// X's modifier state now: the modifiers held and the locks.
    public var state: UInt32 { held.values.reduce(locked & (2 | 16), |) }

    /// The key event raw key `keycode` going down (or up) at the server's `serverTime` makes, or
    /// nil for a key that gives no keysym or was reported already.
    public mutating func key(_ keycode: UInt8, down: Bool, serverTime: UInt = 0, at now: MonotonicInstant) -> KeyEvent? {
        let report = RecentKey(keycode: keycode, down: down, time: serverTime)
        if serverTime != 0 {
            if recent.contains(report) { return nil }
            recent.append(report)
            if recent.count > 8 { recent.removeFirst() }
        }
        let state = self.state
        if !down {
            held[keycode] = nil
            guard let key = pressedAs.removeValue(forKey: keycode) ?? table.keysym(keycode, state: state) else { return nil }
            return KeyEvent(.release, key, xModifiers: state, at: now)
        }
        guard let key = table.keysym(keycode, state: state) ?? table.keysym(keycode, state: 0) else { return nil }
        pressedAs[keycode] = key
        if let bit = Self.modifierBit(key) { held[keycode] = bit }
        return KeyEvent(.press, key, xModifiers: state, at: now)
    }

    /// The X modifier bit a key holds down: Shift 1, Control 4, Mod1 (Alt, Meta) 8.
    static func modifierBit(_ key: Keysym) -> UInt32? {
        switch key.rawValue {
        case 0xFFE1, 0xFFE2: 1
        case 0xFFE3, 0xFFE4: 4
        case 0xFFE7, 0xFFE8, 0xFFE9, 0xFFEA: 8
        default: nil
        }
    }
}
