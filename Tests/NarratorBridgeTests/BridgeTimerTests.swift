@testable import NarratorModel
import Testing

/// Timers that fire once what they waited for has happened change nothing: the core ignores a
/// fire it no longer waits for.
@Suite struct BridgeTimerTests {
    typealias F = BridgeFixtures

    @Test("an activation timer that fires after the focus came changes nothing, even fired twice")
    func aStaleActivationTimer() {
        var h = BridgeHarness(F.dialog)
        h.startMirrored()
        h.event("window:activate", ":1.7", F.path(8))
        h.focus(":1.7", F.path(7))
        #expect(h.sent() == [.focus(tree: F.question, element: "7")])
        h.feed(.timerFired(.activation(sequence: 1)))
        h.feed(.timerFired(.activation(sequence: 1)))
        h.advance(by: .seconds(1))
        #expect(h.sent() == [])
    }

    @Test("of two windows activated in turn with no focus, only the later is entered when its moment passes")
    func aSupersededActivation() throws {
        var fixture = F.fixture
        fixture.windows.append(BridgeWindowTests.preferences(focused: false))
        var h = BridgeHarness(fixture)
        h.startMirrored()
        h.event("window:activate", ":1.9", F.path(1))
        h.advance(by: .milliseconds(50))
        h.event("window:activate", ":1.9", F.path(30))
        h.advance(by: .milliseconds(100))
        #expect(h.sent() == [], "the first window's moment passed, but it is no longer the one activated")
        h.advance(by: .milliseconds(50))
        #expect(h.sent() == [.focus(tree: BridgeWindowTests.preferencesTree, element: nil)])
    }

    @Test("a batch timer whose application was read meanwhile reads nothing more")
    func aStaleBatchTimer() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.event("object:children-changed:add", ":1.9", F.path(2))
        // A focus on an object not mirrored reads the application at once.
        h.focus(":1.9", F.path(30))
        #expect(h.reads().count == 1)
        h.advance(by: .milliseconds(25))
        #expect(h.reads().isEmpty)
        h.feed(.timerFired(.batch))
        #expect(h.reads().isEmpty)
    }

    @Test("a retry timer after the application answered again, and a reconnect or bus timer with nothing gone, do nothing")
    func staleRetryAndReconnectTimers() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.hung = [":1.9"]
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(2_025))
        _ = h.said()
        h.resume(":1.9")
        // Its next event reads it before the retry is due.
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) answers again"])
        _ = h.reads()
        h.advance(by: .seconds(5))
        #expect(h.reads().isEmpty, "the retry finds no one to try")
        h.feed(.timerFired(.reconnect))
        h.feed(.timerFired(.lookForBus))
        #expect(h.connects == 0)
        #expect(h.restarts == 0)
        #expect(h.sent() == [])
        #expect(h.said() == [])
    }
}
