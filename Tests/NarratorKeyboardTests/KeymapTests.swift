import NarratorKeyboard
import Testing

/// The keymap file: defaults per layout, the user's lines over them, and a bad line refused with
/// its number while the rest is kept.
@Suite struct KeymapTests {
    @Test func theDefaultsAreOrcasKeys() {
        let desktop = Keymap(layout: .desktop)
        #expect(desktop.command(for: try! KeyChord(parsing: "KP_Enter")) == .whereAmI)
        #expect(desktop.command(for: try! KeyChord(parsing: "Narrator+KP_Enter")) == .windowTitle)
        #expect(desktop.command(for: try! KeyChord(parsing: "Narrator+h")) == .learnMode)
        #expect(desktop.command(for: try! KeyChord(parsing: "Shift+h")) == .previous(.heading))
        let laptop = Keymap(layout: .laptop)
        #expect(laptop.command(for: try! KeyChord(parsing: "Narrator+Return")) == .whereAmI)
        #expect(laptop.command(for: try! KeyChord(parsing: "Narrator+slash")) == .windowTitle)
        #expect(laptop.command(for: try! KeyChord(parsing: "KP_Enter")) == nil)
        // Speech on and off, verbosity, and the current word (KP_5 with Num Lock off; Orca+K),
        // on Orca's keys; the repeat on Narrator's own (Orca has none).
        for keymap in [desktop, laptop] {
            #expect(keymap.command(for: try! KeyChord(parsing: "Narrator+s")) == .speech)
            #expect(keymap.command(for: try! KeyChord(parsing: "Narrator+v")) == .verbosity)
            #expect(keymap.command(for: try! KeyChord(parsing: "Narrator+r")) == .repeatLast)
        }
        #expect(desktop.command(for: try! KeyChord(parsing: "KP_Begin")) == .currentWord)
        #expect(laptop.command(for: try! KeyChord(parsing: "Narrator+k")) == .currentWord)
        // Every command has a key on both layouts.
        for command in KeyCommand.allCases {
            #expect(desktop.sorted.contains { $0.command == command }, "\(command) on the desktop")
            #expect(laptop.sorted.contains { $0.command == command }, "\(command) on the laptop")
        }
    }

    @Test func aFileChangesBindsAndUnbindsKeys() {
        let text = """
            # mine
            layout = laptop
            Narrator+w = where-am-i   # as NVDA has it
            h = none

            Control+Alt+t = time
            """
        let (keymap, problems) = Keymap.reading(text)
        #expect(problems == [])
        #expect(keymap.layout == .laptop)
        #expect(keymap.command(for: try! KeyChord(parsing: "narrator+w")) == .whereAmI)
        #expect(keymap.command(for: try! KeyChord(parsing: "Narrator+Return")) == .whereAmI)
        #expect(keymap.command(for: try! KeyChord(parsing: "h")) == nil)
        #expect(keymap.command(for: try! KeyChord(parsing: "Ctrl+Alt+t")) == .time)
    }

    @Test func aBadLineIsRefusedWithItsNumberAndTheRestKept() {
        let text = """
            Narrator+t = tim
            Narrator+Bogus = time
            Hyper+t = time
            just words
            layout = tablet
            Insert = time
            Shift_L = time
            Narrator+w = where-am-i
            """
        let (keymap, problems) = Keymap.reading(text)
        #expect(problems.map(\.description) == [
            "line 1: no command is called \"tim\" (did you mean \"time\"?); \"narratorctl keys --commands\" lists them",
            "line 2: no key is called \"Bogus\" (X's names: h, 1, KP_Add, Insert, Page_Down, semicolon)",
            "line 3: \"Hyper\" is not a modifier (Narrator, Control, Alt, Shift)",
            "line 4: \"just words\" is not \"KEY = COMMAND\"",
            "line 5: no layout is called \"tablet\" (desktop, laptop)",
            "line 6: Insert cannot be bound: it is Narrator's key or a modifier alone",
            "line 7: Shift_L cannot be bound: it is Narrator's key or a modifier alone",
        ])
        #expect(keymap.layout == .desktop)
        #expect(keymap.command(for: try! KeyChord(parsing: "Narrator+w")) == .whereAmI)
        #expect(keymap.command(for: try! KeyChord(parsing: "Narrator+t")) == .time)
    }

    @Test func everyCommandNameReadsBack() {
        for command in KeyCommand.allCases {
            #expect(KeyCommand(rawValue: command.rawValue) == command, "\(command.rawValue)")
        }
        #expect(KeyCommand(rawValue: "next-heading-2") == .next(.heading2))
        #expect(KeyCommand(rawValue: "previous-check-box") == .previous(.checkBox))
        #expect(KeyCommand(rawValue: "next-table") == .next(.table))
        #expect(KeyCommand(rawValue: "cell-left") == .cellLeft)
        #expect(KeyCommand(rawValue: "next-landmark") == .next(.landmark))
        #expect(KeyCommand(rawValue: "next-landmarks") == nil)
    }

    @Test func chordsReadAndWriteTheSame() throws {
        for text in ["Narrator+h", "Shift+h", "Control+Alt+Shift+Right", "KP_Add", "Narrator+slash", "F5"] {
            #expect(try KeyChord(parsing: text).description == text)
        }
        #expect(try KeyChord(parsing: "H") == KeyChord(parsing: "Shift+h"))
    }
}
