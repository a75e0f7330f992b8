@testable import NarratorBridge
import Testing
@testable import NarratorDBus

/// The faults the real desktop found in the bridge's routing (``BusRoutes``), on a virtual clock
/// with exact effects: an application that quits with calls out on its socket, a socket that dies
/// while calls are written to it, one that refuses or is missing, an application leaving the bus,
/// and the bus itself going.
@Suite struct BusRoutesFaultTests {
    typealias H = BusRoutesHarness
    let c1 = BusConnection(1)
    let registry = ATSPIBridge.registry

    /// Two calls held while the socket is asked for: its address is answered.
    func opening() -> H {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        _ = h.call(2)
        _ = h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus))
        return h
    }

    @Test("an application that quits with calls out on its socket: they go again over the bus in the order sent, nothing is reported, and later calls follow them there")
    func anApplicationQuitsWithCallsOut() {
        var h = H()
        h.direct()
        #expect(h.call(2) == [.send(H.outgoing(2), on: c1)])
        #expect(h.call(3) == [.send(H.outgoing(3), on: c1)])
        _ = h.feed(.sent(H.outgoing(3), on: c1, serial: 3))
        _ = h.feed(.sent(H.outgoing(2), on: c1, serial: 2))
        #expect(h.feed(.received(H.reply(to: 1), on: c1)) == [.deliver(BusCallID(1), H.zenity)])
        let reason = "the application's socket closed the connection"
        #expect(h.feed(.closed(c1, reason: reason, byPeer: true)) == [.send(H.outgoing(2), on: .bus), .send(H.outgoing(3), on: .bus)])
        #expect(h.routes.directEndings == [reason])
        #expect(h.routes.directAddress(of: H.application) == nil)
        #expect(h.call(4) == [.send(H.outgoing(4), on: .bus)])
        _ = h.feed(.sent(H.outgoing(2), on: .bus, serial: 5))
        #expect(h.feed(.received(H.error(to: 5, H.serviceUnknown, "The name :1.7 was not provided"), on: .bus)) == [.deliver(BusCallID(2), .failure(.gone))])
        #expect(h.feed(.received(H.reply(to: 3), on: c1)) == [], "nothing more is read from a closed socket's calls")
    }

    @Test("a socket that dies while its held calls are written (a write of much at once finding the application dead): the call out, the one written as it closed and the one that found it closed go over the bus in their order, and the fault is said")
    func aSocketDiesMidSend() {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        _ = h.call(2)
        _ = h.call(3)
        _ = h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus))
        #expect(h.feed(.opened(c1)) == [.send(H.outgoing(1), on: c1), .send(H.outgoing(2), on: c1), .send(H.outgoing(3), on: c1)])
        // What the shell feeds back, in the order it happened: the socket closed within the second send.
        let reason = "writing to the application's socket failed: Broken pipe"
        #expect(h.feed(.sent(H.outgoing(1), on: c1, serial: 1)) == [])
        #expect(
            h.feed(.closed(c1, reason: reason, byPeer: false))
                == [.notice("narrator-atspi: \(reason); :1.7 is asked over the accessibility bus instead"), .send(H.outgoing(1), on: .bus)])
        #expect(h.feed(.sent(H.outgoing(2), on: c1, serial: 2)) == [.send(H.outgoing(2), on: .bus)])
        #expect(h.feed(.notSent(H.outgoing(3), on: c1, reason: reason)) == [.send(H.outgoing(3), on: .bus)])
        #expect(h.feed(.received(H.reply(to: 1), on: c1)) == [])
        _ = h.feed(.sent(H.outgoing(1), on: .bus, serial: 3))
        #expect(h.feed(.received(H.error(to: 3, H.serviceUnknown), on: .bus)) == [.deliver(BusCallID(1), .failure(.gone))])
    }

    @Test("a socket that refuses the authentication (or closes before it is done): held calls over the bus, the refusal said once")
    func aSocketRefuses() {
        var h = opening()
        let reason = "the application's socket refused the authentication as uid 1000"
        #expect(
            h.feed(.closed(c1, reason: reason, byPeer: false))
                == [
                    .send(H.outgoing(1), on: .bus), .send(H.outgoing(2), on: .bus),
                    .notice("narrator-atspi: \(reason); :1.7 is asked over the accessibility bus instead"),
                ])
        #expect(h.routes.directEndings == [reason])
        #expect(h.feed(.openingBoundReached(c1)) == [], "a socket that already ended is not closed again")
    }

    @Test("an application that closes its socket before it opens is a fault, not a quit: said")
    func aSocketClosedBeforeItOpens() {
        var h = opening()
        let reason = "the application's socket closed the connection"
        #expect(
            h.feed(.closed(c1, reason: reason, byPeer: true))
                == [
                    .send(H.outgoing(1), on: .bus), .send(H.outgoing(2), on: .bus),
                    .notice("narrator-atspi: \(reason); :1.7 is asked over the accessibility bus instead"),
                ])
    }

    @Test("a socket that cannot be connected to (missing): held calls over the bus, said with the application's name")
    func aMissingSocket() {
        var h = opening()
        let reason = "cannot connect to \(H.address): No such file or directory"
        #expect(
            h.feed(.openFailed(c1, reason: reason))
                == [
                    .send(H.outgoing(1), on: .bus), .send(H.outgoing(2), on: .bus),
                    .notice("narrator-atspi: cannot connect to :1.7's own socket: \(reason); :1.7 is asked over the accessibility bus instead"),
                ])
        #expect(h.routes.directEndings == ["cannot connect to :1.7's own socket: \(reason)"])
    }

    @Test("an application that leaves the bus: its socket is closed quietly, its calls out there go over the bus, its route is pruned, and a later call asks afresh")
    func anApplicationLeavesTheBus() {
        var h = H()
        h.direct()
        _ = h.call(2)
        _ = h.feed(.sent(H.outgoing(2), on: c1, serial: 2))
        #expect(
            h.feed(.received(H.departure(of: H.application), on: .bus))
                == [.close(c1, reason: ":1.7 left the bus"), .send(H.outgoing(1), on: .bus), .send(H.outgoing(2), on: .bus)])
        #expect(h.routes.routedApplications == [])
        #expect(h.routes.directEndings == [":1.7 left the bus: its own socket is closed"])
        #expect(h.feed(.closed(c1, reason: "closed", byPeer: true)) == [], "its socket's end was asked for")
        h.advance(by: .milliseconds(100))
        #expect(h.call(3) == [.send(H.question(madeAt: h.now), on: .bus)])
        _ = h.feed(.sent(H.question(madeAt: h.now), on: .bus, serial: 4))
        #expect(
            h.feed(.received(H.error(to: 4, H.serviceUnknown), on: .bus)) == [.send(H.outgoing(3, madeAt: h.now), on: .bus)],
            "gone: its call is answered by the bus")
        #expect(h.routes.routedApplications == [], "a name gone before it was asked leaves no route")
    }

    @Test("an application that leaves while it is asked for its socket: its held calls go over the bus, and the question's late answer changes nothing")
    func anApplicationLeavesWhileAsked() {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        _ = h.call(2)
        #expect(h.feed(.received(H.departure(of: H.application), on: .bus)) == [.send(H.outgoing(1), on: .bus), .send(H.outgoing(2), on: .bus)])
        #expect(h.routes.routedApplications == [])
        #expect(h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus)) == [])
        #expect(h.routes.routedApplications == [])
    }

    @Test("an application that leaves while its socket opens: the socket is closed, its held calls go over the bus")
    func anApplicationLeavesWhileItsSocketOpens() {
        var h = opening()
        #expect(
            h.feed(.received(H.departure(of: H.application), on: .bus))
                == [.close(c1, reason: ":1.7 left the bus"), .send(H.outgoing(1), on: .bus), .send(H.outgoing(2), on: .bus)])
        #expect(h.feed(.opened(c1)) == [])
        #expect(h.feed(.openingBoundReached(c1)) == [])
    }

    @Test("only the bus's own NameOwnerChanged ends a route: another name leaving, or the signal on an application's socket, changes nothing")
    func otherDeparturesChangeNothing() {
        var h = H()
        h.direct()
        #expect(h.feed(.received(H.departure(of: ":1.8"), on: .bus)) == [])
        #expect(h.feed(.received(H.departure(of: H.application), on: c1)) == [])
        var forged = H.departure(of: H.application)
        forged.sender = ":1.8"
        #expect(h.feed(.received(forged, on: .bus)) == [])
        #expect(h.routes.directAddress(of: H.application) == H.address)
    }

    @Test("the bus goes: every call out on any connection and every held call fails with why, in order, and the shell is told; calls after fail at once")
    func theBusGoes() {
        var h = H()
        h.direct()
        _ = h.call(2, to: registry)
        _ = h.feed(.sent(H.outgoing(2, to: registry), on: .bus, serial: 3))
        #expect(h.call(3, to: ":1.8") == [.send(H.question(to: ":1.8"), on: .bus)])
        _ = h.feed(.sent(H.question(to: ":1.8"), on: .bus, serial: 4))
        let reason = "the accessibility bus closed the connection"
        let failed: Result<DBusValue, DBusFailure> = .failure(.error(name: "", message: reason))
        #expect(
            h.feed(.closed(.bus, reason: reason, byPeer: true))
                == [
                    .deliver(BusCallID(2), failed),
                    .deliver(BusCallID(3), .failure(.error(name: "", message: "cannot send: \(reason)"))),
                    .deliver(BusCallID(1), failed),
                    .busLost,
                ])
        #expect(h.call(4, to: registry) == [.deliver(BusCallID(4), .failure(.error(name: "", message: "cannot send: \(reason)")))])
    }

    @Test("the bus closes while a call is written to it: the call fails with why, after the others")
    func theBusClosesMidSend() {
        var h = H()
        #expect(h.call(1, to: registry) == [.send(H.outgoing(1, to: registry), on: .bus)])
        let reason = "writing to the accessibility bus failed: Broken pipe"
        #expect(h.feed(.closed(.bus, reason: reason, byPeer: false)) == [.busLost])
        #expect(h.feed(.sent(H.outgoing(1, to: registry), on: .bus, serial: 2)) == [.deliver(BusCallID(1), .failure(.error(name: "", message: reason)))])
        #expect(
            h.feed(.notSent(H.outgoing(2, to: registry), on: .bus, reason: reason))
                == [.deliver(BusCallID(2), .failure(.error(name: "", message: "cannot send: \(reason)")))])
    }

    @Test("why sockets ended is kept for the last eight applications, oldest first")
    func theLastEightEndings() {
        var h = H()
        for number in 10..<20 {
            let application = ":1.\(number)"
            _ = h.call(UInt64(number), to: application)
            _ = h.feed(.sent(H.question(to: application), on: .bus, serial: UInt32(number)))
            #expect(
                h.feed(.received(H.reply(to: UInt32(number), .structure([.string(H.address)])), on: .bus)).first
                    == .open(BusConnection(number - 9), address: H.address))
            _ = h.feed(.openFailed(BusConnection(number - 9), reason: "refused"))
        }
        #expect(h.routes.directEndings == (12..<20).map { "cannot connect to :1.\($0)'s own socket: refused" })
    }
}
