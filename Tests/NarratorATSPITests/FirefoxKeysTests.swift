import Foundation
import NarratorDesktopHarness
import NarratorModel
import NarratorTestSupport
import Testing

extension RealApplications {
    /// Narrator's keys on a page in Firefox ESR (Tests/Helpers/firefox/keys.html), pressed with
    /// xdotool through the X server as a user's are: which keys Narrator takes (a key that reaches
    /// the page outside a field renames the window, so a taken key that leaked shows), what each
    /// says, and that the page's own focus follows Narrator's cursor.
    @Suite(
        "Firefox: Narrator's keys on a page",
        .serialized,
        .enabled(if: HeadlessDesktop.isInstalled && FirefoxProfile.isInstalled
                 && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "Firefox ESR or the headless desktop is not installed (make test-deps)")
    )
    struct FirefoxKeysTests {
        static let page = FirefoxPage.Page(
            path: URL(fileURLWithPath: FirefoxPage.page).deletingLastPathComponent().appendingPathComponent("keys.html").path,
            // (What entering says depends on whether the title came before the page: the keys wait
            // for the page whole instead.)
            title: "Narrator keys page", firstHeading: nil,
            loaded: ["Harbour regatta, heading level 1", "Enter, button", "Kestrel won by a length.", "13:00"])

        /// The window's title as X has it: the page names there any key that reached it.
        static func windowTitle(_ session: BridgedDesktop) throws -> String {
            let run = try CompletedRun.run("/usr/bin/xdotool", ["search", "--name", "Narrator keys page|reached the page", "getwindowname"], environment: session.desktop.environment)
            return run.lines.first ?? ""
        }

