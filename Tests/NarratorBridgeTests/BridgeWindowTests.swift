@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// Windows and applications coming, going and becoming active: each window a tree, registered
/// when it opens, unregistered when it closes, entered when it is activated.
@Suite struct BridgeWindowTests {
    typealias F = BridgeFixtures
    static let preferencesTree = "fixture: Preferences"

    /// A second window of the fixture, with its Close button focused (or not).
    static func preferences(focused: Bool = true) -> AccessibleSnapshot {
        ATSPIMappingTests.object(30, .frame, "Preferences", children: [F.button(31, "Close", focused: focused)])
    }

    static func dialog(focusedYes: Bool) -> FakeApplication {
        var dialog = F.dialog
        if focusedYes { dialog.change(F.path(9)) { $0.states.formUnion([.focusable, .focused]) } }
        return dialog
    }

    @Test("a window that becomes active is entered on the object focused in it; GTK's focus event after says nothing more")
    func activationEntersOnTheFocus() {
        var h = BridgeHarness(Self.dialog(focusedYes: true))
        h.startMirrored()
        h.event("window:activate", ":1.7", F.path(8))
        #expect(h.sent() == [.focus(tree: F.question, element: "9")])
        h.focus(":1.7", F.path(9))
        h.focus(":1.7", F.path(9))
        h.advance(by: .milliseconds(200))
        #expect(h.sent() == [])
        #expect(h.reads().isEmpty)
    }

    @Test("a window activated with nothing focused yet waits for the focus event and enters the tree on it")
    func activationWaitsForTheFocusEvent() {
        var h = BridgeHarness(Self.dialog(focusedYes: false))
        h.startMirrored()
        h.event("window:activate", ":1.7", F.path(8))
        #expect(h.sent() == [])
        #expect(h.pendingTimers == [.activation(sequence: 1)])
        h.advance(by: .milliseconds(100))
        h.focus(":1.7", F.path(9))
        #expect(h.sent() == [.focus(tree: F.question, element: "9")])
        h.advance(by: .milliseconds(100))
        #expect(h.sent() == [], "the timer finds the focus came")
    }

    @Test("with no focus event within 150 ms, Narrator enters the activated window's tree where it can")
    func activationWithNoFocusEvent() {
        var h = BridgeHarness(Self.dialog(focusedYes: false))
        h.startMirrored()
        h.event("window:activate", ":1.7", F.path(8))
        h.advance(by: .milliseconds(149))
        #expect(h.sent() == [])
        h.advance(by: .milliseconds(1))
        #expect(h.sent() == [.focus(tree: F.question, element: nil)])
    }

    @Test("an activation during a read of its application waits for it, and enters on the focus that read found")
    func activationDuringARead() {
        var h = BridgeHarness(Self.dialog(focusedYes: false))
        h.startMirrored()
        h.holds = { _, question in if case .read(_, .items) = question { true } else { false } }
        h.event("object:children-changed:add", ":1.7", F.path(6))
        h.advance(by: .milliseconds(25))
        h.desktop[":1.7"] = Self.dialog(focusedYes: true)
        h.event("window:activate", ":1.7", F.path(8))
        #expect(h.sent() == [])
        h.holds = { _, _ in false }
        h.release()
        #expect(h.sent() == [.focus(tree: F.question, element: "9")])
        h.advance(by: .milliseconds(200))
        #expect(h.sent() == [])
    }

