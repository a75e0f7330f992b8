import CAtspi
import Glibc
import NarratorBase
import NarratorCore
import NarratorSystem

/// The bridge's own connection to the accessibility bus (``DBusSocket``): method calls sent
/// without waiting, their replies decoded into ``DBusValue``s and delivered on the GLib main
/// loop's thread, the one thread that uses this object. libatspi's calls block until each reply;
/// these do not, so a hundred questions cost one round trip and a hung application holds up no one
/// but itself.
///
/// An application that has its own server (at-spi2-atk's: GTK 3, Firefox, LibreOffice, answering
/// `GetApplicationBusAddress`) is then spoken to there, as libatspi does: its replies skip
/// dbus-daemon, which on a web page spends as much as the browser does. Applications without one
/// (GTK 4, Qt) are spoken to over the bus. An application's calls wait (a round trip, at its start)
/// until it is known which: replies on two connections could come in another order than the
/// application answered them, and a read begun later would seem to see an older state.
public final class ATSPIBus {
    /// Why the bus could not be reached.
    public struct ConnectError: Error, CustomStringConvertible {
        public let description: String
    }

    private let socket: DBusSocket
    /// A call waiting for its reply: what it was (to send it again over the bus if its
    /// application's own connection goes), when to give up on it, and whom to tell.
    private struct Pending {
        var call: DBusCall
        var destination: String
        var deadline: MonotonicInstant
        var completion: (Result<DBusValue, DBusFailure>) -> Void
    }

    /// A call by the connection it went on (0 is the bus) and its serial there.
    private struct CallKey: Hashable, Comparable {
        var connection: Int
        var serial: UInt32
        static func < (a: CallKey, b: CallKey) -> Bool { (a.connection, a.serial) < (b.connection, b.serial) }
    }

    /// How an application is reached.
    private enum Route {
        /// Not yet: it is asked for its own server's address (its calls are held).
        case asking
        /// Not yet: its own connection authenticates (its calls are held).
        case opening(connection: Int, address: String)
        /// Over its own connection.
        case direct(connection: Int, address: String)
        /// Over the bus for good: it has no server of its own, or its connection failed.
        case bus
    }

    /// Calls sent and not yet answered.
    private var pending: [CallKey: Pending] = [:]
    /// Calls given up at their deadline, with their destination, the latest 4,096 (oldest first):
    /// a reply too large to keep that comes for one of them after all is told (``refusedLate``).
    private var expired: [CallKey: String] = [:]
    private var expiredOrder: [CallKey] = []
    /// Told when an application answers a call given up at its deadline with a reply over the
    /// connection's limit: the application and why.
    public var refusedLate: (String, String) -> Void = { _, _ in }
    /// Calls to an application whose route is not known yet, in the order they were made.
    private var held: [String: [Pending]] = [:]
    /// Each application's route, by bus name (unique names are never reused, so a route ends with its name).
    private var routes: [String: Route] = [:]
    /// Applications' own connections, by number (from 1).
    private var peers: [Int: DBusSocket] = [:]
    private var nextPeer = 1
    /// Why applications' own connections ended (refused, silent, or the application quit),
    /// newest last, the last eight: the calls went over the bus instead.
    public private(set) var directEndings: [String] = []
    /// Told when an application's own socket is given up for a fault (not when it quits): for the journal.
    public var noticed: (String) -> Void = { _ in }
    /// Whom to tell when the bus goes.
    private var closedHandlers: [() -> Void] = []
    /// The deadline the timeout timer is armed for, if it is.
    private var timerDeadline: MonotonicInstant?
    /// The bus's address, for messages.
    public let address: String
    /// How long a call may wait for its reply: an application that takes longer is hung.
    public let timeoutMilliseconds: Int32

