@testable import NarratorBridge
import NarratorBase
import NarratorKeyboard
@testable import NarratorModel
@testable import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// The keys about speech and about what was said, in the bridge's core on a virtual clock:
/// speech on and off and verbosity (narratord's settings, asked and set), the last utterance
/// again, the current word and its spelling, and where am I and the window title pressed twice.
/// (Through the real daemon: SpeechSettingsKeyTests; through Firefox: FirefoxKeysTests.)
@Suite struct BridgeSpeechKeyTests {
    typealias Object = ATSPIMappingTests
    static let tree = BridgeKeyTests.tree

    /// Firefox's window: the page (2) with a heading (3), a list of three links (6; 7, 8, 9 holding
    /// links 10, 11, 12), a form "Entry" (15) with a field (5) holding "sail on Tuesday" with its caret at 10 (in "Tuesday"), and a
    /// status bar (13) saying "Done" when `statusBar`.
    static func browser(statusBar: Bool = true) -> FakeApplication {
        var field = Object.object(5, .entry, "Name", states: Object.shown.union([.focusable, .editable, .singleLine]), text: "sail on Tuesday")
        field.selection = TextRange(location: 10, length: 0)
        let items = [(7, 10, "Results"), (8, 11, "Entries"), (9, 12, "Contact")].map { item, link, name in
            Object.object(item, .listItem, children: [Object.object(link, .link, name, states: Object.shown.union(.focusable))])
        }
        var children = [
            Object.object(2, .documentWeb, "Regatta", states: Object.shown.union(.focusable), children: [
                Object.object(3, .heading, "Regatta", text: "Regatta"),
                Object.object(6, .list, children: items),
                Object.object(15, .form, "Entry", children: [field]),
            ])
        ]
        if statusBar { children.append(Object.object(13, .statusBar, children: [Object.object(14, .label, "Done")])) }
        let window = Object.object(1, .frame, "Regatta", extents: Rect(x: 0, y: 0, width: 800, height: 600), children: children)
        var application = FakeApplication(name: "Firefox", windows: [window], offersCache: false, bus: ":1.4")
        application.toolkit = ("Gecko", "115.0")
        return application
    }

    /// The page entered on `element`, narratord's answer in.
    static func on(_ element: Int, statusBar: Bool = true) -> BridgeHarness {
        var h = BridgeHarness(browser(statusBar: statusBar))
        h.startMirrored()
        h.focus(":1.4", "/org/a11y/atspi/accessible/\(element)")
        _ = h.sent()
        h.feed(.daemonLine(BridgeKeyTests.focusReply(h, h.requestIDs.count - 1, "\(element)")))
        _ = h.sent()
        return h
    }

    /// Narrator+`key` (Insert held), pressed `gap` after the last key.
    static func narrator(_ h: inout BridgeHarness, _ key: String, gap: Duration = .milliseconds(800)) {
        h.now = h.now + gap
        h.feed(.keyEvent(KeyEvent(.press, .insert, at: h.now), BridgeKeyTests.time))
        tap(&h, key, gap: .milliseconds(20))
        h.feed(.keyEvent(KeyEvent(.release, .insert, at: h.now), BridgeKeyTests.time))
    }

    static func tap(_ h: inout BridgeHarness, _ name: String, gap: Duration = .milliseconds(800)) {
        h.now = h.now + gap
        let key = Keysym(named: name) ?? Keysym(0)
        h.feed(.keyEvent(KeyEvent(.press, key, at: h.now), BridgeKeyTests.time))
        h.now = h.now + .milliseconds(20)
        h.feed(.keyEvent(KeyEvent(.release, key, at: h.now), BridgeKeyTests.time))
    }

    /// narratord's answer to the last request: the setting `key` is `value`.
    static func setting(_ h: BridgeHarness, _ key: String, _ value: String) -> BridgeInput {
        .daemonLine(Reply(id: .number(Double(h.requestIDs[h.requestIDs.count - 1])), .success(.setting(key: key, value: value))).json.compactText)
    }

    @Test("Narrator+S: speech off is said, then set off; pressed again, set on, then said")
    func speechOffAndOn() {
        var h = Self.on(3)
        Self.narrator(&h, "s")
        #expect(h.sent() == [.get(key: "speech")])
        h.feed(Self.setting(h, "speech", "on"))
        #expect(h.sent() == [.stop, .speak(text: "Speech off."), .set(key: "speech", value: .string("off"))])
        h.feed(Self.setting(h, "speech", "off"))
        #expect(h.sent() == [])
        Self.narrator(&h, "s")
        #expect(h.sent() == [.get(key: "speech")])
        h.feed(Self.setting(h, "speech", "off"))
        #expect(h.sent() == [.set(key: "speech", value: .string("on"))])
        h.feed(Self.setting(h, "speech", "on"))
        #expect(h.sent() == [.stop, .speak(text: "Speech on.")])
    }

    @Test("Narrator+V: brief from verbose and back, each said once set")
    func verbosity() {
        var h = Self.on(3)
        Self.narrator(&h, "v")
        #expect(h.sent() == [.get(key: "verbosity")])
        h.feed(Self.setting(h, "verbosity", "verbose"))
        #expect(h.sent() == [.set(key: "verbosity", value: .string("brief"))])
        h.feed(Self.setting(h, "verbosity", "brief"))
        #expect(h.sent() == [.stop, .speak(text: "Verbosity brief.")])
        Self.narrator(&h, "v")
        h.feed(Self.setting(h, "verbosity", "brief"))
        #expect(h.sent() == [.get(key: "verbosity"), .set(key: "verbosity", value: .string("verbose"))])
        h.feed(Self.setting(h, "verbosity", "verbose"))
        #expect(h.sent() == [.stop, .speak(text: "Verbosity verbose.")])
    }

