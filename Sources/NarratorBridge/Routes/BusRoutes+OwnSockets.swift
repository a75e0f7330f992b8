import NarratorModel
import NarratorBase
import NarratorDBus

/// Applications' own sockets: opened once an application names its server, given up when it
/// refuses, is silent past the opening bound, speaks nonsense or quits, and closed when the
/// application leaves the bus.
extension BusRoutes {
    /// The answer to `GetApplicationBusAddress`: its own server is opened, if it names one.
    mutating func answered(_ application: String, _ answer: Result<DBusValue, DBusFailure>) {
        guard case .asking? = routes[application] else { return }
        guard case .success(let value) = answer, let address = value[0]?.string, !address.isEmpty else {
            // No server of its own (GTK 4, Qt: UnknownMethod), or it left: the bus it is.
            settle(application, .bus)
            // One that left is not remembered (its departure may have come before this answer).
            if case .failure(.gone) = answer { routes.removeValue(forKey: application) }
            return
        }
        let connection = BusConnection(nextConnection)
        nextConnection += 1
        peers[connection] = application
        routes[application] = .opening(connection, address: address)
        effects.append(.open(connection, address: address))
        effects.append(.armOpeningBound(connection, at: now + configuration.openingBound))
    }

    /// An own socket authenticated: the application's held calls go there.
    mutating func opened(_ connection: BusConnection) {
        guard let application = peers[connection], case .opening(connection, let address)? = routes[application] else { return }
        settle(application, .direct(connection, address: address))
    }

    /// An application that does not answer its own socket soon is left on the bus, in time for
    /// its held calls to be answered there within their bound.
    mutating func openingBoundReached(_ connection: BusConnection) {
        guard let application = peers[connection], case .opening(connection, let address)? = routes[application] else { return }
        let reason = "\(application) did not answer on its own socket (\(address)) within \(Configuration.milliseconds(configuration.openingBound)) ms"
        effects.append(.close(connection, reason: reason))
        peerClosed(connection, because: reason, byPeer: false)
    }

    /// An application's own connection went (it quit, refused us, or did not answer): its
    /// unanswered calls go again over the bus, which answers for an application that left.
    mutating func peerClosed(_ connection: BusConnection, because reason: String, byPeer: Bool) {
        guard let application = peers.removeValue(forKey: connection) else { return }
        if case .direct(connection, _)? = routes[application], byPeer {
            // It quit (or closed its socket): the bus answers for it now, and there is nothing to report.
            ended(application, reason)
        } else {
            failed(application, reason)
        }
        resend(connection)
    }

    /// The calls out on `connection`, in the order they were sent, go over the bus.
    mutating func resend(_ connection: BusConnection) {
        for (key, call) in pending.filter({ $0.key.connection == connection }).sorted(by: { $0.key < $1.key }) {
            pending.removeValue(forKey: key)
            dispatch(call, on: .bus)
        }
    }

    /// `application`'s own socket is given up for a fault: said, and its calls go over the bus.
    mutating func failed(_ application: String, _ reason: String) {
        ended(application, reason)
        effects.append(.notice("narrator-atspi: \(reason); \(application) is asked over the accessibility bus instead"))
    }

    /// `application`'s own socket is over (`reason` kept among the last few): the bus from now on.
    mutating func ended(_ application: String, _ reason: String) {
        settle(application, .bus)
        remember(reason)
    }

    mutating func remember(_ ending: String) {
        directEndings.append(ending)
        if directEndings.count > configuration.endingsKept { directEndings.removeFirst(directEndings.count - configuration.endingsKept) }
    }

    /// `application` left the bus: its route goes, with its own socket (closed quietly, its calls
    /// out there sent again over the bus, which answers for it), and calls held for it go over
    /// the bus too.
    mutating func departed(_ application: String) {
        guard let route = routes[application] else { return }
        switch route {
        case .opening(let connection, _), .direct(let connection, _):
            if peers.removeValue(forKey: connection) != nil {
                effects.append(.close(connection, reason: "\(application) left the bus"))
                remember("\(application) left the bus: its own socket is closed")
            }
            resend(connection)
        case .asking, .bus:
            break
        }
        settle(application, .bus)
        routes.removeValue(forKey: application)
    }
}
