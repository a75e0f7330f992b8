import NarratorBase
import NarratorKeyboard
import Testing

/// What each key does on a virtual clock: which keys Narrator takes (the application never sees
/// them), which reach the application unchanged, and what Narrator is asked to do.
@Suite struct KeyInterpreterTests {
    struct Keys {
        var interpreter = KeyInterpreter(keymap: Keymap(layout: .desktop))
        var now = MonotonicInstant(nanoseconds: 1_000_000_000)
        var context = KeyContext(page: true)

        /// Presses and releases `name` (X modifier bits `x`), `gap` after the last key.
        mutating func tap(_ name: String, x: UInt32 = 0, gap: Duration = .milliseconds(800)) -> (press: KeyVerdict, release: KeyVerdict) {
            let press = down(name, x: x, gap: gap)
            let release = up(name, x: x)
            return (press, release)
        }

        mutating func down(_ name: String, x: UInt32 = 0, gap: Duration = .milliseconds(50)) -> KeyVerdict {
            now = now + gap
            return interpreter.handle(KeyEvent(.press, key(name), xModifiers: x, at: now), context: context)
        }

        mutating func up(_ name: String, x: UInt32 = 0) -> KeyVerdict {
            now = now + .milliseconds(40)
            return interpreter.handle(KeyEvent(.release, key(name), xModifiers: x, at: now), context: context)
        }

        func key(_ name: String) -> Keysym {
            Keysym(named: name) ?? Keysym(0)
        }
    }

