@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorProtocol
import Testing

/// A web page's select in Firefox, as Firefox 153 shows it (recorded with pyatspi on the
/// headless desktop): closed, one combo box in the page with its options hidden; opened (Alt+Down,
/// Space), a second combo box in the browser's chrome whose menu holds the options, the focus on
/// the chosen one; closed again (Return, Escape), that combo box gone and the focus back on the
/// select, all in one burst of events.
@Suite struct BridgeSelectTests {
    typealias F = BridgeFixtures
    typealias Object = ATSPIMappingTests
    static let tree = "Firefox: Boats — Mozilla Firefox"
    static let options = ["Dinghy", "Keelboat", "Catamaran"]

    /// The page with its select set to option `chosen` (0 to 2), its list open or closed.
    /// `placed`: the options have their place (Firefox gives it only once they show).
    static func browser(chosen: Int, open: Bool, placed: Bool = true) -> FakeApplication {
        let focusable = Object.shown.union(.focusable)
        func option(_ number: Int, _ index: Int, shown: Bool, focused: Bool) -> AccessibleSnapshot {
            var states: ATSPIStates = shown || index == chosen ? focusable : [.enabled, .visible, .focusable]
            if index == chosen { states.insert(.selected) }
            if focused { states.insert(.focused) }
            var item = Object.object(number, .menuItem, options[index], states: states)
            if placed { item.position = SetPosition(index: index + 1, count: options.count) }
            return item
        }
        var select = focusable.union(.collapsed)
        if !open { select.insert(.focused) }
        let page = Object.object(10, .documentWeb, "Boats", children: [
            Object.object(11, .heading, "Boats"),
            Object.object(12, .comboBox, "Boat class", states: select, actions: ["open"], children: [
                Object.object(13, .menu, "", children: (0..<3).map { option(14 + $0, $0, shown: false, focused: false) }),
            ]),
        ])
        var chrome = [F.button(2, "Firefox View")]
        if open {
            chrome.append(Object.object(20, .comboBox, "", states: Object.shown.union(.expanded), children: [
                Object.object(21, .menu, options[chosen], children: (0..<3).map { option(22 + $0, $0, shown: true, focused: $0 == chosen) }),
            ]))
        }
        var application = FakeApplication(name: "Firefox", windows: [Object.object(1, .frame, "Boats — Mozilla Firefox", children: chrome + [page])],
            offersCache: false, bus: ":1.4")
        application.toolkit = ("Gecko", "115.0")
        return application
    }

    /// The mirrored node `id` of the page's window.
    static func node(_ id: String, _ h: BridgeHarness) -> Node? {
        h.bridge.mirror.windows[ATSPIMirror.WindowID(application: ":1.4", path: F.path(1))]?.document.root.find(id)
    }

    @Test("the select's list opening says the chosen option with its place; closing it with Return hands Narrator's focus to the select with its new value, never a toolbar button")
    func listOpensAndCloses() throws {
        var h = BridgeHarness(Self.browser(chosen: 1, open: false))
        h.startMirrored()
        h.focus(":1.4", F.path(12))
        #expect(h.sent().last == .focus(tree: Self.tree, element: "12"))

        // Alt+Down: the list opens in the chrome, its chosen option focused; read as it opens,
        // the options have no place of their own yet (Firefox gives it once they show): each is
        // placed among the list's options.
        h.desktop[":1.4"] = Self.browser(chosen: 1, open: true, placed: false)
        h.event("object:children-changed:add", ":1.4", F.path(1), detail1: 1)
        h.focus(":1.4", F.path(23))
        #expect(h.sent().last == .focus(tree: Self.tree, element: "23"))
        #expect(Self.node("23", h)?.positionInSet == SetPosition(index: 2, count: 3))

        // Down: the next option, with its place.
        h.desktop[":1.4"] = Self.browser(chosen: 1, open: true)
        h.desktop[":1.4"]?.change(F.path(23)) { $0.states.remove(.focused) }
        h.desktop[":1.4"]?.change(F.path(24)) { $0.states.insert(.focused) }
        h.focus(":1.4", F.path(24))
        #expect(h.sent().last == .focus(tree: Self.tree, element: "24"))
        #expect(Self.node("24", h)?.positionInSet == SetPosition(index: 3, count: 3))

        // Return: Catamaran chosen, the list goes and the focus is the select's again, in one burst.
        h.desktop[":1.4"] = Self.browser(chosen: 2, open: false)
        h.event("object:state-changed:showing", ":1.4", F.path(20), detail1: 0)
        h.event("object:state-changed:selected", ":1.4", F.path(16), detail1: 1)
        h.event("object:state-changed:selected", ":1.4", F.path(15), detail1: 0)
        h.focus(":1.4", F.path(12))
        h.advance(by: .milliseconds(25))
        let sent = h.sent()
        // The list's removal carries the focus to the select (narratord says it with its new
        // value), last; no focus request follows, and none repairs to the toolbar.
        guard case .update(Self.tree, .replaceChildren(element: "1", _), announce: false, notify: .layoutChanged(element: "12"))? = sent.last else {
            Issue.record("\(sent)")
            return
        }
        #expect(!sent.contains { if case .focus = $0 { true } else { false } }, "\(sent)")
        #expect(Self.node("12", h)?.value == "Catamaran")
        // Escape after opening again: the same hand-over.
        h.desktop[":1.4"] = Self.browser(chosen: 2, open: true)
        h.focus(":1.4", F.path(24))
        #expect(h.sent().last == .focus(tree: Self.tree, element: "24"))
        h.desktop[":1.4"] = Self.browser(chosen: 2, open: false)
        h.event("object:state-changed:showing", ":1.4", F.path(20), detail1: 0)
        h.focus(":1.4", F.path(12))
        let escaped = h.sent()
        #expect(escaped.last.map { if case .update(_, .replaceChildren, _, .layoutChanged(element: "12")) = $0 { true } else { false } } == true, "\(escaped)")
    }

    @Test("a focus moving to an object a read finds, where the read takes nothing from Narrator's focus, is a focus request as before")
    func noHandOverWithoutALoss() throws {
        var h = BridgeHarness(Self.browser(chosen: 1, open: false))
        h.startMirrored()
        h.focus(":1.4", F.path(2))
        #expect(h.sent().last == .focus(tree: Self.tree, element: "2"))
        h.desktop[":1.4"]?.change(F.path(12)) { $0.name = "Class of boat" }
        h.event("object:children-changed:add", ":1.4", F.path(1))
        h.focus(":1.4", F.path(12))
        let sent = h.sent()
        #expect(sent.last == .focus(tree: Self.tree, element: "12"), "\(sent)")
        #expect(!sent.contains { if case .update(_, _, _, .some) = $0 { true } else { false } }, "\(sent)")
    }
}