        @Test("H, Shift+H, K, F, U, V, L, Q, D, P, M and the rest move over the page with the wrap said; Down and Up read by line, landmarks said as they are entered and left, the arrows by character, Control+arrows by word, Home and End to the line's ends; Tab goes on from the line read; in a field letters are typed; no key Narrator took reached the page")
        func browseKeys() throws {
            let session = try FirefoxPage.open(Self.page)
            let steps: [(key: String, says: [String])] = [
                // The page's last and first items, not the browser's toolbar.
                ("ctrl+End", ["5"]),
                ("ctrl+Home", ["Harbour regatta, heading level 1"]),
                // By line as laid out: the link is on its paragraph's line. By character and
                // word within the line, to its ends, and on to the line before at its start.
                ("Down", ["Boats race on Saturday morning."]),
                ("Down", ["See the results, link of last year."]),
                ("Right", ["e"]),
                ("Right", ["e"]),
                ("Right", ["space"]),
                ("ctrl+Right", ["the"]),
                ("ctrl+Right", ["results"]),
                ("End", ["period"]),
                ("Home", ["S"]),
                ("Left", ["period"]),
                ("Up", ["Harbour regatta, heading level 1"]),
                // At the first line, Up reads it again, as Orca does.
                ("Up", ["Harbour regatta, heading level 1"]),
                ("h", ["Entry form, heading level 2"]),
                ("h", ["Results, heading level 2"]),
                ("h", ["wrapped to top, Harbour regatta, heading level 1"]),
                ("shift+h", ["wrapped to bottom, Results, heading level 2"]),
                ("shift+h", ["Entry form, heading level 2"]),
                ("Down", ["Boat name, text field"]),
                ("Up", ["Entry form, heading level 2"]),
                // The page's caret follows the line read: Tab goes on from the paragraph (into the
                // field after it: focus mode), and Escape comes back to browse mode there.
                ("Up", ["Twelve boats have entered."]),
                ("Tab", ["Boat name, text field", "Focus mode"]),
                ("Escape", ["Browse mode"]),
                ("k", ["wrapped to top, results, link"]),
                ("shift+k", ["wrapped to bottom, Schedule, link"]),
                ("f", ["Boat name, text field"]),
                // The other structural keys, and a kind the page has none of, in Orca's words.
                ("b", ["Enter, button"]),
                ("e", ["wrapped to top, Boat name, text field"]),
                ("2", ["Results, heading level 2"]),
                ("shift+2", ["Entry form, heading level 2"]),
                ("1", ["wrapped to top, Harbour regatta, heading level 1"]),
                ("x", ["No more check boxes."]),
                ("shift+b", ["wrapped to bottom, Enter, button"]),
                // Links by whether their page was visited (the page itself was), lists, block
                // quotes, live regions, paragraphs and landmarks; a landmark entered and left is said.
                ("u", ["wrapped to top, results, link"]),
                ("shift+u", ["wrapped to bottom, Schedule, link"]),
                ("v", ["wrapped to top, This page, visited link"]),
                ("shift+v", ["wrapped to bottom, This page, visited link"]),
                ("l", ["List with 3 items, • Dinghies, list item"]),
                ("shift+l", ["wrapped to bottom, List with 3 items, • Dinghies, list item"]),
                ("q", ["block quote, Fair winds and following seas."]),
                ("shift+q", ["wrapped to bottom, block quote, Fair winds and following seas."]),
                ("d", ["Twelve boats have entered."]),
                ("shift+d", ["wrapped to bottom, Twelve boats have entered."]),
                ("p", ["Boat name, text field"]),
                ("shift+p", ["Twelve boats have entered."]),
                ("m", ["wrapped to top, Site, navigation, This page, visited link"]),
                ("shift+m", ["wrapped to bottom, Site, navigation, This page, visited link"]),
                ("ctrl+Home", ["leaving navigation, Harbour regatta, heading level 1"]),
                ("m", ["Site, navigation, This page, visited link"]),
                // The navigation's two links are one line; the line after it leaves it.
                ("Down", ["leaving navigation, • Dinghies, list item"]),
                ("Down", ["• Keelboats, list item"]),
                ("b", ["Enter, button"]),
            ]
            for (key, says) in steps {
                let heard = try session.hear(key)
                #expect(heard == says, "after \(key)")
            }
            #expect(try Self.windowTitle(session).hasPrefix("Narrator keys page"), "a key reached the page")
            // Tab goes on from the cursor: from the first heading to the link after it, and from
            // the form's heading to the field after it, where letters are the page's.
            #expect(try session.hear("shift+h") == ["Entry form, heading level 2"])
            #expect(try session.hear("shift+h") == ["Harbour regatta, heading level 1"])
            #expect(try session.hear("Tab") == ["results, link"])
            #expect(try session.hear("h") == ["Entry form, heading level 2"])
            // Into the field: focus mode, said after the field.
            #expect(try session.hear("Tab") == ["Boat name, text field", "Focus mode"])
            #expect(try session.hear("h") == ["h"])
            try session.wait("the letter typed into the field") {
                try session.ctl("show", try session.pageTree).lines.contains { $0.hasPrefix("Boat name, h") }
            }
            // Escape leaves the field for browse mode, said; the keys read on from the field.
            #expect(try session.hear("Escape") == ["Browse mode"])
            #expect(try session.hear("h") == ["Results, heading level 2"])
            #expect(try Self.windowTitle(session).hasPrefix("Narrator keys page"), "a key reached the page")
        }

        @Test("T and Shift+T reach the page's table at its first cell, said with the table's name and size; past it they wrap; Alt+Shift+arrows move by cell with the headers entered, say the edge, and outside a table say so")
        func tableKeys() throws {
            let session = try FirefoxPage.open(Self.page)
            let table = "Race schedule, table with 4 rows 3 columns, Race, column header"
            #expect(try session.hear("t") == [table])
            // Down reads the table's next row, a line as laid out.
            #expect(try session.hear("Down") == ["Dinghies, row header 9:00 12"])
            #expect(try session.hear("t") == ["wrapped to top, " + table])
            #expect(try session.hear("shift+t") == ["wrapped to bottom, " + table])
            // Alt+Shift+arrows by cell: the header of the column or row entered, the edge where it stays.
            let cells: [(key: String, says: [String])] = [
                ("alt+shift+Right", ["Start, column header, row 1, column 2"]),
                ("alt+shift+Down", ["Dinghies, 9:00, row 2, column 2"]),
                ("alt+shift+Left", ["Race, Dinghies, row header, row 2, column 1"]),
                ("alt+shift+Left", ["Beginning of row"]),
                ("alt+shift+Up", ["Race, column header, row 1, column 1"]),
                ("alt+shift+Up", ["Top of column"]),
                ("ctrl+End", ["5"]),
                ("alt+shift+Right", ["End of row"]),
                ("alt+shift+Down", ["Bottom of column"]),
                ("alt+shift+Up", ["Keelboats, 8, row 3, column 3"]),
                ("ctrl+Home", ["Harbour regatta, heading level 1"]),
                ("alt+shift+Right", ["Not in a table."]),
            ]
            for (key, says) in cells {
                #expect(try session.hear(key) == says, "after \(key)")
            }
            #expect(try Self.windowTitle(session).hasPrefix("Narrator keys page"), "a key reached the page")
        }

