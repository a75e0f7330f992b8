import CX11
import NarratorKeyboard

/// Why keys cannot come from the X server, so AT-SPI2's keystroke listener is used instead.
enum XKeyboardUnavailable: Error, CustomStringConvertible {
    /// No X server answers on $DISPLAY (a Wayland session without Xwayland's keys, or none at all).
    case noDisplay
    /// The server lacks XInput 2.2, whose raw events every key reaches Narrator by.
    case noXInput
    /// The server lacks XKB, which translates keycodes and reports the locks.
    case noXKB
    /// No master keyboard was found to grab keys on.
    case noKeyboard

    var description: String {
        switch self {
        case .noDisplay: "no X server answers on $DISPLAY"
        case .noXInput: "the X server has no XInput 2.2"
        case .noXKB: "the X server has no XKB"
        case .noKeyboard: "the X server reports no master keyboard"
        }
    }
}

/// narrator-atspi's keyboard on an X server, on a display connection of its own: every key as
/// XInput 2's raw events report it (they take nothing from the application), or as the grab
/// delivers it while one of Narrator's grabs is active (no raw events come then), XKB's lock and
/// mapping changes, and the passive grabs of exactly the keys the bridge says Narrator takes.
/// The X server hands every other key to the application itself, so none waits for Narrator.
/// It decides nothing.
final class XInputKeyboard {
    enum Event {
        /// A key, with the server's time (a raw event and a grabbed event of one key share it).
        case key(UInt8, down: Bool, time: UInt)
        case locked(UInt32)
        case mappingChanged
    }

    /// The window the grabs are on: the one with the X focus (``narrator_x_focus``).
    private var grabWindow: Window

    private let display: OpaquePointer
    private let root: Window
    private let opcode: Int32
    private let xkbEvent: Int32
    private let keyboard: Int32
    /// XKB's locked modifiers when the connection was opened.
    let initiallyLocked: UInt32
    /// The grabs in place.
    private var grabbed = KeyGrabs()

    private init(display: OpaquePointer, root: Window, opcode: Int32, xkbEvent: Int32, keyboard: Int32, locked: UInt32) {
        self.display = display
        self.root = root
        self.opcode = opcode
        self.xkbEvent = xkbEvent
        self.keyboard = keyboard
        initiallyLocked = locked
        grabWindow = narrator_x_focus(display, root)
    }

    deinit { XCloseDisplay(display) }

    /// Opens the display, asks for raw key events and XKB's changes.
    static func open() throws(XKeyboardUnavailable) -> XInputKeyboard {
        narrator_x_survive_errors()
        guard let display = XOpenDisplay(nil) else { throw .noDisplay }
        var opcode: Int32 = 0
        guard narrator_xi_available(display, &opcode) != 0 else {
            XCloseDisplay(display)
            throw .noXInput
        }
        var xkbEvent: Int32 = 0
        var locked: UInt32 = 0
        guard narrator_xkb_watch(display, &xkbEvent, &locked) != 0 else {
            XCloseDisplay(display)
            throw .noXKB
        }
        let keyboard = narrator_xi_master_keyboard(display)
        guard keyboard >= 0 else {
            XCloseDisplay(display)
            throw .noKeyboard
        }
        let root = XDefaultRootWindow(display)
        _ = narrator_xi_select_raw_keys(display, root)
        narrator_x_watch_focus(display, root)
        XFlush(display)
        return XInputKeyboard(display: display, root: root, opcode: opcode, xkbEvent: xkbEvent, keyboard: keyboard, locked: locked)
    }

    /// The connection's descriptor, to be woken when events come.
    var fd: Int32 { XConnectionNumber(display) }

    /// What each keycode gives under each modifier state, as XKB translates it now.
    func table() -> KeyboardTable {
        var low: Int32 = 8
        var high: Int32 = 255
        XDisplayKeycodes(display, &low, &high)
        let keycodes = UInt8(clamping: max(low, 0))...UInt8(clamping: min(high, 255))
        return KeyboardTable(keycodes: keycodes) { keycode, state in
            UInt32(truncatingIfNeeded: narrator_x_keysym(display, Int32(keycode), state))
        }
    }

    /// Hands each event waiting on the connection (read or already queued) to `body`, in order.
    func drain(_ body: (Event) -> Void) {
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            var keycode: Int32 = 0
            var autorepeat: Int32 = 0
            var locked: UInt32 = 0
            var time: UInt = 0
            switch narrator_x_key_event(display, &event, opcode, xkbEvent, &keycode, &autorepeat, &time, &locked) {
            case 1: body(.key(UInt8(clamping: keycode), down: true, time: time))
            case 2: body(.key(UInt8(clamping: keycode), down: false, time: time))
            case 3: body(.locked(locked))
            case 4: body(.mappingChanged)
            case 5: followFocus()
            default: continue
            }
        }
    }

    /// Events Xlib read while answering a call sit in its queue, where the descriptor no longer
    /// says so: whether any wait.
    var hasQueued: Bool { XEventsQueued(display, QueuedAlready) > 0 }

    /// Changes the grabs to `grabs`. Returns the keycodes another client holds (they stay its).
    func apply(_ grabs: KeyGrabs) -> [UInt8] {
        let (ungrab, grab) = grabs.changes(from: grabbed)
        change(ungrab: ungrab, grab: grab, keyboard: grabs.keyboard, on: grabWindow)
        grabbed = grabs
        return lastRefused
    }

    /// The grabs move with the X focus to its new window.
    private func followFocus() {
        let window = narrator_x_focus(display, root)
        guard window != grabWindow else { return }
        change(ungrab: grabbed.keys, grab: [:], keyboard: false, on: grabWindow)
        grabWindow = window
        let all = grabbed
        grabbed = KeyGrabs()
        change(ungrab: [:], grab: all.keys, keyboard: all.keyboard, on: window)
        grabbed = all
    }

    /// Keycodes the last change could not grab.
    private var lastRefused: [UInt8] = []

    private func change(ungrab: [UInt8: Set<UInt32>], grab: [UInt8: Set<UInt32>], keyboard wholeKeyboard: Bool, on window: Window) {
        for (keycode, states) in ungrab {
            let list = states.sorted().map { Int32(bitPattern: $0) }
            narrator_xi_ungrab_keycode(display, keyboard, window, Int32(keycode), list, Int32(list.count))
        }
        lastRefused = []
        for (keycode, states) in grab.sorted(by: { $0.key < $1.key }) {
            let list = states.sorted().map { Int32(bitPattern: $0) }
            if narrator_xi_grab_keycode(display, keyboard, window, Int32(keycode), list, Int32(list.count)) != 0 { lastRefused.append(keycode) }
        }
        if wholeKeyboard != grabbed.keyboard {
            if wholeKeyboard {
                _ = narrator_xi_grab_keyboard(display, keyboard, window)
            } else {
                XIUngrabDevice(display, keyboard, UInt(CurrentTime))
            }
        }
        XFlush(display)
    }
}
