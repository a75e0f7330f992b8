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
    static let h: UInt8 = 43, insert: UInt8 = 118, a: UInt8 = 38

    static let table: KeyboardTable = {
        var table = KeyboardTable()
        for state in 0..<KeyboardTable.states {
            let capital = (state & 1 != 0) != (state & 2 != 0)
            table.set(h, state: state, Keysym(capital ? 0x48 : 0x68))
            table.set(a, state: state, Keysym(capital ? 0x41 : 0x61))
            table.set(insert, state: state, .insert)
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
}
