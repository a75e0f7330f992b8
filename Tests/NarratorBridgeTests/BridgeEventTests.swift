@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// Which events read what: an object's own facts have it read alone at once; the tree's shape
/// has the whole application read after the batch delay, a burst being one read, and events
/// during a read one more read after it.
@Suite struct BridgeEventTests {
    typealias F = BridgeFixtures

    static func isWhole(_ read: (id: ReadID, application: String, requests: [ATSPIRequest])) -> Bool {
        read.requests.first == .items
    }

    static func question(_ question: BridgeQuestion, of read: ReadID) -> Bool {
        if case .read(let id, _) = question { id == read } else { false }
    }

    @Test("a name, value or state event reads that object alone, at once, and its change is said")
    func anObjectEventReadsTheObjectAlone() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save as" }
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Save as"}"#, announce: true)])
        h.desktop[":1.9"]?.change(F.path(4)) { $0.states.remove(.checked) }
        h.event("object:state-changed:checked", ":1.9", F.path(4), detail1: 0)
        #expect(h.sent() == [.set(F.tree, "4", #"{"value":"0"}"#, announce: true)])
        h.desktop[":1.9"]?.change(F.path(16)) { $0.states.insert(.sensitive) }
        h.event("object:state-changed:sensitive", ":1.9", F.path(16), detail1: 1)
        #expect(h.sent() == [.set(F.tree, "16", #"{"traits":["button"]}"#, announce: true)])
        let reads = h.reads()
        #expect(reads.map { Set($0.requests.map(\.path)) } == [[F.path(3)], [F.path(4)], [F.path(16)]])
        #expect(h.pendingTimers.isEmpty, "no batch")
    }

    @Test("a link Firefox finds visited after its page loaded (history is looked up late) is read alone and becomes a visited link")
    func aLinkFoundVisitedIsReadAlone() throws {
        var h = BridgeHarness(BridgeKeyTests.browser())
        h.startMirrored()
        _ = h.reads()
        _ = h.sent()
        h.desktop[":1.4"]?.change("/org/a11y/atspi/accessible/4") { $0.states.insert(.visited) }
        h.event("object:state-changed:visited", ":1.4", "/org/a11y/atspi/accessible/4", detail1: 1)
        #expect(h.reads().map { Set($0.requests.map(\.path)) } == [["/org/a11y/atspi/accessible/4"]])
        #expect(h.sent() == [.set(BridgeKeyTests.tree, "4", #"{"traits":["link","visited"]}"#, announce: true)])
    }

    @Test("a slider's value event moves its declarative value")
    func aValueEventMovesTheSlider() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        // GTK describes a scale by its value: the description moves with it.
        h.desktop[":1.9"]?.change(F.path(7)) {
            $0.value?.current = 41
            $0.description = "41"
        }
        h.event("object:property-change:accessible-value", ":1.9", F.path(7))
        #expect(h.sent() == [.set(F.tree, "7", #"{"adjustable":{"value":41,"min":0,"max":100}}"#, announce: true)])
        #expect(h.reads().count == 1)
    }

    @Test("a children-changed event reads the whole application after 25 ms, not at once")
    func aStructureEventReadsAfterTheBatch() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.desktop[":1.9"]?.change(F.path(2)) { $0.children.append(F.button(20, "Undo")) }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        #expect(h.reads().isEmpty)
        #expect(h.pendingTimers == [.batch])
        h.advance(by: .milliseconds(24))
        #expect(h.reads().isEmpty)
        #expect(h.sent() == [])
        h.advance(by: .milliseconds(1))
        let reads = h.reads()
        #expect(reads.count == 1 && Self.isWhole(reads[0]))
        #expect(h.sent() == [.children(F.tree, of: "2", in: h.desktop[":1.9"]!.windows[0], application: "fixture")])
    }

    @Test("a burst of structure events (children, showing, windows created and destroyed, defunct) is one read")
    func aBurstIsOneRead() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        for type in ["object:children-changed:add", "object:children-changed:remove", "object:state-changed:showing", "window:create", "window:destroy", "object:state-changed:defunct"] {
            h.event(type, ":1.9", F.path(2))
            h.advance(by: .milliseconds(3))
        }
        #expect(h.reads().isEmpty)
        h.advance(by: .milliseconds(10))
        let reads = h.reads()
        #expect(reads.count == 1 && Self.isWhole(reads[0]))
        h.advance(by: .seconds(1))
        #expect(h.reads().isEmpty)
        #expect(h.sent() == [], "nothing changed")
    }

    @Test("events during a read in flight cause exactly one more read after it, object events included")
    func eventsDuringAReadCauseOneMore() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.holds = { _, question in if case .read(_, .items) = question { true } else { false } }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.reads().count == 1)
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save as" }
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        h.event("object:state-changed:showing", ":1.9", F.path(2), detail1: 1)
        h.advance(by: .milliseconds(25))
        #expect(h.reads().isEmpty, "the name is not read alone while the whole application is read")
        h.holds = { _, _ in false }
        h.release()
        let reads = h.reads()
        #expect(reads.count == 1 && Self.isWhole(reads[0]), "one more read")
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Save as"}"#, announce: true)])
        h.advance(by: .seconds(1))
        #expect(h.reads().isEmpty)
    }

    @Test("an object read alone that ends during a whole read is newer than what that read found, and is kept")
    func anObjectReadIsLaidOverAWholeRead() throws {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.holds = { application, _ in application == ":1.9" }
        // The name changes: the button alone is read (A); then the tree changes: the whole application (B).
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        let reads = h.reads()
        #expect(reads.count == 2)
        let a = try #require(reads.first?.id), b = try #require(reads.last?.id)
        // B's cache is answered before the rename, A's questions after it.
        h.release { Self.question($0, of: b) }
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save as" }
        h.holds = { _, question in Self.question(question, of: b) }
        h.release { Self.question($0, of: a) }
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Save as"}"#, announce: true)])
        h.holds = { _, _ in false }
        h.release()
        #expect(h.sent() == [], "B's older name is not sent back")
        // Laid over that read only: the next one finds what the application shows then.
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Save a copy" }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Save a copy"}"#, announce: true)])
    }
}
