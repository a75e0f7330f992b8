import Foundation
import NarratorDesktopHarness
import NarratorTestSupport
import Testing

extension RealApplications {
    /// A PyQt5 window (Tests/Helpers/atspi/qt_fixture.py), Qt 5's own AT-SPI2: no cache (the bridge
    /// walks it), a top-level filler rather than a frame, and calls to stay clear of (its Text's
    /// GetTextAtOffset at the end of the text by word hangs it, Properties.GetAll on an Accessible
    /// crashes it). Its window is a tree, Tab says each control with its label and state, and typing
    /// into and moving through its line edit says each key as in GTK.
    @Suite(
        "Qt 5: a PyQt5 window read, moved through and typed into",
        .serialized,
        .enabled(if: HeadlessDesktop.isInstalled && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt5")
                 && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "python3-pyqt5 or the headless desktop is not installed (make test-deps)")
    )
    struct QtTests {
        static let tree = "narrator-qt-fixture: Narrator Qt fixture"
        static var fixture: String { BuiltProducts.repository + "/Tests/Helpers/atspi/qt_fixture.py" }

        /// The desktop with the fixture mirrored, its window given the input focus and entered on
        /// its Save button. Qt turns its accessibility on by itself here (the bridge says a screen
        /// reader runs); the variables make sure of it, as a desktop session sets them.
        static func window() throws -> BridgedDesktop {
            let session = try BridgedDesktop()
            try session.launch(
                "/usr/bin/env", ["QT_ACCESSIBILITY=1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1", "/usr/bin/python3", fixture, "--lifetime", "120"], name: "qt")
            try session.wait("the Qt window as a tree") {
                try session.trees().contains(tree) && session.ctl("show", tree).lines.contains("Print, button, dimmed")
            }
            try session.focusWindow("^Narrator Qt fixture$")
            try session.wait("the window entered on its Save button") {
                try session.said(after: 0).contains("Narrator Qt fixture, Save, button")
            }
            return session
        }


        /// The window with its line edit focused ("Ada", all of it selected, as Qt selects a line
        /// edit's text when Tab brings the focus to it).
        static func lineEdit() throws -> BridgedDesktop {
            let session = try window()
            _ = try session.hear("Tab")
            #expect(try session.hear("Tab") == ["Name, Ada, selected, text field"])
            return session
        }

        @Test("the window is a tree (walked: Qt has no cache), its controls said with their labels, states and values")
        func theWindowIsATree() throws {
            let session = try Self.window()
            let shown = try session.ctl("show", Self.tree)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.lines == ["Save, button", "Remember me, checked, check box", "Name, Ada, text field", "Volume, 40, adjustable", "Print, button, dimmed"])
            #expect(!session.desktop.log("bridge").contains("did not answer"), "\(session.desktop.log("bridge"))")
        }

        @Test("Tab says the check box with its state, Space its change, Tab the line edit by its buddy label, the slider with its value")
        func tabSaysTheControls() throws {
            let session = try Self.window()
            #expect(try session.hear("Tab") == ["Remember me, checked, check box"])
            #expect(try session.hear("space") == ["not checked"])
            #expect(try session.hear("Tab") == ["Name, Ada, selected, text field"])
            #expect(try session.hear("Tab").first == "Volume, 40, adjustable")
            #expect(try session.hear("Right") == ["41"])
            #expect(try session.hear("shift+Tab") == ["Name, Ada, selected, text field"])
        }

        @Test("typing into the line edit says each letter and space, BackSpace what it deleted; Left, Right and Home say the character at the caret")
        func typingAndMoving() throws {
            let session = try Self.lineEdit()
            // End ends the selection (Qt's caret is at the end already: nothing moves, nothing is said).
            _ = try session.press("End")
            let before = try session.lastUtterance()
            try session.xdotool("type", "--delay", "100", "Hi there")
            try session.wait("eight keys said") { try session.said(after: before).count >= 8 }
            #expect(try session.settle(after: before) == ["H", "i", "space", "t", "h", "e", "r", "e"])
            #expect(try session.hear("BackSpace") == ["e deleted"])
            #expect(try session.hear("Left") == ["r"])
            #expect(try session.hear("Left") == ["e"])
            #expect(try session.hear("Right") == ["r"])
            #expect(try session.hear("Home") == ["A"])
            // What narratord holds is what the line edit holds.
            #expect(try session.ctl("show", Self.tree).lines.contains("Name, AdaHi ther, text field"))
        }
    }
}
