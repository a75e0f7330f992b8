import NarratorBase
import NarratorBridge
import NarratorSystem
import NarratorDBus

/// The bridge's own connection to the accessibility bus (``DBusSocket``): method calls sent
/// without waiting, their replies decoded into ``DBusValue``s and delivered on the GLib main
/// loop's thread, the one thread that uses this object. libatspi's calls block until each reply;
/// these do not, so a hundred questions cost one round trip and a hung application holds up no one
/// but itself.
///
/// Which connection each call goes on (an application's own socket, or the bus), which calls
/// wait and until when, is decided by the pure ``BusRoutes``; this shell only carries out its
/// effects with the sockets and the main loop's timers and feeds back what comes of them. Inputs
/// that arrive while effects are carried out (a socket that closes as it is written, a caller
/// that calls again from its completion) wait until those effects are done, in order.
public final class ATSPIBus {
    /// Why the bus could not be reached.
    public struct ConnectError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bus's connection (package: the blocking helpers of the tests and benchmarks use it).
    package let socket: DBusSocket
    private var routes: BusRoutes
    /// Applications' own connections, open or opening, by the number the routes gave them.
    private var peers: [BusConnection: DBusSocket] = [:]
    /// Callers' completions by their calls' numbers.
    private var completions: [BusCallID: (Result<DBusValue, DBusFailure>) -> Void] = [:]
    private var nextCall: UInt64 = 1
    private var inbox: [BusRoutesInput] = []
    private var handling = false
    /// Told when an application answers a call given up at its deadline with a reply over the
    /// connection's limit: the application and why.
    public var refusedLate: (String, String) -> Void = { _, _ in }
    /// Told when an application's own socket is given up for a fault (not when it quits): for the journal.
    public var noticed: (String) -> Void = { _ in }
    /// Whom to tell when the bus goes.
    private var closedHandlers: [() -> Void] = []
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
        routes = BusRoutes(BusRoutes.Configuration(bound: .milliseconds(Int(timeoutMilliseconds))))
        watch(socket, as: .bus)
        // The bus says when a name leaves it: that application's route (and its own socket) goes then.
        feed(.watchDepartures)
    }

    /// Calls `body` on this thread when the bus goes away (the launcher stopped or crashed).
    func whenClosed(_ body: @escaping () -> Void) {
        closedHandlers.append(body)
    }

    /// Sends `call` to the application `bus` and hands its reply (the tuple of out arguments) to
    /// `completion` on this thread once it comes, or the failure once `timeout` (by default the
    /// bus's own) passes.
    public func send(
        _ call: DBusCall, to bus: String, timeout: Duration? = nil, completion: @escaping (Result<DBusValue, DBusFailure>) -> Void
    ) {
        let id = BusCallID(nextCall)
        nextCall += 1
        completions[id] = completion
        feed(.call(id, call, to: bus, timeout: timeout))
    }

    /// Why applications' own connections ended (refused, silent, or the application quit),
    /// newest last, the last eight: the calls went over the bus instead.
    public var directEndings: [String] { routes.directEndings }

    /// The applications a route is kept for (each on the bus, or leaving it now): for the tests.
    public var routedApplications: [String] { routes.routedApplications }

    /// The address of `application`'s own server once calls go there, or nil while they go over the bus.
    public func directAddress(of application: String) -> String? {
        routes.directAddress(of: application)
    }

    /// Handles `input` and carries out its effects, then whatever came meanwhile, in order.
    private func feed(_ input: BusRoutesInput) {
        inbox.append(input)
        guard !handling else { return }
        handling = true
        defer { handling = false }
        var next = 0
        while next < inbox.count {
            let effects = routes.handle(inbox[next], at: MonotonicClock.now())
            next += 1
            for effect in effects { carryOut(effect) }
            if next > 1_024 {
                inbox.removeFirst(next)
                next = 0
            }
        }
        inbox.removeAll(keepingCapacity: true)
    }

    private func carryOut(_ effect: BusRoutesEffect) {
        switch effect {
        case .send(let outgoing, let connection):
            let target = connection == .bus ? socket : peers[connection]
            if let target, let serial = target.send(outgoing.call, to: outgoing.destination) {
                feed(.sent(outgoing, on: connection, serial: serial))
            } else {
                feed(.notSent(outgoing, on: connection, reason: target?.closedBecause))
            }
        case .open(let connection, let address):
            open(connection, at: address)
        case .close(let connection, let reason):
            guard let peer = peers.removeValue(forKey: connection) else { return }
            peer.closed = { _ in }
            peer.shut(because: reason)
        case .deliver(let id, let answer):
            completions.removeValue(forKey: id)?(answer)
        case .armDeadline(let deadline):
            Trampoline.at(deadline) { [weak self] in self?.feed(.deadlineReached(armedFor: deadline)) }
        case .armOpeningBound(let connection, let deadline):
            Trampoline.at(deadline) { [weak self] in self?.feed(.openingBoundReached(connection)) }
        case .notice(let line):
            noticed(line)
        case .refusedLate(let application, let reason):
            refusedLate(application, reason)
        case .busLost:
            for handler in closedHandlers { handler() }
        }
    }

    /// Connects to an application's own server; what becomes of it is fed back.
    private func open(_ connection: BusConnection, at address: String) {
        let peer: DBusSocket
        do {
            peer = try DBusSocket(peer: address)
        } catch {
            feed(.openFailed(connection, reason: "\(error)"))
            return
        }
        peers[connection] = peer
        peer.opened = { [weak self] in self?.feed(.opened(connection)) }
        watch(peer, as: connection)
        if let reason = peer.closedBecause {
            // It went before it could say so (its first write failed).
            peers.removeValue(forKey: connection)
            feed(.closed(connection, reason: reason, byPeer: peer.endedByPeer))
        }
    }

    /// Feeds what `socket` reads and its end; an own socket leaves ``peers`` as it closes.
    private func watch(_ socket: DBusSocket, as connection: BusConnection) {
        socket.received = { [weak self] message in self?.feed(.received(message, on: connection)) }
        socket.closed = { [weak self, unowned socket] reason in
            guard let self else { return }
            if connection != .bus { peers.removeValue(forKey: connection) }
            feed(.closed(connection, reason: reason, byPeer: socket.endedByPeer))
        }
    }
}
