@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// The choice of a tab list or a radio group moving on (Right, Down): the control that gave it
/// up is updated quietly, and the new choice's focus says "selected" (the mirror's rule:
/// ATSPIMirrorTests.choiceMovesQuietly).
@Suite struct BridgeChoiceTests {
    static let tree = "app: Settings"
    static func path(_ number: Int) -> String { BridgeFixtures.path(number) }

    static func settings(_ window: AccessibleSnapshot = ATSPIMirrorTests.choices()) -> FakeApplication {
        FakeApplication(name: "app", windows: [window], bus: ":1.4")
    }

    @Test("Right in a tab list: the tab left is updated quietly, the new one is said by its focus")
    func aTabChoiceMovesQuietly() throws {
        var h = BridgeHarness(Self.settings())
        h.startMirrored()
        h.focus(":1.4", Self.path(3))
        #expect(h.sent() == [.focus(tree: Self.tree, element: "3")])
        h.desktop[":1.4"] = Self.settings(ATSPIMirrorTests.choices(advanced: true))
        h.event("object:state-changed:selected", ":1.4", Self.path(3), detail1: 0)
        h.event("object:state-changed:selected", ":1.4", Self.path(4), detail1: 1)
        h.focus(":1.4", Self.path(4))
        #expect(h.sent() == [
            .set(Self.tree, "3", #"{"traits":["tab"]}"#, announce: false),
            .set(Self.tree, "4", #"{"traits":["selected","tab"]}"#, announce: true),
            .focus(tree: Self.tree, element: "4"),
        ])
    }

    @Test("Down in a radio group: the button left is unchecked quietly, the new one is said by its focus")
    func aRadioChoiceMovesQuietly() throws {
        var h = BridgeHarness(Self.settings())
        h.startMirrored()
        h.focus(":1.4", Self.path(5))
        _ = h.sent()
        h.desktop[":1.4"] = Self.settings(ATSPIMirrorTests.choices(large: true))
        h.event("object:state-changed:checked", ":1.4", Self.path(5), detail1: 0)
        h.event("object:state-changed:checked", ":1.4", Self.path(6), detail1: 1)
        h.focus(":1.4", Self.path(6))
        #expect(h.sent() == [
            .set(Self.tree, "5", #"{"value":"0"}"#, announce: false),
            .set(Self.tree, "6", #"{"value":"1"}"#, announce: true),
            .focus(tree: Self.tree, element: "6"),
        ])
    }

    @Test("a check box cleared is news: nothing else takes its place")
    func aCheckBoxClearedIsSaid() throws {
        var h = BridgeHarness(Self.settings())
        h.startMirrored()
        h.desktop[":1.4"] = Self.settings(ATSPIMirrorTests.choices(remember: false))
        h.event("object:state-changed:checked", ":1.4", Self.path(7), detail1: 0)
        #expect(h.sent() == [.set(Self.tree, "7", #"{"value":"0"}"#, announce: true)])
    }
}