    /// Connects to the accessibility bus: `AT_SPI_BUS_ADDRESS` when set, else the address the
    /// session bus's `org.a11y.Bus` gives (what every AT-SPI2 client does).
    public init(environment: [String: String], timeoutMilliseconds: Int32 = 2_000) throws(ConnectError) {
        self.timeoutMilliseconds = timeoutMilliseconds
        let address: String
        if let given = environment["AT_SPI_BUS_ADDRESS"], !given.isEmpty {
            address = given
        } else {
            address = try Self.addressFromSessionBus()
        }
        do {
            socket = try DBusSocket(address: address)
        } catch {
            throw ConnectError(description: "cannot connect to the accessibility bus at \(address): \(error)")
        }
        self.address = address
        socket.received = { [weak self] message in self?.take(message, on: 0) }
        socket.closed = { [weak self] reason in self?.lost(reason) }
        // The bus says when a name leaves it: that application's route (and its own socket) goes then.
        let watch = DBusCall(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "AddMatch", arguments: [.string(DBusIncoming.departuresRule)])
        send(watch, to: "org.freedesktop.DBus") { [weak self] reply in
            if case .failure(let failure) = reply { self?.noticed("narrator-atspi: the accessibility bus would not say when applications leave (\(failure)); their routes are kept") }
        }
    }

    /// Calls `body` on this thread when the bus goes away (the launcher stopped or crashed).
    func whenClosed(_ body: @escaping () -> Void) {
        closedHandlers.append(body)
    }

    /// A reply to one of our calls goes to its completion; anything else (the bus's own
    /// NameAcquired, signals) is not for us.
    private func take(_ message: DBusIncoming, on connection: Int) {
        if connection == 0, let name = message.departedName {
            departed(name)
            return
        }
        guard message.kind == .methodReturn || message.kind == .error, let serial = message.replySerial else { return }
        let key = CallKey(connection: connection, serial: serial)
        guard let call = pending.removeValue(forKey: key) else {
            if let application = expired.removeValue(forKey: key), message.errorName == DBusIncoming.tooLarge {
                refusedLate(application, message.errorMessage)
            }
            return
        }
        call.completion(message.kind == .error ? .failure(Self.failure(message)) : .success(message.body))
    }

    /// The bus went: every call out fails, and whoever asked is told.
    private func lost(_ reason: String) {
        let failed = pending
        pending = [:]
        for key in failed.keys.sorted() { failed[key]?.completion(.failure(.error(name: "", message: reason))) }
        let waiting = held
        held = [:]
        for application in waiting.keys.sorted() {
            for call in waiting[application] ?? [] { call.completion(.failure(.error(name: "", message: reason))) }
        }
        for handler in closedHandlers { handler() }
    }

    /// The connection an application's calls go on (0 is the bus), or nil while that is not
    /// known. The first call to an application with a unique name asks it for its own server's
    /// address (the registry, a well-known name, is always asked over the bus).
    private func connection(for application: String) -> Int? {
        switch routes[application] {
        case .direct(let connection, _)?: return connection
        case .bus?: return 0
        case .asking?, .opening?: return nil
        case nil:
            guard application.hasPrefix(":") else { return 0 }
            routes[application] = .asking
            let question = DBusCall(path: ATSPIApplicationRead.root, interface: "org.a11y.atspi.Application", method: "GetApplicationBusAddress", arguments: [])
            dispatch(question, to: application, on: 0, deadline: MonotonicClock.now() + .milliseconds(Int(timeoutMilliseconds))) { [weak self] reply in
                self?.open(application, answer: reply)
            }
            return nil
        }
    }

    /// `application` left the bus: its route goes, with its own socket (closed quietly, its calls
    /// out there sent again over the bus, which answers for it), and calls held for it go over
    /// the bus too. Unique names are never reused, so nothing is lost by forgetting it: a bridge
    /// that runs for weeks keeps a route per application on the bus, not per application seen.
    private func departed(_ application: String) {
        guard let route = routes[application] else { return }
        switch route {
        case .opening(let number, _), .direct(let number, _):
            if let peer = peers.removeValue(forKey: number) {
                peer.closed = { _ in }
                peer.shut(because: "\(application) left the bus")
                directEndings.append("\(application) left the bus: its own socket is closed")
                if directEndings.count > 8 { directEndings.removeFirst() }
            }
            let orphans = pending.filter { $0.key.connection == number }
            for key in orphans.keys.sorted() {
                guard let call = pending.removeValue(forKey: key) else { continue }
                dispatch(call.call, to: call.destination, on: 0, deadline: call.deadline, completion: call.completion)
            }
        case .asking, .bus:
            break
        }
        // Held calls go over the bus (answered there as for any name that left), and the route with them.
        self.route(application, .bus)
        routes.removeValue(forKey: application)
    }