    @Test func aBrowseKeyIsTakenOnADocumentAndRuns() {
        var keys = Keys()
        let h = keys.tap("h")
        #expect(h.press == KeyVerdict(take: true, [.run(.next(.heading), presses: 1)]))
        #expect(h.release == .taken)
        // Shift+h arrives as H with Shift's bit; with Caps Lock locked, h arrives as H with
        // Lock's bit and Shift+h as h with both.
        #expect(keys.tap("H", x: 1).press == KeyVerdict(take: true, [.run(.previous(.heading), presses: 1)]))
        #expect(keys.tap("H", x: 2).press == KeyVerdict(take: true, [.run(.next(.heading), presses: 1)]))
        #expect(keys.tap("h", x: 3).press == KeyVerdict(take: true, [.run(.previous(.heading), presses: 1)]))
        // Digits are heading levels; Shift+2 arrives as `at` on a US keyboard.
        #expect(keys.tap("2").press == KeyVerdict(take: true, [.run(.next(.heading2), presses: 1)]))
        keys.now = keys.now + .seconds(1)
        #expect(keys.interpreter.handle(KeyEvent(.press, Keysym(0x40), xModifiers: 1, at: keys.now), context: keys.context)
            == KeyVerdict(take: true, [.run(.previous(.heading2), presses: 1)]))
        #expect(keys.tap("x").press == KeyVerdict(take: true, [.run(.next(.checkBox), presses: 1)]))
    }

    @Test func aBrowseKeyReachesATextFieldAndFocusMode() {
        var keys = Keys()
        keys.context = KeyContext(page: true, field: true)
        #expect(keys.tap("h") == (.pass, .pass))
        #expect(keys.tap("Down") == (.pass, .pass))
        // Narrator+A in a document: focus mode, said; then letters reach the page.
        keys.context = KeyContext(page: true)
        _ = keys.down("Insert")
        #expect(keys.tap("a") == (KeyVerdict(take: true, [.browseMode(false)]), .taken))
        #expect(keys.up("Insert") == .taken)
        #expect(keys.tap("h") == (.pass, .pass))
        _ = keys.down("Insert", gap: .seconds(1))
        #expect(keys.tap("a").press == KeyVerdict(take: true, [.browseMode(true)]))
        _ = keys.up("Insert")
        #expect(keys.tap("h").press.take)
    }

    /// In a field the application focused (Tab), letters are the page's; Escape goes back to
    /// browse mode, and so does Narrator+A, said; outside a field Escape is the page's.
    @Test func escapeLeavesAFieldForBrowseMode() {
        var keys = Keys()
        keys.context = KeyContext(page: true, field: true)
        #expect(keys.tap("h") == (.pass, .pass))
        #expect(keys.tap("Escape") == (KeyVerdict(take: true, [.browseMode(true)]), .taken))
        // The bridge puts the cursor on the field: from there the keys read on.
        keys.context = KeyContext(page: true)
        #expect(keys.tap("h").press.take)
        #expect(keys.tap("Escape") == (.pass, .pass))
        // Narrator+A in a field the application focused is browse mode, not focus mode.
        keys.context = KeyContext(page: true, field: true)
        _ = keys.down("Insert", gap: .seconds(1))
        #expect(keys.tap("a").press == KeyVerdict(take: true, [.browseMode(true)]))
        _ = keys.up("Insert")
        // Outside a page Escape is the application's.
        keys.context = KeyContext(page: false)
        #expect(keys.tap("Escape") == (.pass, .pass))
    }

    @Test func aKeyNarratorDoesNotBindPassesWithItsRelease() {
        var keys = Keys()
        #expect(keys.tap("w") == (.pass, .pass))
        #expect(keys.tap("Tab") == (.pass, .pass))
        #expect(keys.tap("Shift_L") == (.pass, .pass))
        // Narrator's key with a key it does not bind: the key reaches the application.
        _ = keys.down("Insert")
        #expect(keys.tap("F5") == (.pass, .pass))
        _ = keys.up("Insert")
    }

    @Test func narratorsKeyIsAModifierAndTwiceQuicklyItsOwnKey() {
        var keys = Keys()
        #expect(keys.down("Insert") == .taken)
        #expect(keys.tap("t").press == KeyVerdict(take: true, [.run(.time, presses: 1)]))
        #expect(keys.up("Insert") == .taken)
        // A tap alone, then another within half a second: the second is Insert for the application.
        #expect(keys.tap("Insert", gap: .seconds(2)) == (.taken, .taken))
        #expect(keys.tap("Insert", gap: .milliseconds(200)) == (.pass, .pass))
        // A third quick tap starts over: taken.
        #expect(keys.tap("Insert", gap: .milliseconds(200)) == (.taken, .taken))
        // Slower than half a second: taken each time.
        #expect(keys.tap("Insert", gap: .milliseconds(900)) == (.taken, .taken))
        // A chord in between is no tap.
        _ = keys.down("KP_Insert", gap: .seconds(2))
        _ = keys.tap("t")
        _ = keys.up("KP_Insert")
        #expect(keys.tap("KP_Insert", gap: .milliseconds(100)) == (.taken, .taken))
    }

    /// Both Narrator keys down at once (found by KeymapFuzzer): each release goes where its press went.
    @Test func bothNarratorKeysHeldAreBothTaken() {
        var keys = Keys()
        #expect(keys.down("Insert") == .taken)
        #expect(keys.down("KP_Insert", gap: .seconds(1)) == .taken)
        #expect(keys.up("Insert") == .taken)
        #expect(keys.up("KP_Insert") == .taken)
    }

    @Test func aHeldNarratorKeysRepeatsAreOneHold() {
        var keys = Keys()
        #expect(keys.down("Insert") == .taken)
        for _ in 0..<5 { #expect(keys.down("Insert", gap: .milliseconds(30)) == .taken) }
        #expect(keys.up("Insert") == .taken)
    }

    @Test func capsLockIsNarratorsKeyOnTheLaptopLayout() {
        var keys = Keys()
        keys.interpreter = KeyInterpreter(keymap: Keymap(layout: .laptop))
        #expect(keys.tap("Insert") == (.pass, .pass))
        _ = keys.down("Caps_Lock")
        #expect(keys.tap("Return").press == KeyVerdict(take: true, [.run(.whereAmI, presses: 1)]))
        // X toggled the lock as the key went down: it is put back as it was (unlocked).
        #expect(keys.up("Caps_Lock") == KeyVerdict(take: true, [.restoreCapsLock(on: false)]))
        #expect(keys.tap("Caps_Lock", gap: .seconds(1)) == (.taken, KeyVerdict(take: true, [.restoreCapsLock(on: false)])))
        // Twice quickly: the second is Caps Lock's own, and its toggle stays.
        #expect(keys.tap("Caps_Lock", gap: .milliseconds(150)) == (.pass, .pass))
        // Locked now (X reports Lock's bit 2): Narrator's use of the key leaves it locked.
        _ = keys.down("Caps_Lock", x: 2, gap: .seconds(1))
        _ = keys.tap("t", x: 2)
        #expect(keys.up("Caps_Lock", x: 2) == KeyVerdict(take: true, [.restoreCapsLock(on: true)]))
        // The desktop's where-am-I key is the keypad's; a laptop has none.
        #expect(keys.tap("KP_Enter") == (.pass, .pass))
    }

    @Test func aChordTwiceQuicklyRunsTwoPresses() {
        var keys = Keys()
        #expect(keys.tap("KP_Enter").press == KeyVerdict(take: true, [.run(.whereAmI, presses: 1)]))
        #expect(keys.tap("KP_Enter", gap: .milliseconds(300)).press == KeyVerdict(take: true, [.run(.whereAmI, presses: 2)]))
        // A third is a first again.
        #expect(keys.tap("KP_Enter", gap: .milliseconds(300)).press == KeyVerdict(take: true, [.run(.whereAmI, presses: 1)]))
        #expect(keys.tap("KP_Enter", gap: .seconds(1)).press == KeyVerdict(take: true, [.run(.whereAmI, presses: 1)]))
    }

    @Test func theCurrentWordAndSpeechKeysActInAFieldToo() {
        var keys = Keys()
        // In a field of a page (focus mode's place), KP_5 is still Narrator's: the word at the caret.
        keys.context = KeyContext(page: true, field: true)
        #expect(keys.tap("KP_Begin").press == KeyVerdict(take: true, [.run(.currentWord, presses: 1)]))
        #expect(keys.tap("KP_Begin", gap: .milliseconds(300)).press == KeyVerdict(take: true, [.run(.currentWord, presses: 2)]))
        _ = keys.down("Insert")
        #expect(keys.tap("s").press == KeyVerdict(take: true, [.run(.speech, presses: 1)]))
        #expect(keys.tap("v").press == KeyVerdict(take: true, [.run(.verbosity, presses: 1)]))
        #expect(keys.tap("r").press == KeyVerdict(take: true, [.run(.repeatLast, presses: 1)]))
        _ = keys.up("Insert")
        // Without Narrator's key, r is the field's.
        #expect(keys.tap("r") == (.pass, .pass))
    }

    @Test func learnModeDescribesEveryKeyAndEscapeLeaves() {
        var keys = Keys()
        _ = keys.down("Insert")
        #expect(keys.tap("h").press == KeyVerdict(take: true, [.learnModeStarted]))
        _ = keys.up("Insert")
        // Bound or not, in a field or not, nothing reaches the application and nothing runs.
        keys.context = KeyContext(page: false)
        #expect(keys.tap("h") == (KeyVerdict(take: true, [.describe(KeyChord(Keysym(0x68)), .next(.heading))]), .taken))
        #expect(keys.tap("w") == (KeyVerdict(take: true, [.describe(KeyChord(Keysym(0x77)), nil)]), .taken))
        #expect(keys.tap("Shift_L") == (.taken, .taken))
        _ = keys.down("Insert")
        #expect(keys.tap("t").press == KeyVerdict(take: true, [.describe(KeyChord(Keysym(0x74), .narrator), .time)]))
        _ = keys.up("Insert")
        #expect(keys.tap("Escape") == (KeyVerdict(take: true, [.learnModeEnded]), .taken))
        #expect(keys.tap("Escape") == (.pass, .pass))
        #expect(keys.tap("w") == (.pass, .pass))
    }

    @Test func controlAloneStopsSpeechAndStillReachesTheApplication() {
        var keys = Keys()
        #expect(keys.tap("Control_L") == (KeyVerdict(take: false, [.stopSpeech]), .pass))
        #expect(keys.tap("Control_R", x: 4) == (KeyVerdict(take: false, [.stopSpeech]), .pass))
        // Control held for Control+Home is one stop, then the chord.
        _ = keys.down("Control_L")
        #expect(keys.down("Home", x: 4) == KeyVerdict(take: true, [.run(.firstItem, presses: 1)]))
    }
}
