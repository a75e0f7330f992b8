/// The keyboard as X translates it: for each keycode, the keysym it gives under each state of
/// X's five low modifier bits (Shift 1, Lock 2, Control 4, Mod1 (Alt) 8, Mod2 (Num Lock) 16).
/// The shell reads it from the X server once (and again when the mapping changes); with it the
/// bridge knows which keys to grab for a chord, and what a raw key press means.
public struct KeyboardTable: Equatable, Sendable {
    /// The states covered: every combination of the five low bits.
    public static let states: UInt32 = 32

    /// `keysyms[keycode * 32 + state]`, 0 where the key gives nothing.
    private var keysyms: [UInt32]

    /// An empty table (keycodes 0 to 255).
    public init() { keysyms = Array(repeating: 0, count: 256 * Int(Self.states)) }

    /// The table `lookup(keycode, state)` gives, for the keycodes in `keycodes`.
    public init(keycodes: ClosedRange<UInt8>, lookup: (UInt8, UInt32) -> UInt32) {
        self.init()
        for keycode in keycodes {
            for state in 0..<Self.states { keysyms[Int(keycode) * Int(Self.states) + Int(state)] = lookup(keycode, state) }
        }
    }

    /// The keysym `keycode` gives in `state` (bits above the five low ones are left out), or nil.
    public func keysym(_ keycode: UInt8, state: UInt32) -> Keysym? {
        let value = keysyms[Int(keycode) * Int(Self.states) + Int(state % Self.states)]
        return value == 0 ? nil : Keysym(value)
    }

    /// Sets what `keycode` gives in `state` (for tests: a layout of a few keys).
    public mutating func set(_ keycode: UInt8, state: UInt32, _ keysym: Keysym) {
        keysyms[Int(keycode) * Int(Self.states) + Int(state % Self.states)] = keysym.rawValue
    }
}
