@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// An alert, notification or info bar coming on show: announced through narratord's queue at high
/// priority, keyed by its element so that a newer text replaces one still waiting.
@Suite struct BridgeAlertTests {
    typealias F = BridgeFixtures
    typealias Object = ATSPIMappingTests
    static let tree = "editor: Editor"

    static func editor(bar shown: Bool) -> FakeApplication {
        let states: ATSPIStates = shown ? Object.shown : [.enabled, .visible]
        return FakeApplication(name: "editor", windows: [
            Object.object(1, .frame, "Editor", children: [
                Object.object(2, .infoBar, "Information", states: states, children: [Object.object(3, .label, "Story saved", states: states)]),
                Object.object(5, .pushButton, "Save", actions: ["click"]),
            ]),
        ], bus: ":1.3")
    }

    @Test("an info bar coming on show is announced at high priority with key \"alert <id>\", once while it shows")
    func anInfoBarIsAnnounced() throws {
        var h = BridgeHarness(Self.editor(bar: false))
        h.startMirrored()
        h.desktop[":1.3"] = Self.editor(bar: true)
        h.event("object:state-changed:showing", ":1.3", F.path(2), detail1: 1)
        h.advance(by: .milliseconds(25))
        let sent = h.sent()
        #expect(sent.last == .announce(text: "Information, Story saved", priority: .high, tree: Self.tree, element: "2", key: "alert 2"))
        #expect(sent.dropLast().allSatisfy { if case .update(Self.tree, _, _, _) = $0 { true } else { false } }, "\(sent)")
        // Read again while it still shows: not announced again.
        h.event("object:children-changed:add", ":1.3", F.path(1))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [])
    }

    @Test("a window that is an alert is announced as it opens, with its title")
    func anAlertWindowIsAnnounced() throws {
        let alert = Object.object(40, .alert, "Warning", children: [Object.object(41, .label, "Disk almost full"), Object.object(42, .pushButton, "OK", actions: ["click"])])
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.windows.append(alert)
        h.event("window:create", ":1.9", F.path(40))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [
            .register(alert, application: "fixture", taken: [F.tree]),
            .announce(text: "Warning, Disk almost full", priority: .high, tree: "fixture: Warning", element: "40", key: "alert 40"),
        ])
    }
    /// Firefox's notification bar as Firefox 153 shows it when a page's `window.open` is blocked
    /// (recorded with pyatspi): an alert with no name whose message is a section's text, beside
    /// an icon, a Preferences button and a Close button.
    static func browser(bar shown: Bool) -> FakeApplication {
        let states: ATSPIStates = shown ? Object.shown : [.enabled, .visible]
        return FakeApplication(name: "Firefox", windows: [
            Object.object(1, .frame, "Page — Mozilla Firefox", children: [
                Object.object(2, .alert, "", states: states, text: "\u{FFFC}\u{FFFC}\u{FFFC}\u{FFFC}", children: [
                    Object.object(3, .image, "Info", states: states),
                    Object.object(4, .section, "", states: states, text: "Firefox prevented this site from opening a pop-up window. \u{FFFC}", children: [
                        Object.object(5, .section, "", states: states, text: ""),
                    ]),
                    Object.object(6, .pushButton, "Preferences", states: states.union(.focusable), actions: ["press"]),
                    Object.object(7, .section, "", states: states, text: "\u{FFFC}", children: [
                        Object.object(8, .pushButton, "Close", states: states.union(.focusable), actions: ["press"]),
                    ]),
                ]),
                Object.object(9, .pushButton, "Reload", actions: ["press"]),
            ]),
        ], bus: ":1.4")
    }

    @Test("Firefox's notification bar (a pop-up blocked) is announced once by its message, which is a section's text, not by its buttons")
    func firefoxNotificationBarIsAnnounced() throws {
        var h = BridgeHarness(Self.browser(bar: false))
        h.startMirrored()
        h.desktop[":1.4"] = Self.browser(bar: true)
        h.event("object:state-changed:showing", ":1.4", F.path(2), detail1: 1)
        h.advance(by: .milliseconds(25))
        let tree = "Firefox: Page — Mozilla Firefox"
        #expect(h.sent().filter { if case .announce = $0 { true } else { false } } == [
            .announce(text: "Firefox prevented this site from opening a pop-up window.", priority: .high, tree: tree, element: "2", key: "alert 2"),
        ])
        h.event("object:state-changed:showing", ":1.4", F.path(2), detail1: 1)
        h.advance(by: .milliseconds(25))
        #expect(h.sent().allSatisfy { if case .announce = $0 { false } else { true } })
    }
}
