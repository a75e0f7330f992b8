import NarratorBase

/// The X keyboard as the bridge drives it: raw key events read as the application gets them
/// (``RawKeyboard``), the grabs that keep Narrator's keys from the application worked out again
/// whenever what they depend on changes, and when a grabbed key last went down or up.
public struct GrabbedKeyboard: Equatable, Sendable {
    public var raw: RawKeyboard
    /// The grabs in place and what they were worked out from.
    private var grabs: KeyGrabs?
    private var basis: Basis?
    /// When a key Narrator grabbed last went down or up (``grabEcho(at:)``).
    private var lastGrabbedKey: MonotonicInstant?
    /// The grabbed keys down now.
    private var grabbedDown: Set<UInt8> = []

    /// What the grabs depend on: when none of it changed, neither did they.
    private struct Basis: Equatable, Sendable {
        var keymap: Keymap
        var learning: Bool
        var browsing: Bool
        var context: KeyContext
        var tapOpen: Bool
    }

    /// Within this long of a key Narrator grabbed, the focused window's deactivation and
    /// activation are the grab's doing: X tells a window it lost the focus when another client's
    /// grab activates, and that it got it back when the grab ends, and GTK and Firefox pass both on.
    public static let grabEchoTime: Duration = .milliseconds(400)

    public init(table: KeyboardTable) { raw = RawKeyboard(table: table) }

    /// A new mapping: the same keys may be on other keycodes, so everything is grabbed afresh.
    public mutating func remap(_ table: KeyboardTable) {
        raw.table = table
        basis = nil
    }

    /// A key Narrator grabbed went down or up now.
    public mutating func grabbed(_ keycode: UInt8, down: Bool, at now: MonotonicInstant) {
        lastGrabbedKey = now
        if down { grabbedDown.insert(keycode) } else { grabbedDown.remove(keycode) }
    }

    /// A key Narrator did not grab went down with no grabbed key held: what the application does
    /// now is that key's doing, not a grab's echo (Tab pressed just after H moves the focus for
    /// the user). One pressed while a grabbed key is held (w of Narrator+w, which Narrator lets
    /// by) comes before the application has even had the grab's bounce.
    public mutating func passedThrough() {
        if grabbedDown.isEmpty { lastGrabbedKey = nil }
    }

    /// Whether a window's activation now is a grab's echo.
    public func grabEcho(at now: MonotonicInstant) -> Bool {
        guard let last = lastGrabbedKey else { return false }
        return now - last < Self.grabEchoTime
    }

    /// The grabs `interpreter` needs where the focus is `context`, when they differ from those
    /// in place (nil: nothing to change).
    public mutating func regrab(for interpreter: KeyInterpreter, context: KeyContext, at now: MonotonicInstant) -> KeyGrabs? {
        let next = Basis(
            keymap: interpreter.keymap, learning: interpreter.learning, browsing: interpreter.browsing, context: context,
            tapOpen: interpreter.tapOpen(at: now))
        guard next != basis else { return nil }
        basis = next
        let wanted = interpreter.grabs(on: raw.table, context: context, at: now)
        guard wanted != grabs else { return nil }
        grabs = wanted
        return wanted
    }
}