    @Test("Narrator+R says again what narratord last started saying (not its hint); before anything, that nothing was")
    func repeatTheLastUtterance() {
        var h = Self.on(3)
        Self.narrator(&h, "r")
        #expect(h.sent() == [.stop, .speak(text: "Nothing was said yet.")])
        func started(_ id: UInt64, _ kind: SpeechKind, _ text: String) -> BridgeInput {
            .daemonLine(Event.speech(SpeechNotice(utterance: UtteranceID(id), kind: kind, phase: .started, at: h.now, text: text, tree: nil, element: nil)).json.compactText)
        }
        h.feed(started(7, .focus, "Results, link"))
        h.feed(started(8, .hint, "Press Enter to follow"))
        Self.narrator(&h, "r")
        #expect(h.sent() == [.stop, .speak(text: "Results, link")])
        #expect(h.said() == [])
    }

    @Test("KP_5 says the item's text, and pressed twice spells it; in a field, the word at the caret")
    func currentWordAndSpelling() {
        var h = Self.on(3)
        Self.tap(&h, "KP_Begin")
        #expect(h.sent() == [.stop, .speak(text: "Regatta")])
        Self.tap(&h, "KP_Begin", gap: .milliseconds(200))
        #expect(h.sent() == [.stop, .speak(text: "R, e, g, a, t, t, a")])
        var field = Self.on(5)
        Self.tap(&field, "KP_Begin")
        Self.tap(&field, "KP_Begin", gap: .milliseconds(200))
        #expect(field.sent() == [.stop, .speak(text: "Tuesday"), .stop, .speak(text: "T, u, e, s, d, a, y")])
    }

    @Test("the window title pressed twice says the status bar, or that there is none")
    func windowTitleTwiceSaysTheStatusBar() {
        var h = Self.on(3)
        Self.narrator(&h, "KP_Enter")
        Self.narrator(&h, "KP_Enter", gap: .milliseconds(200))
        #expect(h.sent() == [.stop, .speak(text: "Regatta"), .stop, .speak(text: "Done")])
        var bare = Self.on(3, statusBar: false)
        Self.narrator(&bare, "KP_Enter")
        Self.narrator(&bare, "KP_Enter", gap: .milliseconds(200))
        #expect(bare.sent() == [.stop, .speak(text: "Regatta"), .stop, .speak(text: "No status bar.")])
    }

    @Test("where am I pressed twice: the focus, then (after it, a low announcement) the form it is in and the window")
    func whereAmITwiceSaysWhereItIs() {
        var h = Self.on(5)
        Self.tap(&h, "KP_Enter")
        #expect(h.sent() == [.focus(tree: Self.tree, element: "5")])
        Self.tap(&h, "KP_Enter", gap: .milliseconds(200))
        #expect(h.sent() == [
            .focus(tree: Self.tree, element: "5"), .announce(text: "In form Entry, in Regatta.", priority: .low, tree: nil, element: nil, key: nil),
        ])
    }

    @Test("where an object is: its place among its like (its list item's), then the list, table and landmark around it")
    func whereaboutsInAWindow() {
        let window = Self.browser().windows[0]
        #expect(window.whereabouts(of: "/org/a11y/atspi/accessible/11") == ["item 2 of 3", "in list of 3 items"])
        #expect(window.whereabouts(of: "/org/a11y/atspi/accessible/3") == [])
        let rows = (0..<4).map { row in
            Object.object(30 + row, .tableRow, children: (0..<3).map { Object.object(40 + row * 3 + $0, row == 0 ? .columnHeader : .tableCell, "cell") })
        }
        let table = Object.object(1, .frame, children: [
            Object.object(20, .landmark, "Results", children: [
                Object.object(21, .table, "Race schedule", children: [Object.object(22, .caption, "Race schedule")] + rows),
            ]),
        ])
        #expect(table.whereabouts(of: "/org/a11y/atspi/accessible/47") == ["row 3 of 4, column 2 of 3", "in table Race schedule", "in landmark Results"])
        #expect(window.statusBarText == "Done" && table.statusBarText == nil)
    }
}

/// The pure parts: the word at an offset, and spelling.
@Suite struct SpellingTests {
    @Test("the word at the caret: in it, just after it, or the one before the blanks; none on an empty line")
    func wordAtTheCaret() {
        #expect(Spelling.word(at: 0, in: "sail on Tuesday") == "sail")
        #expect(Spelling.word(at: 4, in: "sail on Tuesday") == "sail")
        #expect(Spelling.word(at: 10, in: "sail on Tuesday") == "Tuesday")
        #expect(Spelling.word(at: 15, in: "sail on Tuesday") == "Tuesday")
        #expect(Spelling.word(at: 6, in: "sail   on") == "sail")
        #expect(Spelling.word(at: 5, in: "sail\n\nnext") == nil)
        #expect(Spelling.word(at: 0, in: "") == nil)
    }

    @Test("spelled: one character at a time, a blank named")
    func spelled() {
        #expect(Spelling.spelled("11:00", .english) == "1, 1, :, 0, 0")
        #expect(Spelling.spelled("a b", .english) == "a, space, b")
    }
}
