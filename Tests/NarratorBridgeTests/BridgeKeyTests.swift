@testable import NarratorBridge
import NarratorBase
import NarratorKeyboard
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// Narrator's keys in the bridge's core, on a virtual clock and a fake Firefox: which key events
/// it takes, what it asks narratord for, and how narratord's answers move the page's own focus
/// or caret. (The real keys, through the X server and Firefox: FirefoxKeysTests.)
@Suite struct BridgeKeyTests {
    typealias Object = ATSPIMappingTests
    static let tree = "Firefox: Regatta"
    static let time = LocalTime(year: 2026, month: 12, day: 7, weekday: 1, hour: 14, minute: 9)

    /// Firefox's window: a toolbar button, then the page (document 2) with a heading (3), a link
    /// (4) and a field (5).
    static func browser() -> FakeApplication {
        let window = Object.object(
            1, .frame, "Regatta", extents: Rect(x: 0, y: 0, width: 800, height: 600),
            children: [
                Object.object(9, .pushButton, "Back", states: Object.shown.union(.focusable)),
                Object.object(2, .documentWeb, "Regatta", states: Object.shown.union(.focusable), children: [
                    Object.object(3, .heading, "Regatta", text: "Regatta"),
                    Object.object(4, .link, "Results", states: Object.shown.union(.focusable)),
                    Object.object(5, .entry, states: Object.shown.union([.focusable, .editable, .singleLine]), text: ""),
                ]),
            ])
        var application = FakeApplication(name: "Firefox", windows: [window], offersCache: false, bus: ":1.4")
        application.toolkit = ("Gecko", "115.0")
        return application
    }

    /// narratord's answer to the `index`th request: the focus on `element`.
    static func focusReply(_ h: BridgeHarness, _ index: Int, _ element: String, boundary: Bool = false) -> String {
        let report = FocusReport(utterance: "…", hint: nil, focus: Focus(tree: tree, element: element), boundary: boundary)
        return Reply(id: .number(Double(h.requestIDs[index])), .success(.focus(report))).json.compactText
    }

    /// A key pressed and released `gap` after the last (X's modifier bits `x`).
    static func tap(_ h: inout BridgeHarness, _ name: String, x: UInt32 = 0) {
        h.now = h.now + .milliseconds(800)
        let key = Keysym(named: name) ?? Keysym(0)
        h.feed(.keyEvent(KeyEvent(.press, key, xModifiers: x, at: h.now), time))
        h.now = h.now + .milliseconds(40)
        h.feed(.keyEvent(KeyEvent(.release, key, xModifiers: x, at: h.now), time))
    }

    /// The page entered on its heading, narratord's answer in.
    static func onTheHeading() -> BridgeHarness {
        var h = BridgeHarness(browser())
        h.startMirrored()
        h.focus(":1.4", "/org/a11y/atspi/accessible/3")
        _ = h.sent()
        h.feed(.daemonLine(focusReply(h, h.requestIDs.count - 1, "3")))
        return h
    }

    @Test("H on a page is taken, press and release, and turns narratord's headings rotor within the page's document")
    func aStructuralKeyTurnsARotorWithinThePage() {
        var h = Self.onTheHeading()
        Self.tap(&h, "h")
        #expect(h.keysTaken == 2)
        #expect(h.sent() == [.rotor(name: "headings", direction: .next, within: "2")])
        Self.tap(&h, "x")
        #expect(h.sent() == [.rotor(name: "check-boxes", direction: .next, within: "2")])
        // The page has none: said in Orca's words, after what was being said is stopped.
        h.feed(.daemonLine(h.refusal(of: h.requestIDs.count - 1, .unknownRotor, "no rotor")))
        #expect(h.sent() == [.stop, .speak(text: "No more check boxes.")])
    }

