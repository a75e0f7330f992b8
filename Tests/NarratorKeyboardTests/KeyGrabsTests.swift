import NarratorBase
import NarratorKeyboard
import Testing

/// Which keys the X server is to keep from the application, worked out ahead from the same
/// judgement the interpreter makes when a key comes, on a small US keyboard.
@Suite struct KeyGrabsTests {
    // Keycodes as Xvfb's US keyboard has them.
    static let escape: UInt8 = 9, two: UInt8 = 11, h: UInt8 = 43, a: UInt8 = 38, shift: UInt8 = 50, control: UInt8 = 37
    static let capsLock: UInt8 = 66, keypad0: UInt8 = 90, keypadEnter: UInt8 = 104, down: UInt8 = 116, insert: UInt8 = 118

    /// The keyboard: Shift or Caps Lock make letters capitals, Shift the digit's symbol, and Num
    /// Lock turns KP_Insert into KP_0.
    static let table: KeyboardTable = {
        var table = KeyboardTable()
        for state in 0..<KeyboardTable.states {
            let shifted = state & 1 != 0
            let capital = shifted != (state & 2 != 0)
            table.set(escape, state: state, .escape)
            table.set(two, state: state, Keysym(shifted ? 0x40 : 0x32))
            table.set(h, state: state, Keysym(capital ? 0x48 : 0x68))
            table.set(a, state: state, Keysym(capital ? 0x41 : 0x61))
            table.set(shift, state: state, Keysym(0xFFE1))
            table.set(control, state: state, Keysym(0xFFE3))
            table.set(capsLock, state: state, .capsLock)
            table.set(keypad0, state: state, state & 16 != 0 ? Keysym(0xFFB0) : .keypadInsert)
            table.set(keypadEnter, state: state, Keysym(0xFF8D))
            table.set(down, state: state, Keysym(0xFF54))
            table.set(insert, state: state, .insert)
        }
        return table
    }()

    static let allStates = Set(0..<KeyboardTable.states)
    /// The states without Control or Alt held: Shift and the locks only.
    static let plain = allStates.filter { $0 & (4 | 8) == 0 }
    static let now = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test("on a page in browse mode: H and Shift+H under either lock, 2 and Shift+2, Down, Narrator's keys and the keypad's; never a letter Narrator has no use for, a modifier, or Control+H")
    func browseModeOnAPage() {
        let interpreter = KeyInterpreter(keymap: Keymap(layout: .desktop))
        let grabs = interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now)
        #expect(!grabs.keyboard)
        #expect(grabs.keys[Self.h] == Self.plain)
        #expect(grabs.keys[Self.two] == Self.plain)
        #expect(grabs.keys[Self.down]?.contains(0) == true)
        #expect(grabs.keys[Self.insert] == Self.allStates)
        // KP_Insert is Narrator's key only while Num Lock is off; with it on, it types 0.
        #expect(grabs.keys[Self.keypad0] == Self.allStates.filter { $0 & 16 == 0 })
        #expect(grabs.keys[Self.keypadEnter]?.contains(0) == true)
        for free in [Self.a, Self.shift, Self.control, Self.capsLock, Self.escape] { #expect(grabs.keys[free] == nil, "keycode \(free)") }
    }

