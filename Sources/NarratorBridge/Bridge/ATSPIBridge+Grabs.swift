import NarratorBase
import NarratorKeyboard

/// Keys from the X server: each raw key event is read as the application would get it and judged
/// as any key is; the keys Narrator takes are grabbed ahead (``GrabbedKeyboard``), so that the X
/// server keeps exactly those from the application and hands it every other key at once.
extension ATSPIBridge {
    mutating func keyboardRead(_ table: KeyboardTable) {
        if rawKeyboard == nil { rawKeyboard = GrabbedKeyboard(table: table) } else { rawKeyboard?.remap(table) }
    }

    mutating func rawKey(_ keycode: UInt8, down: Bool, serverTime: UInt, time: LocalTime) {
        guard let event = rawKeyboard?.raw.key(keycode, down: down, serverTime: serverTime, at: now) else { return }
        let effectsBefore = effects.count
        keyEvent(event, time: time)
        // Taken means grabbed (and Narrator's key always is): the window's focus bounces.
        if effects[effectsBefore...].contains(.takeKey) || keys.keymap.layout.narratorKeys.contains(event.key) {
            rawKeyboard?.grabbed(keycode, down: down, at: now)
        } else if down, !event.key.isModifier {
            // (A modifier does not: Control of Narrator+Control+Down comes between the grabbed
            // keys, while the bounce of Narrator's key is still on its way.)
            rawKeyboard?.passedThrough()
        }
        if let closes = keys.tapCloses, !down { effects.append(.setTimer(.narratorTap, at: closes)) }
    }

    /// Whether a window's activation now is the echo of a key Narrator grabbed.
    var grabEcho: Bool { rawKeyboard?.grabEcho(at: now) ?? false }

    /// After every input: the keys Narrator takes now, grabbed if they changed.
    mutating func grabWhatIsTaken() {
        guard rawKeyboard != nil else { return }
        let context = Self.keyContext(focus: narratorFocus, cursor: browsedTo, mirror: mirror)
        if let grabs = rawKeyboard?.regrab(for: keys, context: context, at: now) { effects.append(.grabKeys(grabs)) }
    }
}
