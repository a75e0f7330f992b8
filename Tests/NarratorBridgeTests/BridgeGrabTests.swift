@testable import NarratorBridge
import NarratorBase
import NarratorKeyboard
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// Keys from the X server (`run --keys x11`): the bridge grabs exactly the keys Narrator takes
/// where the focus is, reads raw key events as the application would get them, and does not take
/// the window's bounce at a grab (X tells it it lost the focus and got it back) for the user's.
@Suite struct BridgeGrabTests {
    typealias Keys = BridgeKeyTests
    typealias Object = ATSPIMappingTests
    static let h: UInt8 = 43, insert: UInt8 = 118, a: UInt8 = 38, tab: UInt8 = 23

    static let table: KeyboardTable = {
        var table = KeyboardTable()
        for state in 0..<KeyboardTable.states {
            let capital = (state & 1 != 0) != (state & 2 != 0)
            table.set(h, state: state, Keysym(capital ? 0x48 : 0x68))
            table.set(a, state: state, Keysym(capital ? 0x41 : 0x61))
            table.set(insert, state: state, .insert)
            table.set(tab, state: state, Keysym(0xFF09))
        }
        return table
    }()

    /// Presses and releases `keycode` as raw events, 800 ms after the last key.
    static func tap(_ h: inout BridgeHarness, _ keycode: UInt8, serverTime: UInt) {
        h.now = h.now + .milliseconds(800)
        h.feed(.rawKey(keycode, down: true, serverTime: serverTime, Keys.time))
        h.now = h.now + .milliseconds(40)
        h.feed(.rawKey(keycode, down: false, serverTime: serverTime + 40, Keys.time))
    }