    @Test("off a page (or in focus mode) browse mode's keys are the application's; Narrator's and the keypad's stay grabbed")
    func offAPage() {
        var interpreter = KeyInterpreter(keymap: Keymap(layout: .desktop))
        let grabs = interpreter.grabs(on: Self.table, context: KeyContext(page: false), at: Self.now)
        #expect(grabs.keys[Self.h] == nil && grabs.keys[Self.two] == nil && grabs.keys[Self.down] == nil)
        #expect(grabs.keys[Self.insert] == Self.allStates)
        #expect(grabs.keys[Self.keypadEnter]?.contains(0) == true)
        // Narrator+A chose focus mode on the page: the same.
        _ = interpreter.handle(KeyEvent(.press, .insert, at: Self.now), context: KeyContext(page: true))
        _ = interpreter.handle(KeyEvent(.press, Keysym(0x61), at: Self.now + .milliseconds(50)), context: KeyContext(page: true))
        _ = interpreter.handle(KeyEvent(.release, Keysym(0x61), at: Self.now + .milliseconds(90)), context: KeyContext(page: true))
        _ = interpreter.handle(KeyEvent(.release, .insert, at: Self.now + .milliseconds(120)), context: KeyContext(page: true))
        #expect(!interpreter.browsing)
        let focusMode = interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now + .seconds(2))
        #expect(focusMode.keys[Self.h] == nil && focusMode.keys[Self.down] == nil)
    }

    @Test("in a page's field the application put the focus in, Escape is grabbed (it returns to browse mode), and the letters are not")
    func escapeInAField() {
        let interpreter = KeyInterpreter(keymap: Keymap(layout: .desktop))
        let grabs = interpreter.grabs(on: Self.table, context: KeyContext(page: true, field: true), at: Self.now)
        #expect(grabs.keys[Self.escape] == [0, 2, 16, 18])
        #expect(grabs.keys[Self.h] == nil)
    }

    @Test("learn mode takes the whole keyboard; Escape leaving it gives the keys back")
    func learnMode() {
        var interpreter = KeyInterpreter(keymap: Keymap(layout: .desktop))
        _ = interpreter.handle(KeyEvent(.press, .insert, at: Self.now), context: KeyContext(page: true))
        _ = interpreter.handle(KeyEvent(.press, Keysym(0x68), at: Self.now + .milliseconds(50)), context: KeyContext(page: true))
        _ = interpreter.handle(KeyEvent(.release, Keysym(0x68), at: Self.now + .milliseconds(90)), context: KeyContext(page: true))
        _ = interpreter.handle(KeyEvent(.release, .insert, at: Self.now + .milliseconds(120)), context: KeyContext(page: true))
        #expect(interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now + .seconds(1)) == KeyGrabs(keyboard: true))
        _ = interpreter.handle(KeyEvent(.press, .escape, at: Self.now + .seconds(2)), context: KeyContext(page: true))
        #expect(!interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now + .seconds(3)).keyboard)
    }

    @Test("just after Narrator's key is tapped alone it is not grabbed, so a second tap reaches the application; half a second on it is again")
    func aSecondTapIsTheApplications() {
        var interpreter = KeyInterpreter(keymap: Keymap(layout: .desktop))
        _ = interpreter.handle(KeyEvent(.press, .insert, at: Self.now), context: KeyContext(page: true))
        // Held, it is grabbed (the X server gives Narrator every key until it comes up).
        #expect(interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now + .milliseconds(20)).keys[Self.insert] == Self.allStates)
        _ = interpreter.handle(KeyEvent(.release, .insert, at: Self.now + .milliseconds(60)), context: KeyContext(page: true))
        let open = interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now + .milliseconds(80))
        #expect(open.keys[Self.insert] == nil && open.keys[Self.keypad0] == nil)
        #expect(open.keys[Self.h] == Self.plain, "the other keys stay as they were")
        #expect(interpreter.tapCloses == Self.now + KeyInterpreter.doublePress)
        let closed = interpreter.grabs(on: Self.table, context: KeyContext(page: true), at: Self.now + KeyInterpreter.doublePress)
        #expect(closed.keys[Self.insert] == Self.allStates)
        // The second tap, which the application got, is no modifier: h with it held is browse mode's H.
        _ = interpreter.handle(KeyEvent(.press, .insert, at: Self.now + .milliseconds(200)), context: KeyContext(page: true))
        let h = interpreter.handle(KeyEvent(.press, Keysym(0x68), at: Self.now + .milliseconds(250)), context: KeyContext(page: true))
        #expect(h == KeyVerdict(take: true, [.run(.next(.heading), presses: 1)]))
    }

    @Test("the laptop layout grabs Caps Lock, not Insert")
    func laptopLayout() {
        let interpreter = KeyInterpreter(keymap: Keymap(layout: .laptop))
        let grabs = interpreter.grabs(on: Self.table, context: KeyContext(page: false), at: Self.now)
        #expect(grabs.keys[Self.capsLock] == Self.allStates)
        #expect(grabs.keys[Self.insert] == nil)
    }

    @Test("a change of grabs is what was dropped and what was added, per keycode")
    func changes() {
        let old = KeyGrabs(keys: [1: [0, 1], 2: [0]])
        let new = KeyGrabs(keys: [1: [1, 4], 3: [0]])
        let (ungrab, grab) = new.changes(from: old)
        #expect(ungrab == [1: [0], 2: [0]])
        #expect(grab == [1: [4], 3: [0]])
    }
}

/// Raw key events carry a keycode alone: the modifiers come from the raw events before them.
@Suite struct RawKeyboardTests {
    let now = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test("Shift held makes h H with Shift's bit; h's release is H still after Shift came up")
    func shiftFromTheRawEvents() {
        var keyboard = RawKeyboard(table: KeyGrabsTests.table)
        #expect(keyboard.key(KeyGrabsTests.shift, down: true, at: now) == KeyEvent(.press, Keysym(0xFFE1), xModifiers: 0, at: now))
        #expect(keyboard.key(KeyGrabsTests.h, down: true, at: now) == KeyEvent(.press, Keysym(0x48), xModifiers: 1, at: now))
        #expect(keyboard.key(KeyGrabsTests.shift, down: false, at: now)?.kind == .release)
        #expect(keyboard.key(KeyGrabsTests.h, down: false, at: now) == KeyEvent(.release, Keysym(0x48), xModifiers: 0, at: now))
        #expect(keyboard.key(KeyGrabsTests.h, down: true, at: now) == KeyEvent(.press, Keysym(0x68), xModifiers: 0, at: now))
    }

    @Test("the locks XKB reported are in the state: Caps Lock makes a capital, Num Lock KP_0")
    func locks() {
        var keyboard = RawKeyboard(table: KeyGrabsTests.table)
        keyboard.locked = 2
        #expect(keyboard.key(KeyGrabsTests.h, down: true, at: now) == KeyEvent(.press, Keysym(0x48), xModifiers: 2, at: now))
        keyboard.locked = 16
        #expect(keyboard.key(KeyGrabsTests.keypad0, down: true, at: now) == KeyEvent(.press, Keysym(0xFFB0), xModifiers: 16, at: now))
        // A keycode that gives nothing is no key.
        #expect(keyboard.key(200, down: true, at: now) == nil)
    }
}
