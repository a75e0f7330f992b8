import NarratorModel
import NarratorBase
import NarratorDBus

/// How the AT-SPI bridge reaches each application, as a value in the style of
/// ``EngineSupervisor``: it decides which connection each call goes on, which calls wait and
/// until when, and what becomes of them when a connection opens, fails, closes or an application
/// leaves; the shell (`ATSPIBus`) writes, reads, connects and arms timers as the effects say.
///
/// An application that has its own server (at-spi2-atk's: GTK 3, Firefox, LibreOffice, answering
/// `GetApplicationBusAddress`) is spoken to there, as libatspi does: its replies skip
/// dbus-daemon. Applications without one (GTK 4, Qt) are spoken to over the bus. An
/// application's calls are held (a round trip, at its start) until it is known which: replies on
/// two connections could come in another order than the application answered them, and a read
/// begun later would seem to see an older state. Its own socket must open within a quarter of the
/// bound (``Configuration/openingBound``), so that held calls sent over the bus after all are
/// still answered within theirs. Calls out on a socket that closes, or that closes while they are
/// written, go again over the bus, in the order they were sent; the bus answers for an
/// application that quit.
///
/// A route ends with its application's unique name, which is never reused: when the bus says the
/// name left (`NameOwnerChanged`) its route and own socket go, so a bridge that runs for weeks
/// keeps a route per application on the bus, not per application seen.
///
/// Driven by typed inputs only (``BusRoutesInput``), each with its instant on the monotonic
/// clock; it acts only by returning effects (``BusRoutesEffect``). No sockets, timers or clocks:
/// every ordering the real desktop showed runs in a test on a virtual clock.
public struct BusRoutes: Sendable {
    /// The bounds the routes keep.
    public struct Configuration: Sendable, Hashable {
        /// How long a call may wait for its reply unless its caller says otherwise: an
        /// application that takes longer is hung.
        public var bound: Duration
        /// How many calls given up at their deadline are remembered (for ``BusRoutesEffect/refusedLate(application:reason:)``).
        public var expiredKept = 4_096
        /// How many reasons for ended own sockets ``BusRoutes/directEndings`` keeps.
        public var endingsKept = 8

        public init(bound: Duration) {
            self.bound = bound
        }

        /// How long an application's own socket may take to open: a quarter of the bound, in
        /// whole milliseconds, so that its held calls sent over the bus instead are still answered within theirs.
        public var openingBound: Duration { .milliseconds(Self.milliseconds(bound) / 4) }

