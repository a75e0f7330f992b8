@testable import NarratorBridge
import NarratorBase
import NarratorKeyboard
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// Browse mode's reading by line, word and character in the bridge's core, on a virtual clock
/// and a fake Firefox whose page has frames: what each key asks narratord to say and where its
/// focus goes, and how the page's focus and caret follow. (In Firefox: FirefoxKeysTests.)
@Suite struct BridgeLineKeyTests {
    typealias Object = ATSPIMappingTests
    typealias Keys = BridgeKeyTests
    static let tree = BridgeKeyTests.tree

    /// Firefox's window: the page (document 2) with a heading (3), a paragraph (4) around a link
    /// (5) on the row below, two buttons side by side (6, 7) and a field (8).
    static func browser() -> FakeApplication {
        let focusable = Object.shown.union(.focusable)
        let window = Object.object(
            1, .frame, "Regatta", extents: Rect(x: 0, y: 0, width: 800, height: 600),
            children: [
                Object.object(2, .documentWeb, "Regatta", states: focusable, extents: Rect(x: 0, y: 50, width: 800, height: 550), children: [
                    Object.object(3, .heading, "Regatta", extents: Rect(x: 10, y: 60, width: 300, height: 30), text: "Regatta"),
                    Object.object(4, .paragraph, extents: Rect(x: 10, y: 100, width: 500, height: 20), text: "See the \u{FFFC} of last year.", children: [
                        Object.object(5, .link, "results", states: focusable, extents: Rect(x: 70, y: 102, width: 50, height: 16)),
                    ]),
                    Object.object(6, .pushButton, "OK", states: focusable, extents: Rect(x: 10, y: 130, width: 60, height: 24)),
                    Object.object(7, .pushButton, "Cancel", states: focusable, extents: Rect(x: 80, y: 130, width: 60, height: 24)),
                    Object.object(8, .entry, "Name", states: focusable.union([.editable, .singleLine]), extents: Rect(x: 10, y: 170, width: 200, height: 24), text: ""),
                ]),
            ])
        var application = FakeApplication(name: "Firefox", windows: [window], offersCache: false, bus: ":1.4")
        application.toolkit = ("Gecko", "115.0")
        return application
    }