    @Test("U, V, L, M, D, P and Q, and with Shift, turn the rotors of a page's links by visit and of its regions; none there is said in Orca's words")
    func theRegionKeysTurnTheirRotors() {
        var h = Self.onTheHeading()
        let keys: [(key: String, rotor: String, none: String)] = [
            ("u", "unvisited-links", "No more unvisited links."), ("v", "visited-links", "No more visited links."),
            ("l", "lists", "No more lists."), ("m", "landmarks", "No more landmarks."), ("d", "live-regions", "No more live regions."),
            ("p", "paragraphs", "No more paragraphs."), ("q", "block-quotes", "No more blockquotes."),
        ]
        for (key, rotor, none) in keys {
            Self.tap(&h, key)
            #expect(h.sent() == [.rotor(name: rotor, direction: .next, within: "2")], "\(key)")
            h.feed(.daemonLine(h.refusal(of: h.requestIDs.count - 1, .unknownRotor, "no rotor")))
            #expect(h.sent() == [.stop, .speak(text: none)], "\(key)")
            // With Shift (X's bit 1), the key arrives as its capital: the previous one.
            Self.tap(&h, key.uppercased(), x: 1)
            #expect(h.sent() == [.rotor(name: rotor, direction: .previous, within: "2")], "Shift+\(key)")
        }
    }

    @Test("narratord's answer moves the page's focus to a link, and its caret to a heading, so that Tab goes on from there")
    func thePagesFocusAndCaretFollow() {
        var h = Self.onTheHeading()
        Self.tap(&h, "k")
        h.feed(.daemonLine(Self.focusReply(h, h.requestIDs.count - 1, "4")))
        #expect(h.calls.map(\.call.method) == ["GrabFocus"])
        #expect(h.calls.map(\.call.path) == ["/org/a11y/atspi/accessible/4"])
        Self.tap(&h, "H", x: 1)
        h.feed(.daemonLine(Self.focusReply(h, h.requestIDs.count - 1, "3")))
        #expect(h.calls.map(\.call.method) == ["GrabFocus", "SetCaretOffset"])
        #expect(h.calls.last?.call.path == "/org/a11y/atspi/accessible/3")
        // A move that stayed (a boundary) moves nothing in the page.
        Self.tap(&h, "Down")
        h.feed(.daemonLine(Self.focusReply(h, h.requestIDs.count - 1, "3", boundary: true)))
        #expect(h.calls.count == 2)
    }

    @Test("Tab into the page's field: focus mode, said after the field; letters are the field's; Escape is browse mode again, said")
    func aFieldTheApplicationFocusedIsFocusMode() {
        var h = Self.onTheHeading()
        h.focus(":1.4", "/org/a11y/atspi/accessible/5")
        _ = h.sent()
        h.feed(.daemonLine(Self.focusReply(h, h.requestIDs.count - 1, "5")))
        #expect(h.sent() == [.speak(text: "Focus mode")])
        let taken = h.keysTaken
        Self.tap(&h, "h")
        #expect(h.keysTaken == taken && h.sent() == [])
        Self.tap(&h, "Escape")
        #expect(h.keysTaken == taken + 2)
        #expect(h.sent() == [.stop, .speak(text: "Browse mode")])
        Self.tap(&h, "h")
        #expect(h.sent() == [.rotor(name: "headings", direction: .next, within: "2")])
    }

    @Test("Narrator's commands outside a page: the time, Control, and keys that are not Narrator's")
    func commandsAndKeysThatPass() {
        var h = Self.onTheHeading()
        h.now = h.now + .seconds(1)
        h.feed(.keyEvent(KeyEvent(.press, .insert, at: h.now), Self.time))
        Self.tap(&h, "t")
        h.feed(.keyEvent(KeyEvent(.release, .insert, at: h.now), Self.time))
        #expect(h.sent() == [.stop, .speak(text: "14:09")])
        let taken = h.keysTaken
        Self.tap(&h, "Control_L")
        #expect(h.keysTaken == taken && h.sent() == [.stop])
        Self.tap(&h, "w")
        Self.tap(&h, "Tab")
        #expect(h.keysTaken == taken && h.sent() == [])
    }

    @Test("a keymap file's bad line is journalled with its number, and the rest is used")
    func aKeymapFilesBadLineIsJournalled() {
        var h = Self.onTheHeading()
        _ = h.said()
        h.feed(.keymapRead(path: "/home/u/.config/narrator/keymap", .text("h = none\nNarrator+q = quit\n")))
        #expect(h.said() == [
            "narrator-atspi: keymap /home/u/.config/narrator/keymap line 2: no command is called \"quit\"; \"narratorctl keys --commands\" lists them; the line is left out"
        ])
        Self.tap(&h, "h")
        #expect(h.sent() == [])
    }
}