        static func milliseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        }
    }

    /// How an application is reached.
    enum Route: Sendable, Hashable {
        /// Not yet: it is asked for its own server's address (its calls are held).
        case asking
        /// Not yet: its own connection authenticates (its calls are held).
        case opening(BusConnection, address: String)
        /// Over its own connection.
        case direct(BusConnection, address: String)
        /// Over the bus for good: it has no server of its own, or its connection ended.
        case bus
    }

    /// A call out by the connection it went on and its serial there.
    struct CallKey: Hashable, Comparable, Sendable {
        var connection: BusConnection
        var serial: UInt32
        static func < (a: CallKey, b: CallKey) -> Bool { (a.connection.number, a.serial) < (b.connection.number, b.serial) }
    }

    public let configuration: Configuration
    /// Each application's route, by unique bus name.
    var routes: [String: Route] = [:]
    /// Applications' own connections (opening or open) and whose they are.
    var peers: [BusConnection: String] = [:]
    var nextConnection = 1
    /// Calls sent and not yet answered.
    var pending: [CallKey: BusOutgoing] = [:]
    /// Calls to an application whose route is not known yet, in the order they were made.
    var held: [String: [BusOutgoing]] = [:]
    /// Calls given up at their deadline, with their destination, the latest ``Configuration/expiredKept``.
    var expired: [CallKey: String] = [:]
    var expiredOrder: [CallKey] = []
    /// Why the bus went, once it has.
    var busClosed: String?
    /// The deadline the shell's timer is armed for, if it is.
    var armed: MonotonicInstant?
    /// Why applications' own connections ended (refused, silent, or the application quit), newest last.
    public internal(set) var directEndings: [String] = []
    var now = MonotonicInstant(nanoseconds: 0)
    var effects: [BusRoutesEffect] = []

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Applies `input`, which happened at `now`, and returns what the shell must do, in order.
    public mutating func handle(_ input: BusRoutesInput, at now: MonotonicInstant) -> [BusRoutesEffect] {
        self.now = now
        switch input {
        case .watchDepartures:
            let watch = DBusCall(
                path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "AddMatch", arguments: [.string(DBusIncoming.departuresRule)])
            dispatch(BusOutgoing(ticket: .departureWatch, call: watch, destination: "org.freedesktop.DBus", deadline: now + configuration.bound), on: .bus)
        case .call(let id, let call, let application, let timeout):
            let outgoing = BusOutgoing(ticket: .caller(id), call: call, destination: application, deadline: now + (timeout ?? configuration.bound))
            if let connection = connection(for: application) {
                dispatch(outgoing, on: connection)
            } else {
                held[application, default: []].append(outgoing)
                arm(outgoing.deadline)
            }
        case .sent(let outgoing, let connection, let serial):
            sent(outgoing, on: connection, serial: serial)
        case .notSent(let outgoing, let connection, let reason):
            if connection == .bus {
                complete(outgoing, .failure(.error(name: "", message: "cannot send: \(reason ?? busClosed ?? "the accessibility bus is closed")")))
            } else {
                dispatch(outgoing, on: .bus)
            }
        case .received(let message, let connection):
            received(message, on: connection)
        case .opened(let connection):
            opened(connection)
        case .openFailed(let connection, let reason):
            guard let application = peers.removeValue(forKey: connection) else { break }
            failed(application, "cannot connect to \(application)'s own socket: \(reason)")
        case .closed(let connection, let reason, let byPeer):
            if connection == .bus { lost(reason) } else { peerClosed(connection, because: reason, byPeer: byPeer) }
        case .deadlineReached(let instant):
            expire(armedFor: instant)
        case .openingBoundReached(let connection):
            openingBoundReached(connection)
        }
        defer { effects = [] }
        return effects
    }

    /// The applications a route is kept for (each on the bus, or leaving it now).
    public var routedApplications: [String] { routes.keys.sorted() }

    /// The address of `application`'s own server once calls go there, or nil while they go over the bus.
    public func directAddress(of application: String) -> String? {
        if case .direct(_, let address)? = routes[application] { return address }
        return nil
    }

    /// The connection an application's calls go on, or nil while that is not known. The first
    /// call to an application with a unique name asks it for its own server's address (the
    /// registry, a well-known name, is always asked over the bus).
    mutating func connection(for application: String) -> BusConnection? {
        if routes[application] == nil {
            guard application.hasPrefix(":") else { return .bus }
            routes[application] = .asking
            let question = DBusCall(path: ATSPIApplicationRead.root, interface: "org.a11y.atspi.Application", method: "GetApplicationBusAddress", arguments: [])
            dispatch(BusOutgoing(ticket: .routeQuestion(application: application), call: question, destination: application, deadline: now + configuration.bound), on: .bus)
        }
        switch routes[application] {
        case .direct(let connection, _)?: return connection
        case .bus?, nil: return .bus
        case .asking?, .opening?: return nil
        }
    }

    /// `application`'s route is known: its held calls go, in order, with their own deadlines.
    mutating func settle(_ application: String, _ route: Route) {
        routes[application] = route
        let connection: BusConnection
        switch route {
        case .direct(let number, _): connection = number
        case .bus: connection = .bus
        case .asking, .opening: return
        }
        for call in held.removeValue(forKey: application) ?? [] {
            dispatch(call, on: connection)
        }
    }

    /// Asks the shell to send `outgoing` on `connection`, or fails it at once when the bus is gone.
    mutating func dispatch(_ outgoing: BusOutgoing, on connection: BusConnection) {
        if connection == .bus, let reason = busClosed {
            complete(outgoing, .failure(.error(name: "", message: "cannot send: \(reason)")))
            return
        }
        effects.append(.send(outgoing, on: connection))
    }

    /// A call was queued: it waits for its reply, unless its connection went while it was
    /// written (after the calls sent before it, which went on already: it follows them).
    mutating func sent(_ outgoing: BusOutgoing, on connection: BusConnection, serial: UInt32) {
        if connection == .bus, let reason = busClosed {
            complete(outgoing, .failure(.error(name: "", message: reason)))
            return
        }
        if connection != .bus, peers[connection] == nil {
            dispatch(outgoing, on: .bus)
            return
        }
        pending[CallKey(connection: connection, serial: serial)] = outgoing
        arm(outgoing.deadline)
    }

    /// A reply goes to its call; the bus's `NameOwnerChanged` ends a route; anything else is not for us.
    mutating func received(_ message: DBusIncoming, on connection: BusConnection) {
        if connection == .bus, let name = message.departedName {
            departed(name)
            return
        }
        guard message.kind == .methodReturn || message.kind == .error, let serial = message.replySerial else { return }
        let key = CallKey(connection: connection, serial: serial)
        guard let call = pending.removeValue(forKey: key) else {
            if let application = expired.removeValue(forKey: key), message.errorName == DBusIncoming.tooLarge {
                effects.append(.refusedLate(application: application, reason: message.errorMessage))
            }
            return
        }
        complete(call, DBusFailure.answer(of: message))
    }

    /// A call's answer goes to whoever waits for it.
    mutating func complete(_ outgoing: BusOutgoing, _ answer: Result<DBusValue, DBusFailure>) {
        switch outgoing.ticket {
        case .caller(let id):
            effects.append(.deliver(id, answer))
        case .routeQuestion(let application):
            answered(application, answer)
        case .departureWatch:
            if case .failure(let failure) = answer {
                effects.append(.notice("narrator-atspi: the accessibility bus would not say when applications leave (\(failure)); their routes are kept"))
            }
        }
    }

    /// The shell's one timer is armed for the earliest deadline of the calls waiting, unless it fires sooner.
    mutating func arm(_ deadline: MonotonicInstant) {
        if let armed, armed <= deadline { return }
        armed = deadline
        effects.append(.armDeadline(deadline))
    }

    /// Fails every call past its deadline with `.timedOut`, then arms the timer for the next.
    /// A timer armed before a sooner one fires, and is ignored.
    mutating func expire(armedFor deadline: MonotonicInstant) {
        guard armed == deadline else { return }
        armed = nil
        for (key, call) in pending.filter({ $0.value.deadline <= now }).sorted(by: { $0.key < $1.key }) {
            pending.removeValue(forKey: key)
            expired[key] = call.destination
            expiredOrder.append(key)
            complete(call, .failure(.timedOut))
        }
        if expiredOrder.count > configuration.expiredKept {
            for key in expiredOrder.prefix(expiredOrder.count - configuration.expiredKept) { expired.removeValue(forKey: key) }
            expiredOrder.removeFirst(expiredOrder.count - configuration.expiredKept)
        }
        for application in held.keys.sorted() {
            let calls = held[application] ?? []
            held[application] = calls.filter { $0.deadline > now }
            for call in calls where call.deadline <= now { complete(call, .failure(.timedOut)) }
        }
        held = held.filter { !$0.value.isEmpty }
        if let next = (pending.values.map(\.deadline) + held.values.flatMap { $0.map(\.deadline) }).min() { arm(next) }
    }

    /// The bus went: every call out and held fails with `reason`, and the shell is told.
    mutating func lost(_ reason: String) {
        busClosed = reason
        let failed = pending
        pending = [:]
        for (_, call) in failed.sorted(by: { $0.key < $1.key }) { complete(call, .failure(.error(name: "", message: reason))) }
        let waiting = held
        held = [:]
        for application in waiting.keys.sorted() {
            for call in waiting[application] ?? [] { complete(call, .failure(.error(name: "", message: reason))) }
        }
        effects.append(.busLost)
    }
}
