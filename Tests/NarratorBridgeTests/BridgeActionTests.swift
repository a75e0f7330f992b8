@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorProtocol
import Testing
@testable import NarratorDBus

/// narratord's owner events carried back into the application: activate as the default action,
/// increment and decrement, a declarative value, Narrator's focus; and what is said when the
/// application refuses or the element is gone.
@Suite struct BridgeActionTests {
    typealias F = BridgeFixtures
    typealias Object = ATSPIMappingTests
    static let tree = "editor: Editor"

    /// A window whose controls' default actions are not all their first.
    static let editor = FakeApplication(name: "editor", windows: [
        Object.object(1, .frame, "Editor", children: [
            Object.object(2, .pushButton, "Save", actions: ["click"]),
            Object.object(3, .spinButton, "Copies", states: Object.shown.union(.focusable), actions: ["SetFocus", "Increase", "Decrease"]),
            Object.object(4, .treeItem, "Photos", actions: ["expand or contract", "activate"]),
            Object.object(5, .slider, "Volume", states: Object.shown.union(.focusable), value: ATSPIValue(current: 40, minimum: 0, maximum: 100, increment: 1)),
        ]),
    ], bus: ":1.3")

    static func action(_ element: String, _ action: String, tree: String = tree) -> String {
        Event.action(OwnerAction(tree: tree, element: element, action: action, point: nil)).json.compactText
    }

    static func doAction(_ number: Int, _ index: Int32) -> DBusCall {
        DBusCall(path: F.path(number), interface: "org.a11y.atspi.Action", method: "DoAction", arguments: [.int32(index)])
    }

    @Test("narratord's activate is the element's default action in the application, by its index among its actions")
    func activateIsTheDefaultAction() {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        h.feed(.daemonLine(Self.action("2", "activate")))
        h.feed(.daemonLine(Self.action("4", "activate")))
        h.feed(.daemonLine(Self.action("4", "expand or contract")))
        #expect(h.calls.map(\.application) == [":1.3", ":1.3", ":1.3"])
        #expect(h.calls.map(\.call) == [Self.doAction(2, 0), Self.doAction(4, 1), Self.doAction(4, 0)])
        #expect(h.said() == [])
        #expect(h.sent() == [], "the result comes back as the application's events")
    }

    @Test("increment and decrement are the toolkit's Increase and Decrease")
    func incrementAndDecrement() {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        h.feed(.daemonLine(Self.action("3", "increment")))
        h.feed(.daemonLine(Self.action("3", "decrement")))
        #expect(h.calls.map(\.call) == [Self.doAction(3, 1), Self.doAction(3, 2)])
        #expect(h.said() == [])
    }