    static func onTheHeading() -> BridgeHarness {
        var h = BridgeHarness(browser())
        h.startMirrored()
        h.focus(":1.4", "/org/a11y/atspi/accessible/3")
        _ = h.sent()
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "3")))
        return h
    }

    /// Presses `key` and answers the focus move it asked for, if it asked for one: what it sent.
    static func read(_ h: inout BridgeHarness, _ key: String, x: UInt32 = 0) -> [RequestCommand] {
        Keys.tap(&h, key, x: x)
        let sent = h.sent()
        if case .focus(_, let element?, _)? = sent.last { h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, element))) }
        return sent
    }

    static let control: UInt32 = 4

    @Test("Down reads the line the link shares with the paragraph's words, its focus on the line's start; Right and Control+arrows say characters and words (Orca's: the cursor to the next word's end), the focus going to the link where the cursor enters it; Home, End, Left at a line's start; Up and Down at the page's ends read its first or last line again, as Orca does")
    func readingByLineWordAndCharacter() {
        var h = Self.onTheHeading()
        let taken = h.keysTaken
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "4~0", saying: "See the results, link of last year.")])
        #expect(h.keysTaken == taken + 2)
        // The page's caret goes to the paragraph the words are in (they are no object of their own).
        #expect(h.calls.map(\.call.method) == ["SetCaretOffset"])
        #expect(h.calls.last?.call.path == "/org/a11y/atspi/accessible/4")
        // Characters and words inside the stop the focus is on are said; no focus moves.
        #expect(Self.read(&h, "Right") == [.stop, .speak(text: "e")])
        #expect(Self.read(&h, "Right") == [.stop, .speak(text: "e")])
        #expect(Self.read(&h, "Right") == [.stop, .speak(text: "space")])
        #expect(Self.read(&h, "Right", x: Self.control) == [.stop, .speak(text: "the")])
        // Into the link: the focus goes with the word, and the page's focus follows.
        #expect(Self.read(&h, "Right", x: Self.control) == [.focus(tree: Self.tree, element: "5", saying: "results")])
        #expect(h.calls.map(\.call.method) == ["SetCaretOffset", "GrabFocus"])
        #expect(Self.read(&h, "Left", x: Self.control) == [.stop, .speak(text: "results")])
        #expect(Self.read(&h, "Left", x: Self.control) == [.focus(tree: Self.tree, element: "4~0", saying: "the")])
        #expect(Self.read(&h, "End") == [.focus(tree: Self.tree, element: "4~1", saying: "period")])
        #expect(Self.read(&h, "Home") == [.focus(tree: Self.tree, element: "4~0", saying: "S")])
        // Left at the line's start: the previous line's last character.
        #expect(Self.read(&h, "Left") == [.focus(tree: Self.tree, element: "3", saying: "a")])
        // Up at the first line reads it again, as Orca does.
        #expect(Self.read(&h, "Up") == [.focus(tree: Self.tree, element: "3", saying: nil)])
        // A line of one stop is said as narratord says it; two buttons side by side are one line.
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "4~0", saying: "See the results, link of last year.")])
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "6", saying: "OK, button Cancel, button")])
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "8", saying: nil)])
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "8", saying: nil)])
        // Past the page's last character, nothing moves and nothing is said.
        #expect(Self.read(&h, "End") == [.stop, .speak(text: "e")])
        #expect(Self.read(&h, "Right") == [])
        #expect(Self.read(&h, "Right", x: Self.control) == [])
        #expect(Self.read(&h, "Up") == [.focus(tree: Self.tree, element: "6", saying: "OK, button Cancel, button")])
    }

    @Test("A structural key or Tab moves the cursor: the next line is read from where the focus went")
    func theCursorStartsAgainFromTheFocus() {
        var h = Self.onTheHeading()
        _ = Self.read(&h, "Down")
        _ = Self.read(&h, "Down")
        // H (wrapping to the heading): Down reads the line after the heading, not after the buttons.
        Keys.tap(&h, "h")
        _ = h.sent()
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "3")))
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "4~0", saying: "See the results, link of last year.")])
        // A key pressed before narratord answered the last goes on from where that one went.
        Keys.tap(&h, "Down")
        Keys.tap(&h, "Right")
        #expect(h.sent() == [.focus(tree: Self.tree, element: "6", saying: "OK, button Cancel, button"), .stop, .speak(text: "K")])
    }

    @Test("The page changing under the cursor (a line added above it): the next line is read from the cursor's stop, not from its old line number")
    func thePageChangesUnderTheCursor() {
        var h = Self.onTheHeading()
        _ = Self.read(&h, "Down")
        _ = Self.read(&h, "Down")
        // A notice appears above the heading, on a row of its own, and the window is read again.
        let window = h.desktop[":1.4"]?.windows[0]
        var page = window?.children[0]
        page?.children.insert(Object.object(9, .paragraph, extents: Rect(x: 10, y: 52, width: 300, height: 6), text: "Notice"), at: 0)
        if let page { h.desktop[":1.4"]?.windows[0].children[0] = page }
        h.event("object:children-changed:add", ":1.4", "/org/a11y/atspi/accessible/2", object: "/org/a11y/atspi/accessible/9")
        h.advance(by: .milliseconds(100))
        _ = h.sent()
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "8", saying: nil)])
    }

    @Test("Up from a line whose button took the page's focus to a paragraph: the button's focus event come late, then the document's, say nothing and leave the cursor where it was")
    func lateFocusEventsAfterTheCaretMoved() {
        var h = Self.onTheHeading()
        _ = Self.read(&h, "Down")
        _ = Self.read(&h, "Down")
        #expect(h.calls.last?.call.method == "GrabFocus")
        #expect(Self.read(&h, "Up") == [.focus(tree: Self.tree, element: "4~0", saying: "See the results, link of last year.")])
        #expect(h.calls.last?.call.method == "SetCaretOffset")
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        h.focus(":1.4", "/org/a11y/atspi/accessible/2")
        #expect(h.sent() == [])
        #expect(Self.read(&h, "Down") == [.focus(tree: Self.tree, element: "6", saying: "OK, button Cancel, button")])
    }

    @Test("Tab back onto the button browse mode had focused, once the cursor moved on to a paragraph, is the user's move and is followed; only the focus's own echo says nothing")
    func tabBackOntoAnElementBrowseModeFocused() {
        var h = Self.onTheHeading()
        _ = Self.read(&h, "Down")
        _ = Self.read(&h, "Down")
        #expect(h.calls.last?.call.method == "GrabFocus")
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        #expect(h.sent() == [], "the echo of the focus given")
        _ = Self.read(&h, "Up")
        #expect(h.calls.last?.call.method == "SetCaretOffset")
        h.focus(":1.4", "/org/a11y/atspi/accessible/2")
        #expect(h.sent() == [])
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        #expect(h.sent() == [.focus(tree: Self.tree, element: "6", saying: nil)])
    }

    @Test("In a field the application focused (focus mode), the arrows, Home and End are the field's")
    func inAFieldTheKeysAreTheFields() {
        var h = Self.onTheHeading()
        h.focus(":1.4", "/org/a11y/atspi/accessible/8")
        _ = h.sent()
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "8")))
        #expect(h.sent() == [.speak(text: "Focus mode")])
        let taken = h.keysTaken
        for key in ["Down", "Up", "Left", "Right", "Home", "End"] { Keys.tap(&h, key) }
        Keys.tap(&h, "Right", x: Self.control)
        #expect(h.keysTaken == taken && h.sent() == [])
    }
}
