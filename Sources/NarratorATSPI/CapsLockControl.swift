import CX11

/// Sets Caps Lock's lock in the X server (XKB's core keyboard), on a display connection of its
/// own opened the first time it is needed: only the laptop layout, whose Narrator key is Caps
/// Lock, ever asks.
final class CapsLockControl {
    private var display: OpaquePointer?

    deinit {
        if let display { XCloseDisplay(display) }
    }

    /// Locks (true) or unlocks Caps Lock. Without a display (no X server: Wayland only) it does nothing.
    func set(_ on: Bool) {
        if display == nil { display = XOpenDisplay(nil) }
        guard let display else { return }
        let lock = UInt32(LockMask)
        _ = XkbLockModifiers(display, UInt32(XkbUseCoreKbd), lock, on ? lock : 0)
        XFlush(display)
    }
}
