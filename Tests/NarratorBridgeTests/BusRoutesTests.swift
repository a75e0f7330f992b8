import NarratorBase
@testable import NarratorBridge
import NarratorModel
import Testing
@testable import NarratorDBus

/// How the bridge's calls find their application (``BusRoutes``) on a virtual clock, each
/// scenario with its exact effects: its own socket or the bus, calls held while that is settled,
/// the quarter of the bound a socket has to open, and the deadlines of calls out and held.
@Suite struct BusRoutesTests {
    typealias H = BusRoutesHarness
    let c1 = BusConnection(1)
    let registry = ATSPIBridge.registry

    @Test("the registry, a well-known name, is called over the bus at once and gets no route")
    func aWellKnownNameGoesOverTheBus() {
        var h = H()
        #expect(h.call(1, to: registry) == [.send(H.outgoing(1, to: registry), on: .bus)])
        #expect(h.feed(.sent(H.outgoing(1, to: registry), on: .bus, serial: 2)) == [.armDeadline(H.start + .seconds(2))])
        #expect(h.feed(.received(H.reply(to: 2), on: .bus)) == [.deliver(BusCallID(1), H.zenity)])
        #expect(h.routes.routedApplications == [])
    }

    @Test("the first call to an application asks it for its own socket and waits; a second call waits behind it, nothing of theirs is sent")
    func theFirstCallAsksAndIsHeld() {
        var h = H()
        #expect(h.call(1) == [.send(H.question(), on: .bus), .armDeadline(H.start + .seconds(2))])
        #expect(h.feed(.sent(H.question(), on: .bus, serial: 2)) == [])
        h.advance(by: .milliseconds(10))
        #expect(h.call(2) == [])
        #expect(h.routes.routedApplications == [H.application])
        #expect(h.routes.directAddress(of: H.application) == nil)
    }

