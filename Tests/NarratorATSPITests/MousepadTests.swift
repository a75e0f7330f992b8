import Foundation
import NarratorDesktopHarness
import NarratorTestSupport
import Testing

extension RealApplications {
    /// Mousepad, an ordinary GTK 3 editor nobody here wrote, with one file open: its window is a
    /// tree, and moving through and typing into its text says what Orca says (Tests/Helpers/atspi/
    /// orca_compare.py measures the two side by side).
    @Suite(
        "Mousepad: an editor window read and typed into",
        .serialized,
        .enabled(if: HeadlessDesktop.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/mousepad")
                 && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "Mousepad or the headless desktop is not installed (make test-deps)")
    )
    struct MousepadTests {
        static let text = "First line of text\nSecond line here\nThird\n\nFifth line\n"

        /// The desktop with Mousepad showing `sample.txt`, its window given the focus, the window
        /// entered (its title and the line at the caret said).
        static func editor() throws -> (BridgedDesktop, String) {
            let session = try BridgedDesktop()
            let file = session.desktop.directory + "/sample.txt"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            try session.launch("/usr/bin/mousepad", [file], name: "mousepad")
            var tree = ""
            try session.wait("Mousepad's window as a tree") {
                tree = try session.tree(containing: "sample.txt") ?? ""
                return !tree.isEmpty
            }
            try session.focusWindow("sample.txt - Mousepad")
            // Entered once: with the focus ("…sample.txt - Mousepad, First line of text, text
            // field"), or, when the window was active before its text view took the focus (no
            // window manager here), at its first stop and then on the focus.
            try session.wait("the window entered, on the line at the caret") {
                let said = try session.said(after: 0)
                return said.contains { $0.contains("sample.txt - Mousepad, ") } && said.last?.hasSuffix("First line of text, text field") == true
            }
            // And nothing more comes: what follows is said of the keys the test presses.
            _ = try session.settle(after: 0)
            return (session, tree)
        }

        /// Presses `key` and expects exactly `said` to be said (printing what was, when not).
        func expect(_ session: BridgedDesktop, _ key: String, says said: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let got = try session.press(key)
            #expect(got == said, "\(key)", sourceLocation: sourceLocation)
        }

        @Test("one file open: the window is a tree (no refusal for its -1 x -1 tab), named like a path and shown by that name")
        func theWindowIsATree() throws {
            let (session, tree) = try Self.editor()
            #expect(tree == "mousepad: \(session.desktop.directory)/sample.txt - Mousepad")
            let shown = try session.ctl("show", tree)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.lines.contains("First line of text, text field"), "\(shown.stdout)")
            #expect(!session.desktop.log("bridge").contains("refused"), "\(session.desktop.log("bridge"))")
        }

        @Test("caret keys say what Orca says: a character, a word, a line, blank; a selection what it took in and gave back")
        func caretKeys() throws {
            let (session, _) = try Self.editor()
            try expect(session, "Right", says: ["i"])
            try expect(session, "ctrl+Right", says: ["First"])
            try expect(session, "Down", says: ["Second line here"])
            try expect(session, "Down", says: ["Third"])
            try expect(session, "Down", says: ["blank"])
            try expect(session, "Down", says: ["Fifth line"])
            try expect(session, "End", says: ["blank"])
            try expect(session, "Home", says: ["F"])
            try expect(session, "ctrl+Home", says: ["First line of text"])
            try expect(session, "shift+Right", says: ["F selected"])
            try expect(session, "shift+End", says: ["irst line of text selected"])
            try expect(session, "shift+Left", says: ["t unselected"])
            try expect(session, "Left", says: ["unselected"])
        }

        @Test("typing at 100 ms a key logs each letter and space, none merged or lost; a typed tab says tab; BackSpace says what it deleted")
        func typing() throws {
            let (session, _) = try Self.editor()
            let before = try session.lastUtterance()
            try session.xdotool("type", "--delay", "100", "Hi there")
            let typed = try session.settle(after: before)
            #expect(typed == ["H", "i", "space", "t", "h", "e", "r", "e"])
            // Each is logged (interrupted by the next, as Orca's key echo is).
            try session.wait("the letters in the log") { try session.logged().suffix(8) == typed }
            try expect(session, "Tab", says: ["tab"])
            try expect(session, "BackSpace", says: ["tab deleted"])
            try expect(session, "Return", says: ["newline"])
            // What narratord holds is what Mousepad holds: the line at the caret.
            try expect(session, "Up", says: ["Hi there"])
        }
    }
}