        @Test("Narrator+H's learn mode says what a key does without doing it; Escape leaves; Narrator+T says the time, KP_Enter where the focus is (twice, in a table, its row and column), Narrator+KP_Enter the title, Narrator+R it again, KP_5 the item and twice spells it; Narrator+S silences speech and brings it back; Narrator+V brief drops the table's size; Control stops speech; Insert twice reaches the page")
        func commandKeys() throws {
            let session = try FirefoxPage.open(Self.page)
            #expect(try session.hear("Insert+h") == ["Learn mode. Press any key to hear what it does; Escape leaves."])
            let focus = try session.focus()
            #expect(try session.hear("h") == ["H: browse mode: the next heading"])
            #expect(try session.hear("w") == ["W: not one of Narrator's keys"])
            #expect(try session.focus()?.element == focus?.element, "learn mode moved the focus")
            #expect(try session.hear("Escape") == ["Leaving learn mode."])
            #expect(try Self.windowTitle(session).hasPrefix("Narrator keys page"), "a key reached the page in learn mode")

            let time = try session.hear("Insert+t")
            #expect(time.count == 1 && time[0].wholeMatch(of: /\d{1,2}:\d\d/) != nil, "\(time)")
            let first = try session.hear("Control+Home")
            #expect(first == ["Harbour regatta, heading level 1"])
            let whereAmI = try session.hear("KP_Enter")
            #expect(whereAmI == ["Harbour regatta, heading level 1"])
            #expect(try session.hear("Insert+KP_Enter") == ["Narrator keys page — Mozilla Firefox"])
            // The last utterance again, as it was; the current item's text, and twice, spelled.
            #expect(try session.hear("Insert+r") == ["Narrator keys page — Mozilla Firefox"])
            #expect(try session.hear("KP_Begin") == ["Harbour regatta"])
            // (Apart from the press before, which would make the first of these its second.)
            Thread.sleep(forTimeInterval: 0.6)
            try session.xdotool("key", "--delay", "150", "KP_Begin", "KP_Begin")
            try session.wait("the heading spelled") { try session.said(after: 0).last == "H, a, r, b, o, u, r, space, r, e, g, a, t, t, a" }

            // Speech off: said, then nothing is heard (a key still works, its speech dropped
            // for speech off) until Narrator+S again says it is on.
            #expect(try session.hear("Insert+s") == ["Speech off."])
            try session.wait("speech off in narratord's settings") { try session.ctl("get", "speech").stdout == "off\n" }
            try session.xdotool("key", "KP_Enter")
            try session.wait("where am I dropped, unheard") { Self.droppedForSpeechOff(session).contains("Harbour regatta, heading level 1") }
            #expect(try session.hear("Insert+s") == ["Speech on."])
            #expect(!Self.droppedForSpeechOff(session).contains("Speech on."))
            // Verbosity brief: T says the table without its size.
            #expect(try session.hear("Insert+v") == ["Verbosity brief."])
            #expect(try session.hear("t") == ["Race schedule, table, Race, column header"])
            // Where am I twice: after the cell, its row and column and the table it is in.
            Thread.sleep(forTimeInterval: 0.6)
            try session.xdotool("key", "--delay", "150", "KP_Enter", "KP_Enter")
            let detail = "Row 1 of 4, column 1 of 3, in table Race schedule, in Narrator keys page — Mozilla Firefox."
            try session.wait("where am I's detail") { try session.said(after: 0).last == detail }
            #expect(try session.hear("Insert+v") == ["Verbosity verbose."])
            _ = try session.hear("Control+Home")

            // Rate and punctuation: said as they change, and kept in narratord's settings.
            #expect(try session.hear("Insert+ctrl+Up") == ["Rate 200."])
            #expect(try session.ctl("get", "rate").stdout.contains("200"))
            #expect(try session.hear("Insert+ctrl+Down") == ["Rate 175."])
            #expect(try session.hear("Insert+ctrl+p") == ["Punctuation some."])
            #expect(try session.ctl("get", "punctuation").stdout.contains("some"))

            // Control: what was being said stops at once.
            try session.ctl("speak", String(repeating: "A long sentence that takes its time to be said. ", count: 20))
            try session.wait("the long text being said") { try session.ctl("--json", "status").stdout.contains("\"speaking\":true") }
            try session.xdotool("key", "ctrl")
            try session.wait("the long text stopped by Control", timeout: .seconds(5)) { try session.ctl("--json", "status").stdout.contains("\"speaking\":false") }

            // Narrator's key alone is taken; twice quickly it reaches the page as itself.
            try session.xdotool("key", "Insert")
            Thread.sleep(forTimeInterval: 0.8)
            #expect(try Self.windowTitle(session).hasPrefix("Narrator keys page"), "one Insert reached the page")
            try session.xdotool("key", "--delay", "100", "Insert", "Insert")
            try session.wait("the second Insert at the page") { try Self.windowTitle(session).hasPrefix("reached the page: Insert") }
        }
    