    @Test("once the keyboard is read, browse mode's keys are grabbed on the page, and no longer once the focus leaves it; Narrator's key always")
    func grabsFollowWhereTheFocusIs() {
        var h = Keys.onTheHeading()
        h.feed(.keyboard(Self.table))
        let onPage = h.grabs.last
        #expect(onPage?.keys[Self.h]?.contains(0) == true)
        #expect(onPage?.keys[Self.insert]?.count == Int(KeyboardTable.states))
        #expect(onPage?.keys[Self.a] == nil, "a letter Narrator has no use for is the page's")
        // Tab to the toolbar's Back button: off the page, h is the application's.
        h.focus(":1.4", "/org/a11y/atspi/accessible/9")
        _ = h.sent()
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "9")))
        #expect(h.grabs.last?.keys[Self.h] == nil)
        #expect(h.grabs.last?.keys[Self.insert] != nil)
    }

    @Test("a raw h on the page turns the headings rotor; its press reported twice (raw, then grabbed) counts once")
    func aRawKeyIsReadAsTheApplicationWouldGetIt() {
        var h = Keys.onTheHeading()
        h.feed(.keyboard(Self.table))
        h.now = h.now + .milliseconds(800)
        h.feed(.rawKey(Self.h, down: true, serverTime: 1000, Keys.time))
        h.feed(.rawKey(Self.h, down: true, serverTime: 1000, Keys.time))
        h.feed(.rawKey(Self.h, down: false, serverTime: 1040, Keys.time))
        #expect(h.sent() == [.rotor(name: "headings", direction: .next, within: "2")])
    }

    @Test("the active window activated again just after a grabbed key is the grab's echo: browse mode's place in the page stands; seconds later, the same is the user's return to the window")
    func theGrabsFocusBounceIsNotTheUsers() {
        var h = Keys.onTheHeading()
        h.feed(.keyboard(Self.table))
        Self.tap(&h, Self.h, serverTime: 2000)
        #expect(h.sent() == [.rotor(name: "headings", direction: .next, within: "2")])
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "3")))
        _ = h.sent()
        let window = ATSPIMirror.WindowID(application: ":1.4", path: "/org/a11y/atspi/accessible/1")
        #expect(h.bridge.mirror.browsing == window)
        // Firefox's answer to X's NotifyGrab and NotifyUngrab.
        h.event("window:activate", ":1.4", "/org/a11y/atspi/accessible/1")
        #expect(h.sent() == [])
        #expect(h.bridge.mirror.browsing == window, "the page's own focus events are still browse mode's echoes")
        h.advance(by: .seconds(2))
        h.event("window:activate", ":1.4", "/org/a11y/atspi/accessible/1")
        #expect(h.bridge.mirror.browsing == nil)
    }

    /// A page of two links, entered on the first (the page's focus there, as after K).
    static func onTheFirstLink() -> BridgeHarness {
        let window = Object.object(
            1, .frame, "Regatta", extents: Rect(x: 0, y: 0, width: 800, height: 600),
            children: [
                Object.object(2, .documentWeb, "Regatta", states: Object.shown.union(.focusable), children: [
                    Object.object(3, .heading, "Regatta", text: "Regatta"),
                    Object.object(4, .link, "Results", states: Object.shown.union(.focusable)),
                    Object.object(6, .link, "Entries", states: Object.shown.union(.focusable)),
                ]),
            ])
        var application = FakeApplication(name: "Firefox", windows: [window], offersCache: false, bus: ":1.4")
        application.toolkit = ("Gecko", "115.0")
        var h = BridgeHarness(application)
        h.startMirrored()
        h.focus(":1.4", "/org/a11y/atspi/accessible/4")
        _ = h.sent()
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "4")))
        h.feed(.keyboard(Self.table))
        return h
    }

    @Test("a grabbed key's move from one link to the next is said once: Firefox giving the focus back to the link left, as the grab ends and before the move lands, is not the user's; seconds later, the focus on that link is")
    func theFocusGivenBackAtAGrabsEndIsNotSaid() {
        var h = Self.onTheFirstLink()
        Self.tap(&h, Self.h, serverTime: 2000)
        #expect(h.sent() == [.rotor(name: "headings", direction: .next, within: "2")])
        h.feed(.daemonLine(Keys.focusReply(h, h.requestIDs.count - 1, "6")))
        #expect(h.calls.last?.call.method == "GrabFocus")
        #expect(h.calls.last?.call.path == "/org/a11y/atspi/accessible/6")
        _ = h.sent()
        // Firefox at X's NotifyUngrab: the link left focused again, then the one asked for.
        h.focus(":1.4", "/org/a11y/atspi/accessible/4")
        #expect(h.sent() == [], "the link left behind is not said over the one arrived at")
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        #expect(h.sent() == [], "the move's own echo says nothing more")
        // Shift+Tab back onto the first link, long after: the user's.
        h.advance(by: .seconds(2))
        h.focus(":1.4", "/org/a11y/atspi/accessible/4")
        #expect(h.sent() == [.focus(tree: Keys.tree, element: "4")])
    }

    @Test("just after a grabbed key, a focus on an object no window holds (Firefox's own panel, focused as X bounces the focus) is not read for; seconds later, one is")
    func aFocusBouncedOutsideTheWindowsIsNotReadFor() {
        var h = Self.onTheFirstLink()
        _ = h.reads()
        Self.tap(&h, Self.h, serverTime: 2000)
        h.focus(":1.4", "/org/a11y/atspi/accessible/77")
        #expect(h.reads().isEmpty, "no read of the browser at each key")
        h.advance(by: .seconds(2))
        h.focus(":1.4", "/org/a11y/atspi/accessible/77")
        #expect(h.reads().count == 1, "a focus on what is not mirrored, not at a grab, is read for")
    }

    @Test("a focus waiting for a read is dropped by the focus that follows, even one ignored as a grab's echo: carried out when the read came in, it would move Narrator's focus to where the application's no longer is")
    func aWaitingFocusIsDroppedByTheEchosFocus() {
        var h = Self.onTheFirstLink()
        h.advance(by: .seconds(2))
        h.holds = { _, question in if case .read(_, .items) = question { true } else { false } }
        // The page's focus goes to a field not mirrored yet: it waits for the read.
        h.desktop[":1.4"]?.change("/org/a11y/atspi/accessible/2") {
            $0.children.append(Object.object(60, .entry, "Boat name", states: Object.shown.union([.focusable, .editable, .singleLine]), text: ""))
        }
        h.focus(":1.4", "/org/a11y/atspi/accessible/60")
        _ = h.sent()
        // A grabbed key; Firefox focuses its own panel in the bounce.
        Self.tap(&h, Self.h, serverTime: 3000)
        _ = h.sent()
        h.focus(":1.4", "/org/a11y/atspi/accessible/77")
        h.holds = { _, _ in false }
        h.release()
        #expect(!h.sent().contains(.focus(tree: Keys.tree, element: "60")), "the field's stale focus is not carried out")
    }

    @Test("within a grab's echo only the focus Narrator gave counts, but a key Narrator does not take ends the echo: Tab just after H moves the focus for the user, and is said")
    func aKeyPassedThroughEndsTheEcho() {
        var h = Self.onTheFirstLink()
        Self.tap(&h, Self.h, serverTime: 2000)
        _ = h.sent()
        // Firefox gives the focus back to the link it had, within the echo: not the user's.
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        #expect(h.sent() == [])
        h.now = h.now + .milliseconds(50)
        h.feed(.rawKey(Self.tab, down: true, serverTime: 2090, Keys.time))
        h.feed(.rawKey(Self.tab, down: false, serverTime: 2120, Keys.time))
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        #expect(h.sent() == [.focus(tree: Keys.tree, element: "6")])
    }

    @Test("a key pressed while a grabbed one is held does not end the echo: the application has not even had the grab's bounce yet")
    func aKeyUnderAGrabbedOneKeepsTheEcho() {
        var h = Self.onTheFirstLink()
        h.now = h.now + .milliseconds(800)
        h.feed(.rawKey(Self.h, down: true, serverTime: 2000, Keys.time))
        _ = h.sent()
        h.feed(.rawKey(Self.tab, down: true, serverTime: 2010, Keys.time))
        h.focus(":1.4", "/org/a11y/atspi/accessible/6")
        #expect(h.sent() == [], "the focus given back in the bounce is not the user's")
    }
}
