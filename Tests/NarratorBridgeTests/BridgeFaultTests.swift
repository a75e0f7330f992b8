import Testing
@testable import NarratorCore

/// What the desktop does to the bridge: an application that stops answering, narratord going
/// away and coming back, the accessibility bus restarting. Nobody else waits, and the bridge
/// says once what it gave up and recovers by itself.
@Suite struct BridgeFaultTests {
    static let fixture = BridgeStartTests.fixture
    static let dialog = BridgeStartTests.dialog
    static let tree = BridgeStartTests.tree
    static func path(_ number: Int) -> String { BridgeStartTests.path(number) }

    @Test("a hung application is given up after the question's bound, said once, tried every 5 s, and read again when it answers; another application is served meanwhile")
    func aHungApplicationHoldsUpNoOne() {
        var h = BridgeHarness(Self.fixture, Self.dialog)
        h.start()
        _ = h.sent()
        h.hung = [":1.9"]
        h.desktop[":1.9"]?.windows[0].children[0].children[0].name = "Saved"
        h.event("object:children-changed:add", ":1.9", Self.path(2))
        h.advance(by: .milliseconds(25))
        #expect(h.bridge.isReading(":1.9"))
        // The dialog's focus is said at once, while the fixture's read waits.
        h.focus(":1.7", "/org/a11y/atspi/accessible/9")
        #expect(h.sent() == [.focus(tree: "zenity: Question", element: "9")])
        // Its bound passes: given up, said once.
        h.advance(by: .seconds(2))
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) did not answer within 2000 ms; its windows stay as last read, and it is tried again every 5 s"])
        #expect(h.sent() == [], "the fixture's tree stays as last read")
        // Tried again, still hung: not said again.
        h.advance(by: .seconds(5))
        h.advance(by: .seconds(2))
        #expect(h.said() == [])
        // It answers again: read, its change arrives, and that is said.
        h.resume(":1.9")
        h.advance(by: .seconds(5))
        let sent = h.sent()
        #expect(sent.contains { if case .update(Self.tree, _, _, _) = $0 { true } else { false } }, "\(sent)")
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) answers again"])
    }

    @Test("narratord going away is said once; the bridge tries every second, and once back says hello and registers every window again")
    func narratordRestarts() {
        var h = BridgeHarness(Self.fixture, Self.dialog)
        h.start()
        _ = h.sent()
        h.daemonListening = false
        h.feed(.daemonClosed)
        #expect(h.said() == ["narrator-atspi: narratord closed the connection; trying \(BridgeHarness.socket) again every second"])
        // While it is away, nothing is sent: what changes is kept in the mirror.
        h.focus(":1.9", Self.path(3))
        #expect(h.sent() == [])
        h.advance(by: .seconds(3))
        #expect(h.connects == 3)
        #expect(h.said() == [], "each failed attempt is quiet")
        h.daemonListening = true
        h.advance(by: .seconds(1))
        let sent = h.sent()
        #expect(sent.first == .hello(client: "narrator-atspi"))
        #expect(sent.dropFirst().compactMap(\.registeredTree) == [Self.tree, "zenity: Question"])
        #expect(h.said() == ["narrator-atspi: narratord is back at \(BridgeHarness.socket); registering 2 window(s) again"])
        #expect(h.connects == 4)
    }

    @Test("the accessibility bus going away takes every tree; once a new bus answers, the bridge starts again")
    func theBusRestarts() {
        var h = BridgeHarness(Self.fixture, Self.dialog)
        h.start()
        _ = h.sent()
        h.newBusAnswers = false
        h.feed(.busClosed)
        #expect(h.sent() == [.unregister(tree: "zenity: Question"), .unregister(tree: Self.tree)])
        #expect(h.bridge.applicationNames == [])
        h.advance(by: .seconds(2))
        #expect(h.restarts == 0)
        h.newBusAnswers = true
        h.advance(by: .seconds(1))
        #expect(h.restarts == 1)
        #expect(h.said().last == "narrator-atspi: a new accessibility bus answers; starting again on it")
    }

    @Test("narratord's activate is the element's default action in the application, by its index")
    func activateIsCarriedBack() throws {
        var h = BridgeHarness(Self.fixture)
        h.start()
        h.feed(.daemonLine(#"{"event":"action","tree":"\#(Self.tree)","element":"3","action":"activate"}"#))
        let call = try #require(h.calls.last)
        #expect(call.application == ":1.9")
        #expect(call.call == DBusCall(path: Self.path(3), interface: "org.a11y.atspi.Action", method: "DoAction", arguments: [.int32(0)]))
        // The application refusing is said; so is a call that fails.
        h.actionAnswer = .success(.structure([.bool(false)]))
        h.feed(.daemonLine(#"{"event":"action","tree":"\#(Self.tree)","element":"3","action":"activate"}"#))
        #expect(h.said() == ["narrator-atspi: :1.9 refused to perform click on \(Self.path(3))"])
    }
}

extension BridgeFaultTests {
    @Test("an action the application does not answer in time is said, and the application read to find out whether it hangs")
    func anUnansweredActionHasTheApplicationRead() {
        var h = BridgeHarness(Self.fixture)
        h.start()
        _ = h.sent()
        h.hung = [":1.9"]
        h.feed(.daemonLine(#"{"event":"action","tree":"\#(Self.tree)","element":"3","action":"activate"}"#))
        #expect(!h.bridge.isReading(":1.9"))
        h.advance(by: .seconds(2))
        #expect(h.said() == ["narrator-atspi: could not perform click on \(Self.path(3)) in :1.9: no reply in time"])
        #expect(h.bridge.isReading(":1.9"))
        h.advance(by: .seconds(2))
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) did not answer within 2000 ms; its windows stay as last read, and it is tried again every 5 s"])
        h.resume(":1.9")
        h.advance(by: .seconds(5))
        #expect(h.said() == ["narrator-atspi: fixture (:1.9) answers again"])
        #expect(h.sent() == [], "nothing changed in it meanwhile")
    }
}
