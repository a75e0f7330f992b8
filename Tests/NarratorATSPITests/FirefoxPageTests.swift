import Foundation
import NarratorDesktopHarness
import NarratorModel
import NarratorTestSupport
import Testing

extension RealApplications {
    /// Firefox ESR showing a local page (Tests/Helpers/firefox/page.html: headings, a paragraph, a
    /// link, a form): the page is a tree narratord holds, Tab says what a screen reader user needs
    /// of each control, the rotors move over the page, and a change the page makes to itself is
    /// mirrored.
    @Suite(
        "Firefox: a web page read, tabbed through and moved over by heading",
        .serialized,
        .enabled(if: HeadlessDesktop.isInstalled && FirefoxProfile.isInstalled
                 && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"), "Firefox ESR or the headless desktop is not installed (make test-deps)")
    )
    struct FirefoxPageTests {
        @Test("the page is entered on its first heading with its title; the notification bar of the pop-up it opened is announced once; Tab reaches the link, the field, the check box, the button and the select with their names, roles and states; typing into the field says each letter once; the select's list is read as a list and closing it says the select with its new value")
        func tabThroughThePage() throws {
            var shown = FirefoxPage.testPage
            shown.query = "popup"
            let session = try FirefoxPage.open(shown)
            // Firefox's notification bar for the pop-up it blocked, said as Orca says an alert.
            let blocked = "Firefox prevented this site from opening a pop-up window."
            try session.wait("the notification bar announced") { try session.said(after: 0).contains(blocked) }
            // Loading the page said its title and where the cursor is: its first heading (whose
            // name Firefox may give a moment after the page takes the focus: then said as its change).
            let entered = try session.said(after: 0)
            #expect(entered.contains { $0.hasPrefix("Narrator test page — Mozilla Firefox, ") && $0.contains("heading") }, "\(entered)")
            #expect(entered.contains { $0.contains("Welcome, heading") }, "\(entered)")
            // Into the field the keys are the page's (focus mode), out of it Narrator's again
            // (browse mode): each switch said after the focus, as Orca 43 says it.
            let keys: [(key: String, says: [String])] = [
                ("Tab", ["Read the docs, link"]), ("Tab", ["Email, text field", "Focus mode"]),
                ("Tab", ["Remember me, not checked, check box", "Browse mode"]),
                ("Tab", ["Send, button"]), ("shift+Tab", ["Remember me, not checked, check box"]), ("space", ["checked"]),
                ("shift+Tab", ["Email, text field", "Focus mode"]),
                // Typed into the field: each letter once (the first used to be said twice, its
                // caret move after a read of the field that knew no caret).
                ("a", ["a"]), ("b", ["b"]),
                ("Tab", ["Remember me, checked, check box", "Browse mode"]), ("Tab", ["Send, button"]),
                // The select: its label, value and role; opened (Alt+Down), its options as a list,
                // each with its place; Return chooses one and closes the list onto the select, said
                // with its new value (it used to say the browser's first toolbar button first).
                ("Tab", ["Boat class, Keelboat, combo box", "Focus mode"]),
                ("alt+Down", ["selected, Keelboat, menu item, 2 of 3"]),
                ("Down", ["Catamaran, menu item, 3 of 3"]),
                ("Return", ["Boat class, Catamaran, combo box"]),
                ("space", ["selected, Catamaran, menu item, 3 of 3"]),
                ("Escape", ["Boat class, Catamaran, combo box"]),
            ]
            for (key, says) in keys {
                let heard = try session.hear(key)
                #expect(heard == says, "after \(key)")
            }
            #expect(try session.said(after: 0).filter { $0 == blocked }.count == 1, "the notification bar was announced more than once")
        }

        @Test("the headings rotor moves over the page's headings, in order, with their levels; the controls rotor over its form")
        func headingsRotor() throws {
            let session = try FirefoxPage.open()
            let rotors = try session.ctl("rotor")
            #expect(rotors.status == 0, "\(rotors.stderr)")
            #expect(rotors.lines.contains { $0.hasPrefix("headings") }, "\(rotors.stdout)")
            #expect(try session.ctl("rotor", "headings", "first").lines == ["Welcome, heading level 1"])
            #expect(try session.ctl("rotor", "headings", "next").lines == ["Sign in, heading level 2"])
            #expect(try session.ctl("rotor", "headings", "next").lines == ["More, heading level 2"])
            #expect(try session.ctl("rotor", "headings", "next").lines == ["wrapped to top, Welcome, heading level 1"])
            #expect(try session.ctl("rotor", "headings", "previous").lines == ["wrapped to bottom, More, heading level 2"])
            #expect(try session.ctl("rotor", "headings", "previous").lines == ["Sign in, heading level 2"])
            // Narrator's next after a heading is the text under it, read in place.
            try session.ctl("rotor", "headings", "first")
            let next = try session.ctl("next")
            #expect(next.lines == ["This page tests what a screen reader says."], "\(next.stderr)")
            // (Last: Narrator's focus on a control moves Firefox's, whose focus event, coming
            // back, would move Narrator's again if a command came quicker than it.)
            #expect(try session.ctl("rotor", "controls", "next").lines == ["Email, text field"])
            #expect(try session.ctl("rotor", "links", "first").lines == ["Read the docs, link"])
        }

        @Test("what the page changes in itself (a button's script writing a paragraph and setting the title) is in the mirror, the title as the tree's new title (an update, not the page registered again) that the tree list and Narrator+KP_Enter say, and the page still moves with Tab")
        func domChange() throws {
            let session = try FirefoxPage.open()
            let tree = try session.pageTree
            #expect(try Self.title(of: tree, in: session) == "Narrator test page — Mozilla Firefox")
            let registrations = session.desktop.log("narratord").components(separatedBy: "replaced tree").count
            for _ in 0..<4 { _ = try session.hear("Tab") }
            _ = try session.press("space")  // Send: its script writes "Sent, thank you" into #news, and as the title
            try session.wait("the paragraph the button wrote, in narratord's tree") {
                try session.ctl("show", session.pageTree).stdout.contains("Sent, thank you")
            }
            try session.wait("the page's new title in narratord's tree list") { try Self.title(of: tree, in: session) == "Sent, thank you — Mozilla Firefox" }
            #expect(try session.pageTree == tree, "the tree kept its name")
            #expect(session.desktop.log("narratord").components(separatedBy: "replaced tree").count == registrations, "the page was registered again whole for its title")
            #expect(try session.hear("Insert+KP_Enter") == ["Sent, thank you — Mozilla Firefox"])
            let heard = try session.hear("shift+Tab")
            #expect(heard == ["Remember me, not checked, check box"], "after shift+Tab")
        }

        /// The title narratord's tree list gives `tree`.
        static func title(of tree: String, in session: BridgedDesktop) throws -> String? {
            let json = try JSONParser().parse(try session.ctl("--json", "trees").stdout)
            return (json["trees"]?.arrayValue ?? json.arrayValue ?? []).first { $0["tree"]?.stringValue == tree }?["title"]?.stringValue
        }

    }
}

/// The test page, loaded in Firefox on the desktop.
enum FirefoxPage {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers/firefox/page.html").path