    /// The applications a route is kept for (each on the bus, or leaving it now): for the tests.
    public var routedApplications: [String] { routes.keys.sorted() }

    /// `application`'s route is known: its held calls go, in order, with their own deadlines.
    private func route(_ application: String, _ route: Route) {
        routes[application] = route
        let connection: Int
        switch route {
        case .direct(let number, _): connection = number
        case .bus: connection = 0
        case .asking, .opening: return
        }
        for call in held.removeValue(forKey: application) ?? [] {
            dispatch(call.call, to: call.destination, on: connection, deadline: call.deadline, completion: call.completion)
        }
    }

    /// Connects to the server `answer` names, if it names one.
    private func open(_ application: String, answer: Result<DBusValue, DBusFailure>) {
        guard case .asking? = routes[application] else { return }
        guard case .success(let value) = answer, let address = value[0]?.string, !address.isEmpty else {
            // No server of its own (GTK 4, Qt: UnknownMethod), or it left: the bus it is.
            route(application, .bus)
            // One that left is not remembered (its departure may have come before this answer).
            if case .failure(.gone) = answer { routes.removeValue(forKey: application) }
            return
        }
        let peer: DBusSocket
        do {
            peer = try DBusSocket(peer: address)
        } catch {
            failed(application, "cannot connect to \(application)'s own socket: \(error)")
            return
        }
        let number = nextPeer
        nextPeer += 1
        peers[number] = peer
        routes[application] = .opening(connection: number, address: address)
        peer.received = { [weak self] message in self?.take(message, on: number) }
        peer.opened = { [weak self] in
            guard let self, case .opening(number, let address)? = routes[application] else { return }
            route(application, .direct(connection: number, address: address))
        }
        peer.closed = { [weak self] reason in self?.peerClosed(number, of: application, because: reason) }
        if let reason = peer.closedBecause {
            // It went before it could say so (its first write failed).
            peerClosed(number, of: application, because: reason)
            return
        }
        // An application that does not answer its own socket soon is left on the bus, in time
        // for its held calls to be answered there within their bound.
        let milliseconds = Int(timeoutMilliseconds) / 4
        Trampoline.at(MonotonicClock.now() + .milliseconds(milliseconds)) { [weak peer] in
            guard let peer, !peer.isOpen, peer.closedBecause == nil else { return }
            peer.shut(because: "\(application) did not answer on its own socket (\(address)) within \(milliseconds) ms")
        }
    }

    /// An application's own connection went (it quit, refused us, or did not answer): its
    /// unanswered calls go again over the bus, which answers for an application that left.
    private func peerClosed(_ number: Int, of application: String, because reason: String) {
        let quit = peers.removeValue(forKey: number)?.endedByPeer ?? false
        if case .direct? = routes[application], quit {
            // It quit (or closed its socket): the bus answers for it now, and there is nothing to report.
            ended(application, reason)
        } else {
            failed(application, reason)
        }
        let orphans = pending.filter { $0.key.connection == number }
        for key in orphans.keys.sorted() {
            guard let call = pending.removeValue(forKey: key) else { continue }
            dispatch(call.call, to: call.destination, on: 0, deadline: call.deadline, completion: call.completion)
        }
    }

    /// `application`'s own socket is given up for a fault: said, and its calls go over the bus.
    private func failed(_ application: String, _ reason: String) {
        ended(application, reason)
        noticed("narrator-atspi: \(reason); \(application) is asked over the accessibility bus instead")
    }

    /// `application`'s own socket is over (`reason` kept among the last eight): the bus from now on.
    private func ended(_ application: String, _ reason: String) {
        route(application, .bus)
        directEndings.append(reason)
        if directEndings.count > 8 { directEndings.removeFirst() }
    }

    /// The address of `application`'s own server once calls go there, or nil while they go over the bus.
    public func directAddress(of application: String) -> String? {
        if case .direct(_, let address)? = routes[application] { return address }
        return nil
    }