    @Test("an activation for a window not read yet waits for the read, which registers it, then enters it")
    func activationOfAWindowNotReadYet() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.windows.append(Self.preferences())
        h.event("window:activate", ":1.9", F.path(30))
        #expect(h.reads().count == 1, "read at once, not after the batch")
        #expect(h.sent() == [
            .register(Self.preferences(), application: "fixture", taken: [F.tree]),
            .focus(tree: Self.preferencesTree, element: "31"),
        ])
    }

    @Test("a dialog that opens later (the root's children changing) is registered as a tree of its own")
    func aWindowThatOpensIsRegistered() throws {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.desktop[":1.9"]?.windows.append(Self.preferences(focused: false))
        h.event("object:children-changed:add", ":1.9", ATSPIApplicationRead.root, detail1: 1, object: F.path(30))
        #expect(h.sent() == [])
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.register(Self.preferences(focused: false), application: "fixture", taken: [F.tree, F.question])])
        #expect(h.reads().map(\.application) == [":1.9"], "only its application is read")
    }

    @Test("window:create registers the new window")
    func windowCreateRegisters() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.windows.append(Self.preferences(focused: false))
        h.event("window:create", ":1.9", F.path(30))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.register(Self.preferences(focused: false), application: "fixture", taken: [F.tree])])
    }

    @Test("a window that closes (window:destroy, or gone defunct) is unregistered; its application's other windows stay")
    func aClosedWindowIsUnregistered() {
        var fixture = F.fixture
        fixture.windows.append(Self.preferences(focused: false))
        var h = BridgeHarness(fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.windows.removeLast()
        h.event("window:destroy", ":1.9", F.path(30))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.unregister(tree: Self.preferencesTree)])
        // The other window's object going defunct: the window is gone too.
        h.desktop[":1.9"]?.change(F.path(1)) { $0.states.insert(.defunct) }
        h.event("object:state-changed:defunct", ":1.9", F.path(1), detail1: 1)
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.unregister(tree: F.tree)])
        #expect(h.bridge.mirror.trees.isEmpty)
    }

    @Test("an application leaving the registry (the desktop's children changing, sent under the registry's unique name) takes its trees")
    func anApplicationThatLeavesTakesItsTrees() {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.desktop[":1.7"] = nil
        h.event("object:children-changed:remove", ":1.0", ATSPIApplicationRead.root)
        #expect(h.asked.map(\.question) == [.desktop], "the desktop is listed again, no one else is asked")
        #expect(h.sent() == [.unregister(tree: F.question)])
        #expect(h.bridge.applicationNames == [":1.9"])
        #expect(h.said() == [])
        // Any event under the registry's own name is the desktop's, never an application's.
        h.asked = []
        h.event("object:state-changed:defunct", ATSPIBridge.registry, F.path(1), detail1: 1)
        #expect(h.asked.map(\.question) == [.desktop])
        #expect(h.sent() == [])
    }

    @Test("an application that activated its window before it was on the registry's list is entered once read, and only once")
    func aLostActivationIsEnteredOnTheFirstRead() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        var dialog = F.dialog
        dialog.windows[0].states.insert(.active)
        h.desktop[":1.7"] = dialog
        h.event("object:children-changed:add", ATSPIBridge.registry, ATSPIApplicationRead.root)
        // Entered as an activation is: on its focus, or its first stop once the focus is not told.
        h.advance(by: .milliseconds(200))
        let sent = h.sent()
        #expect(sent.first?.registeredTree == F.question)
        #expect(sent.dropFirst() == [.focus(tree: F.question, element: nil)], "\(sent)")
        // The activation event, late: not a second entry.
        h.event("window:activate", ":1.7", dialog.windows[0].path)
        h.advance(by: .milliseconds(200))
        #expect(h.sent().isEmpty)
    }

    @Test("the window active when the bridge starts is entered, as a user started Narrator in it: Narrator's focus (which its keys need) is there at once; an inactive one is not")
    func activeAtStartIsEntered() throws {
        var dialog = F.dialog
        dialog.windows[0].states.insert(.active)
        var h = BridgeHarness(dialog, F.fixture)
        h.start()
        h.advance(by: .milliseconds(200))
        let focuses = h.sent().filter { if case .focus = $0 { true } else { false } }
        #expect(focuses == [.focus(tree: F.question, element: nil)])
    }

    @Test("a new application on the desktop is read once the desktop's children change, or on its first event")
    func aNewApplicationIsRead() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.7"] = F.dialog
        h.event("object:children-changed:add", ATSPIBridge.registry, ATSPIApplicationRead.root)
        #expect(h.sent() == [.register(ATSPIMirrorTests.question(), application: "zenity")])
        // Another, started since, whose first event comes before any rescan: read at once, with no batch delay.
        var other = F.dialog
        other.bus = ":1.20"
        other.name = "other"
        h.desktop[":1.20"] = other
        _ = h.reads()
        h.event("object:property-change:accessible-name", ":1.20", F.path(3))
        #expect(h.sent() == [.register(ATSPIMirrorTests.question(), application: "other")])
        #expect(h.reads().map(\.application) == [":1.20"])
        #expect(h.bridge.applicationNames == [":1.20", ":1.7", ":1.9"])
        // A third, whose first event is a focus: read, and its focus followed once the read found it.
        var third = F.dialog
        third.bus = ":1.21"
        third.name = "third"
        h.desktop[":1.21"] = third
        _ = h.reads()
        h.focus(":1.21", F.path(9))
        #expect(h.sent() == [.register(ATSPIMirrorTests.question(), application: "third"), .focus(tree: "third: Question", element: "9")])
        #expect(h.reads().map(\.application) == [":1.21"], "the read begun for its first event finds the object: it is not read twice")
    }
}