    @Test("an action the element does not offer (increment on a button, a named action it lacks) calls nothing and is said in the journal")
    func anActionTheElementLacksIsJournalled() {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        h.feed(.daemonLine(Self.action("2", "increment")))
        h.feed(.daemonLine(Self.action("2", "Delete")))
        #expect(h.calls.isEmpty)
        #expect(h.said() == [
            "narrator-atspi: cannot increment: \(F.path(2)) in \(Self.tree) offers no such action",
            "narrator-atspi: cannot Delete: \(F.path(2)) in \(Self.tree) offers no such action",
        ])
    }

    @Test("a slider its application gives no way to change (no Value, no Increase or Decrease) says so when adjusted, once a press")
    func anAdjustableThatCannotBeAdjustedSaysSo() {
        let zoom = FakeApplication(name: "viewer", windows: [
            Object.object(1, .frame, "Viewer", children: [Object.object(2, .slider, "Zoom", states: Object.shown.union(.focusable))]),
        ], bus: ":1.4")
        var h = BridgeHarness(zoom)
        h.startMirrored()
        h.feed(.daemonLine(Self.action("2", "increment", tree: "viewer: Viewer")))
        h.feed(.daemonLine(Self.action("2", "decrement", tree: "viewer: Viewer")))
        #expect(h.calls.isEmpty)
        let said = RequestCommand.announce(text: "cannot be adjusted", priority: .high, tree: "viewer: Viewer", element: "2", key: "cannot adjust 2")
        #expect(h.sent() == [said, said])
        #expect(h.said() == [
            "narrator-atspi: cannot increment: \(F.path(2)) in viewer: Viewer offers no such action",
            "narrator-atspi: cannot decrement: \(F.path(2)) in viewer: Viewer offers no such action",
        ])
    }

    @Test("a declarative value changed in narratord sets the element's CurrentValue")
    func aValueChangeSetsTheValue() throws {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        h.feed(.daemonLine(#"{"event":"value","tree":"\#(Self.tree)","element":"5","value":41,"spoken":"41"}"#))
        let call = try #require(h.calls.last)
        #expect(call.application == ":1.3")
        #expect(call.call == DBusCall(
            path: F.path(5), interface: "org.freedesktop.DBus.Properties", method: "Set",
            arguments: [.string("org.a11y.atspi.Value"), .string("CurrentValue"), .variantDouble(41)]))
        #expect(h.calls.count == 1)
    }

    @Test("Narrator's focus moved by a user moves the application's where the element can take it; the focus event that comes back says nothing")
    func narratorsFocusGrabsTheApplications() {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        h.feed(.daemonLine(#"{"event":"focus","tree":"\#(Self.tree)","element":"3"}"#))
        #expect(h.calls.map(\.call) == [DBusCall(path: F.path(3), interface: "org.a11y.atspi.Component", method: "GrabFocus")])
        h.focus(":1.3", F.path(3))
        #expect(h.sent() == [])
        // A button that cannot take the focus moves only Narrator.
        h.feed(.daemonLine(#"{"event":"focus","tree":"\#(Self.tree)","element":"2"}"#))
        #expect(h.calls.count == 1)
        #expect(h.said() == [])
    }

    @Test("the application refusing an action, or the call failing, is said in the journal")
    func aRefusedOrFailedActionIsJournalled() {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        h.actionAnswer = .success(.structure([.bool(false)]))
        h.feed(.daemonLine(Self.action("2", "activate")))
        #expect(h.said() == ["narrator-atspi: :1.3 refused to perform click on \(F.path(2))"])
        h.actionAnswer = .failure(.error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "gone"))
        h.feed(.daemonLine(#"{"event":"value","tree":"\#(Self.tree)","element":"5","value":41,"spoken":"41"}"#))
        h.feed(.daemonLine(#"{"event":"focus","tree":"\#(Self.tree)","element":"3"}"#))
        #expect(h.said() == [
            "narrator-atspi: could not set \(F.path(5))'s value to 41.0 in :1.3: org.freedesktop.DBus.Error.UnknownObject: gone",
            "narrator-atspi: could not grab the focus for \(F.path(3)) in :1.3: org.freedesktop.DBus.Error.UnknownObject: gone",
        ])
        h.actionAnswer = .failure(.timedOut)
        h.feed(.daemonLine(Self.action("4", "activate")))
        #expect(h.said() == ["narrator-atspi: could not perform activate on \(F.path(4)) in :1.3: no reply in time"])
    }

    @Test("an action for an element no longer in the application's window is said in the journal, and nothing is called")
    func anActionForAGoneElementIsJournalled() {
        var h = BridgeHarness(Self.editor)
        h.startMirrored()
        // The application removed the tree item; narratord, not told yet, has it still.
        h.desktop[":1.3"]?.change(F.path(1)) { $0.children.removeLast(2) }
        h.event("object:children-changed:remove", ":1.3", F.path(1))
        h.advance(by: .milliseconds(25))
        _ = h.sent()
        h.feed(.daemonLine(Self.action("4", "activate")))
        h.feed(.daemonLine(Self.action("4", "expand or contract")))
        h.feed(.daemonLine(#"{"event":"value","tree":"\#(Self.tree)","element":"5","value":41,"spoken":"41"}"#))
        #expect(h.calls.isEmpty, "\(h.calls)")
        #expect(h.said() == [
            "narrator-atspi: cannot activate: \(F.path(4)) is no longer in :1.3\(F.path(1))",
            "narrator-atspi: cannot expand or contract: \(F.path(4)) is no longer in :1.3\(F.path(1))",
            "narrator-atspi: cannot set the value: \(F.path(5)) is no longer in :1.3\(F.path(1))",
        ])
        // A tree no longer mirrored (its window closed) is said too.
        h.feed(.daemonLine(Self.action("2", "activate", tree: "editor: Closed")))
        #expect(h.calls.isEmpty)
        #expect(h.said() == ["narrator-atspi: cannot activate: editor: Closed is no longer mirrored"])
    }
}