    /// Says on the session bus that a screen reader runs (`org.a11y.Status`: `IsEnabled` and
    /// `ScreenReaderEnabled`), as Orca does: toolkits that turn their accessibility on only when
    /// asked (Firefox, Chromium) then do, at their start. The error, if any, for the journal.
    public static func announceScreenReader() -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard let session = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { return "no session bus: \(message(error))" }
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        for property in ["IsEnabled", "ScreenReaderEnabled"] {
            let value = g_variant_new_variant(g_variant_new_boolean(1))
            var arguments: [OpaquePointer?] = [g_variant_new_string("org.a11y.Status"), g_variant_new_string(property), value]
            let tuple = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
            guard let reply = g_dbus_connection_call_sync(
                session, "org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set", tuple, nil, G_DBUS_CALL_FLAGS_NONE, 2_000, nil, &error)
            else { return "org.a11y.Status.\(property) could not be set: \(message(error))" }
            g_variant_unref(reply)
        }
        return nil
    }

    private static func addressFromSessionBus() throws(ConnectError) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let session = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw ConnectError(description: "no session bus (is DBUS_SESSION_BUS_ADDRESS set?): \(message(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        guard let reply = g_dbus_connection_call_sync(
            session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil, nil, G_DBUS_CALL_FLAGS_NONE, 5_000, nil, &error)
        else {
            throw ConnectError(description: "the session bus has no accessibility bus (is at-spi-bus-launcher running?): \(message(error))")
        }
        defer { g_variant_unref(reply) }
        guard let address = DBusValue.decode(reply)[0]?.string, !address.isEmpty else {
            throw ConnectError(description: "org.a11y.Bus gave no address")
        }
        return address
    }

    /// Sends `call` to the application `bus` and hands its reply (the tuple of out arguments) to
    /// `completion` on this thread once it comes, or the failure once `timeout` (by default the
    /// bus's own) passes.
    public func send(
        _ call: DBusCall, to bus: String, timeout: Duration? = nil, completion: @escaping (Result<DBusValue, DBusFailure>) -> Void
    ) {
        let deadline = MonotonicClock.now() + (timeout ?? .milliseconds(Int(timeoutMilliseconds)))
        guard let connection = connection(for: bus) else {
            held[bus, default: []].append(Pending(call: call, destination: bus, deadline: deadline, completion: completion))
            armTimeout(for: deadline)
            return
        }
        dispatch(call, to: bus, on: connection, deadline: deadline, completion: completion)
    }

    /// Sends `call` on `connection` (0 is the bus) and waits for its reply until `deadline`.
    private func dispatch(
        _ call: DBusCall, to bus: String, on connection: Int, deadline: MonotonicInstant,
        completion: @escaping (Result<DBusValue, DBusFailure>) -> Void
    ) {
        // A peer leaves `peers` as it closes (``peerClosed``), so one found here is open.
        let peer = peers[connection]
        guard let serial = (peer ?? socket).send(call, to: bus) else {
            completion(.failure(.error(name: "", message: "cannot send: \(socket.closedBecause ?? "the accessibility bus is closed")")))
            return
        }
        // A write of much queued at once can find the connection gone within `send`, after its
        // own calls were failed or sent on: this one follows them.
        if let reason = (peer ?? socket).closedBecause {
            if peer != nil {
                dispatch(call, to: bus, on: 0, deadline: deadline, completion: completion)
            } else {
                completion(.failure(.error(name: "", message: reason)))
            }
            return
        }
        pending[CallKey(connection: peer == nil ? 0 : connection, serial: serial)] =
            Pending(call: call, destination: bus, deadline: deadline, completion: completion)
        armTimeout(for: deadline)
    }

    /// Arms the one timer for the earliest deadline of the calls waiting, unless it fires sooner.
    private func armTimeout(for deadline: MonotonicInstant) {
        if let armed = timerDeadline, armed <= deadline { return }
        timerDeadline = deadline
        Trampoline.at(deadline) { [weak self] in self?.expire(armedFor: deadline) }
    }

    /// Fails every call past its deadline with `.timedOut`, then arms the timer for the next.
    private func expire(armedFor deadline: MonotonicInstant) {
        guard timerDeadline == deadline else { return }
        timerDeadline = nil
        let now = MonotonicClock.now()
        let late = pending.filter { $0.value.deadline <= now }
        for key in late.keys.sorted() {
            guard let call = pending.removeValue(forKey: key) else { continue }
            expired[key] = call.destination
            expiredOrder.append(key)
            call.completion(.failure(.timedOut))
        }
        if expiredOrder.count > 4_096 {
            for key in expiredOrder.prefix(expiredOrder.count - 4_096) { expired.removeValue(forKey: key) }
            expiredOrder.removeFirst(expiredOrder.count - 4_096)
        }
        for application in held.keys.sorted() {
            let calls = held[application] ?? []
            held[application] = calls.filter { $0.deadline > now }
            for call in calls where call.deadline <= now { call.completion(.failure(.timedOut)) }
        }
        held = held.filter { !$0.value.isEmpty }
        if let next = (pending.values.map(\.deadline) + held.values.flatMap { $0.map(\.deadline) }).min() { armTimeout(for: next) }
    }

    /// `call`, waiting for its reply: for the benchmark's one-property baseline, never the bridge.
    public func sendAndWait(_ call: DBusCall, to bus: String) -> Result<DBusValue, DBusFailure> {
        guard let reply = socket.call(call, to: bus, timeoutMilliseconds: timeoutMilliseconds) else {
            return .failure(socket.closedBecause.map { .error(name: "", message: $0) } ?? .timedOut)
        }
        return reply.kind == .error ? .failure(Self.failure(reply)) : .success(reply.body)
    }

    /// The bus name of the application called `name`, once the registry lists it (asked every
    /// 100 ms, up to `timeout`), or nil: for the benchmarks and tests, which wait for an
    /// application they started. It blocks; the bridge never waits so.
    public func application(named name: String, timeout: Duration = .seconds(20)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if case .success(let listed) = sendAndWait(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: ATSPIBridge.registry) {
                for candidate in (listed[0]?.items ?? []).compactMap({ $0[0]?.string }) {
                    if case .success(let named) = sendAndWait(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: candidate), named[0]?.string == name {
                        return candidate
                    }
                }
            }
            usleep(100_000)
        }
        return nil
    }

    /// An error reply's reason: the application gone from the bus (the bus says so for it), or its own error.
    static func failure(_ reply: DBusIncoming) -> DBusFailure {
        let name = reply.errorName ?? "", message = reply.errorMessage
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoReply":
            return .gone
        default:
            return .error(name: name, message: message)
        }
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