    @Test("an application with no socket of its own (GTK 4, Qt: UnknownMethod) is called over the bus: its held calls go in order, later ones at once")
    func noOwnSocketMeansTheBus() {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        h.advance(by: .milliseconds(10))
        _ = h.call(2)
        let later = H.start + .milliseconds(10)
        #expect(
            h.feed(.received(H.error(to: 2, H.unknownMethod, "no such method"), on: .bus))
                == [.send(H.outgoing(1), on: .bus), .send(H.outgoing(2, madeAt: later), on: .bus)])
        #expect(h.call(3) == [.send(H.outgoing(3, madeAt: later), on: .bus)])
        #expect(h.routes.routedApplications == [H.application])
        #expect(h.routes.directAddress(of: H.application) == nil)
    }

    @Test("an empty address is no socket: the held call goes over the bus")
    func anEmptyAddressIsNoSocket() {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        #expect(h.feed(.received(H.reply(to: 2, .structure([.string("")])), on: .bus)) == [.send(H.outgoing(1), on: .bus)])
    }

    @Test("replies cannot overtake each other across two connections: calls made while its own socket authenticates are held, not sent over the bus, and go there in order once it is open")
    func callsWaitForTheSocketToOpen() {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        h.advance(by: .milliseconds(5))
        #expect(
            h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus))
                == [.open(c1, address: H.address), .armOpeningBound(c1, at: H.start + .milliseconds(505))])
        h.advance(by: .milliseconds(5))
        #expect(h.call(2) == [], "sent over the bus now, its reply could overtake or trail the socket's")
        #expect(h.routes.directAddress(of: H.application) == nil)
        h.advance(by: .milliseconds(5))
        let second = H.start + .milliseconds(10)
        #expect(h.feed(.opened(c1)) == [.send(H.outgoing(1), on: c1), .send(H.outgoing(2, madeAt: second), on: c1)])
        #expect(h.routes.directAddress(of: H.application) == H.address)
        #expect(h.call(3) == [.send(H.outgoing(3, madeAt: H.start + .milliseconds(15)), on: c1)])
    }

    @Test("a reply answers only the call sent under its serial on its own connection: the same serial on the bus is another call")
    func aReplyAnswersItsConnectionsCall() {
        var h = H()
        h.direct()
        #expect(h.call(2, to: registry) == [.send(H.outgoing(2, to: registry), on: .bus)])
        _ = h.feed(.sent(H.outgoing(2, to: registry), on: .bus, serial: 3))
        #expect(h.call(3) == [.send(H.outgoing(3), on: c1)])
        _ = h.feed(.sent(H.outgoing(3), on: c1, serial: 3))
        #expect(h.feed(.received(H.reply(to: 3), on: c1)) == [.deliver(BusCallID(3), H.zenity)])
        #expect(h.feed(.received(H.reply(to: 1), on: .bus)) == [], "serial 1 is out on the socket, not the bus")
        let listed = DBusValue.structure([.array([])])
        #expect(h.feed(.received(H.reply(to: 3, listed), on: .bus)) == [.deliver(BusCallID(2), .success(listed))])
        #expect(h.feed(.received(H.reply(to: 3), on: c1)) == [], "answered once")
    }

    @Test("the quarter of the bound: a socket silent for 500 ms of a 2 s bound is closed and its held calls go over the bus, with their deadlines still ahead")
    func aSilentSocketIsGivenUpAtAQuarterOfTheBound() {
        var h = H()
        _ = h.call(1)
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        #expect(
            h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus))
                == [.open(c1, address: H.address), .armOpeningBound(c1, at: H.start + .milliseconds(500))])
        h.advance(by: .milliseconds(200))
        _ = h.call(2)
        h.advance(by: .milliseconds(300))
        let reason = ":1.7 did not answer on its own socket (\(H.address)) within 500 ms"
        let second = H.outgoing(2, madeAt: H.start + .milliseconds(200))
        #expect(
            h.feed(.openingBoundReached(c1))
                == [
                    .close(c1, reason: reason), .send(H.outgoing(1), on: .bus), .send(second, on: .bus),
                    .notice("narrator-atspi: \(reason); :1.7 is asked over the accessibility bus instead"),
                ])
        #expect(H.outgoing(1).deadline > h.now + .milliseconds(1_400), "a held call has most of its bound left to be answered over the bus")
        #expect(h.feed(.sent(H.outgoing(1), on: .bus, serial: 3)) == [])
        #expect(h.feed(.received(H.reply(to: 3), on: .bus)) == [.deliver(BusCallID(1), H.zenity)])
        #expect(h.routes.directEndings == [reason])
        #expect(h.feed(.opened(c1)) == [], "a socket given up stays given up")
        #expect(h.call(3) == [.send(H.outgoing(3, madeAt: h.now), on: .bus)])
    }

    @Test("the quarter of a 500 ms bound is 125 ms")
    func theQuarterOfAShortBound() {
        var h = H(bound: .milliseconds(500))
        #expect(h.call(1) == [.send(H.question(bound: .milliseconds(500)), on: .bus), .armDeadline(H.start + .milliseconds(500))])
        _ = h.feed(.sent(H.question(bound: .milliseconds(500)), on: .bus, serial: 2))
        #expect(
            h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus))
                == [.open(c1, address: H.address), .armOpeningBound(c1, at: H.start + .milliseconds(125))])
        h.advance(by: .milliseconds(125))
        let reason = ":1.7 did not answer on its own socket (\(H.address)) within 125 ms"
        #expect(
            h.feed(.openingBoundReached(c1))
                == [
                    .close(c1, reason: reason), .send(H.outgoing(1, timeout: .milliseconds(500)), on: .bus),
                    .notice("narrator-atspi: \(reason); :1.7 is asked over the accessibility bus instead"),
                ])
    }

    @Test("the opening bound of a socket that opened in time changes nothing")
    func theOpeningBoundAfterTheSocketOpened() {
        var h = H()
        h.direct()
        h.advance(by: .milliseconds(500))
        #expect(h.feed(.openingBoundReached(c1)) == [])
        #expect(h.routes.directAddress(of: H.application) == H.address)
    }

    @Test("held calls end .timedOut at their own deadline while the application does not say where its socket is; the rest stay held")
    func heldCallsExpire() {
        var h = H()
        #expect(h.call(1, timeout: .milliseconds(400)) == [.send(H.question(), on: .bus), .armDeadline(H.start + .milliseconds(400))])
        #expect(h.feed(.sent(H.question(), on: .bus, serial: 2)) == [])
        #expect(h.call(2) == [])
        h.advance(by: .milliseconds(399))
        #expect(
            h.feed(.deadlineReached(armedFor: H.start + .milliseconds(400))) == [.armDeadline(H.start + .milliseconds(400))],
            "a timer that fires early (milliseconds rounded) fails nothing and is armed again")
        h.advance(by: .milliseconds(1))
        #expect(
            h.feed(.deadlineReached(armedFor: H.start + .milliseconds(400)))
                == [.deliver(BusCallID(1), .failure(.timedOut)), .armDeadline(H.start + .seconds(2))])
        #expect(h.feed(.received(H.error(to: 2, H.unknownMethod), on: .bus)) == [.send(H.outgoing(2), on: .bus)], "the call still held goes once the route is known")
    }

    @Test("a hung application: its held call ends .timedOut at its deadline, then the question's, and the route is the bus")
    func aHungApplication() {
        var h = H()
        _ = h.call(1, timeout: .milliseconds(400))
        _ = h.feed(.sent(H.question(), on: .bus, serial: 2))
        _ = h.call(2)
        h.advance(by: .milliseconds(400))
        #expect(
            h.feed(.deadlineReached(armedFor: H.start + .milliseconds(400)))
                == [.deliver(BusCallID(1), .failure(.timedOut)), .armDeadline(H.start + .seconds(2))])
        h.advance(by: .milliseconds(1_600))
        // The question times out: the bus it is; the held call, due now, is sent and ends at once.
        #expect(h.feed(.deadlineReached(armedFor: H.start + .seconds(2))) == [.send(H.outgoing(2), on: .bus)])
        #expect(h.feed(.sent(H.outgoing(2), on: .bus, serial: 3)) == [.armDeadline(H.start + .seconds(2))])
        #expect(h.feed(.deadlineReached(armedFor: H.start + .seconds(2))) == [.deliver(BusCallID(2), .failure(.timedOut))])
        #expect(h.routes.routedApplications == [H.application])
        #expect(h.feed(.received(H.reply(to: 2, .structure([.string(H.address)])), on: .bus)) == [], "a late address opens nothing")
    }

    @Test("one timer for the earliest deadline: a sooner call re-arms it, each call ends at its own deadline, and a timer fired twice or late does nothing")
    func oneTimerForTheEarliestDeadline() {
        var h = H()
        _ = h.call(1, to: registry, timeout: .seconds(1))
        #expect(h.feed(.sent(H.outgoing(1, to: registry, timeout: .seconds(1)), on: .bus, serial: 2)) == [.armDeadline(H.start + .seconds(1))])
        _ = h.call(2, to: registry, timeout: .milliseconds(300))
        #expect(
            h.feed(.sent(H.outgoing(2, to: registry, timeout: .milliseconds(300)), on: .bus, serial: 3)) == [.armDeadline(H.start + .milliseconds(300))])
        _ = h.call(3, to: registry, timeout: .seconds(3))
        #expect(h.feed(.sent(H.outgoing(3, to: registry, timeout: .seconds(3)), on: .bus, serial: 4)) == [])
        h.advance(by: .milliseconds(300))
        #expect(
            h.feed(.deadlineReached(armedFor: H.start + .milliseconds(300)))
                == [.deliver(BusCallID(2), .failure(.timedOut)), .armDeadline(H.start + .seconds(1))])
        h.advance(by: .milliseconds(700))
        #expect(
            h.feed(.deadlineReached(armedFor: H.start + .seconds(1))) == [.deliver(BusCallID(1), .failure(.timedOut)), .armDeadline(H.start + .seconds(3))])
        #expect(h.feed(.deadlineReached(armedFor: H.start + .seconds(1))) == [], "the first timer armed for 1 s fires too")
        #expect(h.feed(.deadlineReached(armedFor: H.start + .milliseconds(300))) == [])
        #expect(h.feed(.received(H.reply(to: 4), on: .bus)) == [.deliver(BusCallID(3), H.zenity)])
    }

    @Test("a reply over the limit for a call given up at its deadline is told once (refusedLate); any other late reply is dropped")
    func aLateReplyOverTheLimit() {
        var h = H()
        _ = h.call(1, to: registry, timeout: .milliseconds(500))
        _ = h.feed(.sent(H.outgoing(1, to: registry, timeout: .milliseconds(500)), on: .bus, serial: 7))
        _ = h.call(2, to: registry, timeout: .milliseconds(500))
        _ = h.feed(.sent(H.outgoing(2, to: registry, timeout: .milliseconds(500)), on: .bus, serial: 8))
        h.advance(by: .milliseconds(500))
        #expect(
            h.feed(.deadlineReached(armedFor: H.start + .milliseconds(500)))
                == [.deliver(BusCallID(1), .failure(.timedOut)), .deliver(BusCallID(2), .failure(.timedOut))])
        let tooLarge = H.error(to: 7, DBusIncoming.tooLarge, "a reply of 56000000 bytes is over the limit")
        #expect(h.feed(.received(tooLarge, on: .bus)) == [.refusedLate(application: registry, reason: "a reply of 56000000 bytes is over the limit")])
        #expect(h.feed(.received(tooLarge, on: .bus)) == [])
        #expect(h.feed(.received(H.reply(to: 8), on: .bus)) == [])
    }

    @Test("the bus is asked to say when applications leave; a refusal is said once, and the routes go on")
    func theDepartureWatch() {
        var h = H()
        let watch = BusOutgoing(
            ticket: .departureWatch,
            call: DBusCall(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "AddMatch", arguments: [.string(DBusIncoming.departuresRule)]),
            destination: "org.freedesktop.DBus", deadline: H.start + .seconds(2))
        #expect(h.feed(.watchDepartures) == [.send(watch, on: .bus)])
        #expect(h.feed(.sent(watch, on: .bus, serial: 2)) == [.armDeadline(H.start + .seconds(2))])
        #expect(
            h.feed(.received(H.error(to: 2, "org.freedesktop.DBus.Error.AccessDenied", "no"), on: .bus))
                == [.notice("narrator-atspi: the accessibility bus would not say when applications leave (org.freedesktop.DBus.Error.AccessDenied: no); their routes are kept")])
        var accepted = H()
        _ = accepted.feed(.watchDepartures)
        _ = accepted.feed(.sent(watch, on: .bus, serial: 2))
        #expect(accepted.feed(.received(H.reply(to: 2, .structure([])), on: .bus)) == [])
    }

    @Test("an error reply on the socket is the caller's; the bus's names for an application gone are .gone")
    func errorReplies() {
        var h = H()
        h.direct()
        #expect(
            h.feed(.received(H.error(to: 1, H.unknownMethod, "no"), on: c1)) == [.deliver(BusCallID(1), .failure(.error(name: H.unknownMethod, message: "no")))])
        _ = h.call(2)
        _ = h.feed(.sent(H.outgoing(2), on: c1, serial: 2))
        #expect(h.feed(.received(H.error(to: 2, "org.freedesktop.DBus.Error.NoReply"), on: c1)) == [.deliver(BusCallID(2), .failure(.gone))])
    }
}
