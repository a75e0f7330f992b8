@testable import NarratorModel
import Testing

/// The application's focus followed: once per move, only to stops, and, where the object is new,
/// once a read has found it, quietly.
@Suite struct BridgeFocusTests {
    typealias F = BridgeFixtures

    @Test("the application's focus moving to a stop moves Narrator's there at once, once for GTK's doubled event; a focus lost is no move")
    func focusFollows() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.focus(":1.9", F.path(3))
        #expect(h.sent() == [.focus(tree: F.tree, element: "3")])
        #expect(h.reads().isEmpty, "a mirrored object needs no read")
        h.focus(":1.9", F.path(3))
        #expect(h.sent() == [])
        h.event("object:state-changed:focused", ":1.9", F.path(3), detail1: 0)
        h.event("object:state-changed:focused", ":1.9", F.path(4), detail1: 0)
        #expect(h.sent() == [])
        h.focus(":1.9", F.path(4))
        #expect(h.sent() == [.focus(tree: F.tree, element: "4")])
        #expect(h.said() == [])
    }

    @Test("a focus on an object that is no stop (a container, a label read with its field) moves nothing")
    func focusOnlyToStops() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.focus(":1.9", F.path(2))
        h.focus(":1.9", F.path(5))
        h.focus(":1.9", F.path(1))
        #expect(h.sent() == [])
        h.focus(":1.9", F.path(16))
        #expect(h.sent() == [.focus(tree: F.tree, element: "16")])
    }

    @Test("a focus on an object not mirrored yet waits for the application's read, then moves; what the read changed is not said")
    func focusOnANewObjectWaitsForTheRead() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        // A new button appears and takes the focus before any read saw it.
        h.desktop[":1.9"]?.change(F.path(2)) { $0.children.append(F.button(20, "Undo")) }
        h.focus(":1.9", F.path(20))
        let reads = h.reads()
        #expect(reads.count == 1)
        #expect(reads.first?.requests.first == .items, "the whole application is read")
        #expect(h.sent() == [
            .children(F.tree, of: "2", in: h.desktop[":1.9"]!.windows[0], application: "fixture", announce: false),
            .focus(tree: F.tree, element: "20"),
        ])
    }

    @Test("a focus on an object no read finds is dropped, and does not move later when the object appears")
    func aFocusNoReadFindsIsDropped() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.focus(":1.9", F.path(30))
        #expect(h.reads().count == 1)
        #expect(h.sent() == [])
        h.desktop[":1.9"]?.change(F.path(2)) { $0.children.append(F.button(30, "Later")) }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.children(F.tree, of: "2", in: h.desktop[":1.9"]!.windows[0], application: "fixture")])
    }

    @Test("a focus waiting for a read while more events come waits for the read they cause too, then moves, quietly")
    func aFocusWaitsWhileMoreEventsCome() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        // The application answers its cache slowly: the read the focus starts is in flight.
        h.holds = { _, question in if case .read(_, .items) = question { true } else { false } }
        h.focus(":1.9", F.path(30))
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        h.event("object:state-changed:showing", ":1.9", F.path(2), detail1: 1)
        h.advance(by: .milliseconds(25))
        #expect(h.reads().count == 1, "one read in flight; the events wait for it")
        // That read ends before the button is there: the focus waits on, for the read the events asked.
        h.release()
        #expect(h.sent() == [])
        #expect(h.reads().count == 1)
        h.desktop[":1.9"]?.change(F.path(2)) { $0.children.append(F.button(30, "Later")) }
        h.release()
        #expect(h.sent() == [
            .children(F.tree, of: "2", in: h.desktop[":1.9"]!.windows[0], application: "fixture", announce: false),
            .focus(tree: F.tree, element: "30"),
        ])
        h.advance(by: .seconds(1))
        #expect(h.reads().isEmpty, "exactly one more read")
    }

    @Test("a focus during an object's read waits for it: the check box cleared on the way is not said over the focus")
    func aFocusWaitsForAnObjectRead() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.holds = { _, _ in true }
        h.desktop[":1.9"]?.change(F.path(4)) { $0.states.remove(.checked) }
        h.event("object:state-changed:checked", ":1.9", F.path(4), detail1: 0)
        h.focus(":1.9", F.path(3))
        #expect(h.sent() == [], "the focus waits")
        h.holds = { _, _ in false }
        h.release()
        #expect(h.sent() == [.set(F.tree, "4", #"{"value":"0"}"#, announce: false), .focus(tree: F.tree, element: "3")])
    }
}