extension DBusValue {
    /// A GVariant as a plain value (the variant is not consumed).
    static func decode(_ variant: OpaquePointer) -> DBusValue {
        let kind = g_variant_classify(variant).rawValue
        func ascii(_ c: Character) -> UInt32 { UInt32(c.asciiValue ?? 0) }
        switch kind {
        case ascii("b"): return .bool(g_variant_get_boolean(variant) != 0)
        case ascii("y"): return .unsigned(UInt64(g_variant_get_byte(variant)))
        case ascii("n"): return .integer(Int64(g_variant_get_int16(variant)))
        case ascii("q"): return .unsigned(UInt64(g_variant_get_uint16(variant)))
        case ascii("i"), ascii("h"): return .integer(Int64(g_variant_get_int32(variant)))
        case ascii("u"): return .unsigned(UInt64(g_variant_get_uint32(variant)))
        case ascii("x"): return .integer(Int64(g_variant_get_int64(variant)))
        case ascii("t"): return .unsigned(UInt64(g_variant_get_uint64(variant)))
        case ascii("d"): return .double(g_variant_get_double(variant))
        case ascii("s"), ascii("o"), ascii("g"): return .string(String(cString: g_variant_get_string(variant, nil)))
        case ascii("v"):
            guard let inner = g_variant_get_variant(variant) else { return .variant(.structure([])) }
            defer { g_variant_unref(inner) }
            return .variant(decode(inner))
        default:
            // Arrays, tuples, dictionary entries and maybes: their children in order.
            let children = (0..<g_variant_n_children(variant)).map { index -> DBusValue in
                guard let child = g_variant_get_child_value(variant, index) else { return .structure([]) }
                defer { g_variant_unref(child) }
                return decode(child)
            }
            return kind == ascii("a") ? .array(children) : .structure(children)
        }
    }
}