    /// A page of Tests/Helpers/firefox: its file, its title, and lines of narratord's `show`
    /// that say it is loaded whole.
    struct Page {
        var path: String
        var title: String
        /// What entering it says (nil: not waited for).
        var firstHeading: String?
        var loaded: [String]
        /// The query the page is loaded with (`popup`: page.html opens a pop-up as it loads,
        /// which Firefox blocks with its notification bar).
        var query: String? = nil
    }

    static let testPage = Page(path: page, title: "Narrator test page", firstHeading: "Welcome, heading", loaded: ["Welcome, heading level 1", "Send, button"])

    /// The desktop with the page loaded, its window focused and entered: the window's title and
    /// the page's first heading said.
    static func open(_ shown: Page = testPage, keymap: String? = nil) throws -> BridgedDesktop {
        let session = try BridgedDesktop(keymap: keymap)
        var arguments = try FirefoxProfile.arguments(profile: session.desktop.directory + "/firefox-profile", page: shown.path)
        if let query = shown.query, !arguments.isEmpty { arguments[arguments.count - 1] += "?" + query }
        try session.launch(FirefoxProfile.firefox, arguments, name: "firefox")
        try session.wait("Firefox's window as a tree", timeout: .seconds(90)) { try session.tree(containing: "Firefox") != nil }
        // The window takes the input focus, as a click on it gives it (there is no window manager).
        try session.focusWindow(shown.title)
        // The title is said with the first thing said in the window: Firefox's own toolbar, or
        // the page's first heading when the page is there first.
        do {
            if let firstHeading = shown.firstHeading {
                try session.wait("the page's window entered on its first heading", timeout: .seconds(60)) {
                    // (Its level may come with a read after the first: the rotor test asks for it.)
                    try session.said(after: 0).contains { $0.contains(firstHeading) }
                }
            }
            // The page as loaded: a read begun while it loaded is followed by one of all of it.
            try session.wait("the loaded page in narratord's tree", timeout: .seconds(60)) {
                let lines = try session.ctl("show", try session.pageTree).lines
                return shown.loaded.allSatisfy(lines.contains)
            }
            // What entering the page says is over before the test's keys.
            _ = try session.settle(after: 0, quiet: .milliseconds(800))
        } catch {
            let trees = (try? session.ctl("trees").stdout) ?? ""
            // The page as narratord holds it: whether what was not said is missing or was only not announced.
            let shown = (try? session.ctl("show", try session.pageTree).stdout) ?? ""
            throw BridgedDesktop.Failure(description: "\(error)\ntrees: \(trees)\nsaid: \((try? session.said(after: 0)) ?? [])\nthe page's tree: \(shown.suffix(3_000))")
        }
        return session
    }
}

extension BridgedDesktop {
    /// The tree of Firefox's window.
    var pageTree: String {
        get throws { try tree(containing: "Firefox") ?? "" }
    }
}