        /// The texts narratord dropped unsaid because speech was off, as the desktop's monitor saw them.
        static func droppedForSpeechOff(_ session: BridgedDesktop) -> [String] {
            let lines = ((try? String(contentsOfFile: session.desktop.directory + "/monitor.out", encoding: .utf8)) ?? "").split(separator: "\n")
            let events = lines.compactMap { try? JSONParser().parse(String($0)) }
            let dropped = Set(events.filter { $0["phase"] == "dropped" && $0["reason"] == "speechOff" }.compactMap { $0["utterance"]?.numberValue })
            return events.filter { $0["phase"] == "queued" && dropped.contains($0["utterance"]?.numberValue ?? -1) }.compactMap { $0["text"]?.stringValue }
        }

        /// Caps Lock's state as `xset q` shows it.
        static func capsLockOn(_ session: BridgedDesktop) throws -> Bool {
            let run = try CompletedRun.run("/usr/bin/xset", ["q"], environment: session.desktop.environment)
            guard let line = run.lines.first(where: { $0.contains("Caps Lock:") }) else { throw BridgedDesktop.Failure(description: "xset q: \(run.stdout) \(run.stderr)") }
            return line.contains("Caps Lock:   on")
        }

        @Test(
            "On the laptop layout Caps Lock is Narrator's key and its lock is left as it was; twice quickly it locks; a bad keymap line is left out and the rest used",
            .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xset"), "xset is not installed (make test-deps)"))
        func laptopLayout() throws {
            let session = try FirefoxPage.open(Self.page, keymap: "layout = laptop\nNarrator+q = quit\nNarrator+w = where-am-i\n")
            #expect(try !Self.capsLockOn(session))
            #expect(try session.hear("Caps_Lock+h") == ["Learn mode. Press any key to hear what it does; Escape leaves."])
            #expect(try session.hear("Escape") == ["Leaving learn mode."])
            try session.wait("Caps Lock put back as it was") { try !Self.capsLockOn(session) }
            _ = try session.hear("Control+Home")
            #expect(try session.hear("Caps_Lock+w") == ["Harbour regatta, heading level 1"])
            #expect(try session.hear("Caps_Lock+Return") == ["Harbour regatta, heading level 1"])
            try session.xdotool("key", "--delay", "100", "Caps_Lock", "Caps_Lock")
            try session.wait("Caps Lock locked by two quick presses") { try Self.capsLockOn(session) }
            let time = try session.hear("Caps_Lock+t")
            #expect(time.count == 1 && time[0].wholeMatch(of: /\d{1,2}:\d\d/) != nil, "\(time)")
            Thread.sleep(forTimeInterval: 0.3)
            #expect(try Self.capsLockOn(session), "Narrator's use of Caps Lock unlocked it")
            #expect(session.desktop.log("bridge").contains("line 2: no command is called \"quit\""), "\(session.desktop.log("bridge").suffix(1_000))")

            // SIGHUP reads the keymap again: the desktop layout, and Narrator+w is nothing now.
            try "Narrator+KP_Enter = time\n".write(toFile: session.desktop.directory + "/config/narrator/keymap", atomically: true, encoding: .utf8)
            kill(session.bridge.pid, SIGHUP)
            try session.wait("the keymap read again") {
                let heard = try session.press("Insert+KP_Enter")
                return heard.count == 1 && heard[0].wholeMatch(of: /\d{1,2}:\d\d/) != nil
            }
            #expect(try session.press("Insert+w") == [])
        }
    }
}
