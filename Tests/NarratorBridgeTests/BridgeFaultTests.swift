@testable import NarratorBridge
@testable import NarratorModel
import Testing

/// What the desktop does to the bridge: an application that stops answering or leaves in the
/// middle of a read, narratord going away and coming back, the accessibility bus restarting.
/// Nobody else waits, and the bridge says once what it gave up and recovers by itself.
@Suite struct BridgeFaultTests {
    typealias F = BridgeFixtures
    static let gaveUp = "narrator-atspi: fixture (:1.9) did not answer within 2000 ms; its windows stay as last read, and it is tried again every 5 s"

    @Test("a hung application is given up after the question's bound and said once; another application is served meanwhile; it is read again when it answers")
    func aHungApplicationHoldsUpNoOne() throws {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.hung = [":1.9"]
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Saved" }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.bridge.isReading(":1.9"))
        // The dialog's focus is said at once, while the fixture's read waits.
        h.focus(":1.7", F.path(9))
        #expect(h.sent() == [.focus(tree: F.question, element: "9")])
        // Its bound passes: given up, said once; its tree stays as last read.
        h.advance(by: .milliseconds(1_999))
        #expect(h.said() == [])
        h.advance(by: .milliseconds(1))
        #expect(h.said() == [Self.gaveUp])
        #expect(h.sent() == [])
        #expect(!h.bridge.isReading(":1.9"))
        // Its last read still serves its focus.
        h.focus(":1.9", F.path(4))
        #expect(h.sent() == [.focus(tree: F.tree, element: "4")])
        // It answers again: the next try reads it, its change arrives, and that is said.
        h.resume(":1.9")
        h.advance(by: .seconds(5))
        #expect(h.sent() == [.set(F.tree, "3", #"{"label":"Saved"}"#, announce: true)])
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) answers again"])
        _ = h.reads()
        h.advance(by: .seconds(10))
        #expect(h.reads().isEmpty, "no more tries once it answers")
    }

    @Test("a hung application is tried again every 5 s, quietly, until it answers")
    func aHungApplicationIsTriedEveryFiveSeconds() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.hung = [":1.9"]
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        h.advance(by: .seconds(2))
        #expect(h.said() == [Self.gaveUp])
        _ = h.reads()
        for _ in 0..<3 {
            h.advance(by: .milliseconds(4_999))
            #expect(h.reads().isEmpty)
            h.advance(by: .milliseconds(1))
            #expect(h.reads().count == 1, "tried again")
            h.advance(by: .seconds(2))
            #expect(h.said() == [], "not said again")
        }
        #expect(h.sent() == [])
    }

    @Test("a field read alone that is not answered falls back to a whole read, given up as usual")
    func anObjectReadThatTimesOut() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        h.hung = [":1.9"]
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        #expect(h.reads().count == 1)
        h.advance(by: .seconds(2))
        let reads = h.reads()
        #expect(reads.count == 1 && reads[0].requests.first == .items, "the whole application is read")
        #expect(h.said() == [])
        h.advance(by: .seconds(2))
        #expect(h.said() == [Self.gaveUp])
    }

    @Test("an application that leaves the bus in the middle of its read is forgotten, its trees with it")
    func anApplicationGoneMidReadIsForgotten() {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.holds = { application, _ in application == ":1.9" }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        h.desktop[":1.9"] = nil
        h.release()
        #expect(h.sent() == [.unregister(tree: F.tree)])
        #expect(h.bridge.applicationNames == [":1.7"])
        #expect(!h.bridge.isReading(":1.9"))
        #expect(h.said() == [])
    }

    @Test("answers that arrive for the read of an application forgotten meanwhile change nothing")
    func answersForAForgottenApplication() throws {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.holds = { application, _ in application == ":1.9" }
        h.event("object:children-changed:add", ":1.9", F.path(2))
        h.advance(by: .milliseconds(25))
        let late = h.held
        #expect(!late.isEmpty)
        // The registry no longer lists it: forgotten.
        h.desktop[":1.9"] = nil
        h.event("object:children-changed:remove", ATSPIBridge.registry, ATSPIApplicationRead.root)
        #expect(h.sent() == [.unregister(tree: F.tree)])
        _ = h.reads()
        // Its answers come after all.
        for question in late {
            guard case .read(_, let request) = question.question else { continue }
            h.feed(.answered(question.question, F.fixture.answer(request)))
        }
        #expect(h.sent() == [])
        #expect(h.asked.isEmpty, "nothing more is asked of it")
        #expect(h.bridge.applicationNames == [":1.7"])
        #expect(h.said() == [])
    }

    @Test("the registry not listing the desktop is said in the journal")
    func theRegistryNotAnswering() {
        var h = BridgeHarness(F.fixture)
        h.hung = [ATSPIBridge.registry]
        h.start()
        h.advance(by: .seconds(2))
        #expect(h.said() == ["narrator-atspi: the registry did not list the desktop's applications: no reply in time"])
        #expect(h.sent() == [.hello(client: "narrator-atspi"), .subscribe])
    }

    @Test("narratord going away is said once; nothing is sent while it is away; the bridge tries every second, quietly, and once back says hello and registers every window again")
    func narratordRestarts() throws {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.daemonListening = false
        h.feed(.daemonClosed)
        #expect(h.said() == ["narrator-atspi: narratord closed the connection; trying \(BridgeHarness.socket) again every second"])
        // While it is away, nothing is sent: what changes is kept in the mirror.
        h.focus(":1.9", F.path(3))
        h.desktop[":1.9"]?.change(F.path(3)) { $0.name = "Saved" }
        h.event("object:property-change:accessible-name", ":1.9", F.path(3))
        #expect(h.sent() == [])
        h.advance(by: .seconds(3))
        #expect(h.connects == 3)
        #expect(h.said() == [], "each failed attempt is quiet")
        h.daemonListening = true
        h.advance(by: .seconds(1))
        var saved = ATSPIMappingTests.window
        saved.change(F.path(3)) { $0.name = "Saved" }
        #expect(h.sent() == [
            .hello(client: "narrator-atspi"),
            .subscribe,
            .register(saved, application: "fixture"),
            .register(ATSPIMirrorTests.question(), application: "zenity"),
            // Narrator's focus goes where the application's moved meanwhile.
            .focus(tree: F.tree, element: "3"),
        ])
        #expect(h.said() == ["narrator-atspi: narratord is back at \(BridgeHarness.socket); registering 2 window(s) again"])
        #expect(h.connects == 4)
        h.advance(by: .seconds(5))
        #expect(h.connects == 4, "no more tries once connected")
    }

    @Test("a reply to a request of the connection narratord closed answers no request of the new one")
    func aReplyFromTheOldConnection() {
        var h = BridgeHarness(F.fixture)
        h.startMirrored()
        let old = h.requestIDs.last!
        h.feed(.daemonClosed)
        h.advance(by: .seconds(1))
        _ = h.said()
        h.feed(.daemonLine(#"{"id":\#(old),"ok":true,"tree":"\#(F.tree)"}"#))
        #expect(h.said() == [#"narrator-atspi: narratord sent a reply to no request of the bridge: {"id":\#(old),"ok":true,"tree":"\#(F.tree)"}"#])
    }

    @Test("the accessibility bus going away takes every tree; a new bus is looked for every second, quietly, and once one answers the bridge starts again")
    func theBusRestarts() {
        var h = BridgeHarness(F.fixture, F.dialog)
        h.startMirrored()
        h.newBusAnswers = false
        h.feed(.busClosed)
        #expect(h.sent() == [.unregister(tree: F.question), .unregister(tree: F.tree)])
        #expect(h.said() == ["narrator-atspi: the accessibility bus went away; its applications' trees go, and the bridge starts again once a new bus answers"])
        #expect(h.bridge.applicationNames == [])
        h.advance(by: .seconds(2))
        #expect(h.restarts == 0)
        #expect(h.said() == [])
        h.newBusAnswers = true
        h.advance(by: .seconds(1))
        #expect(h.restarts == 1)
        #expect(h.said() == ["narrator-atspi: a new accessibility bus answers; starting again on it"])
        h.advance(by: .seconds(3))
        #expect(h.restarts == 1)
    }
}

extension BridgeFaultTests {
    @Test("an action the application does not answer in time is said, and the application read to find out whether it hangs")
    func anUnansweredActionHasTheApplicationRead() {
        var h = BridgeHarness(F.fixture)
        h.start()
        _ = h.sent()
        h.hung = [":1.9"]
        h.feed(.daemonLine(#"{"event":"action","tree":"\#(F.tree)","element":"3","action":"activate"}"#))
        #expect(!h.bridge.isReading(":1.9"))
        h.advance(by: .seconds(2))
        #expect(h.said() == ["narrator-atspi: could not perform click on \(F.path(3)) in :1.9: no reply in time"])
        #expect(h.bridge.isReading(":1.9"))
        h.advance(by: .seconds(2))
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) did not answer within 2000 ms; its windows stay as last read, and it is tried again every 5 s"])
        h.resume(":1.9")
        h.advance(by: .seconds(5))
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) answers again"])
        #expect(h.sent() == [], "nothing changed in it meanwhile")
    }
}
