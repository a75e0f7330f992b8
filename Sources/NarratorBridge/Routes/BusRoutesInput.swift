import NarratorModel
import NarratorBase
import NarratorDBus

/// Everything that can happen to the bridge's connections and its calls, as a value: what the
/// shell (`ATSPIBus`: its callers, its sockets' callbacks and its timers) feeds into
/// ``BusRoutes/handle(_:at:)``.
public enum BusRoutesInput: Sendable, Equatable {
    /// The bus is connected: ask it to say when applications leave (`NameOwnerChanged`).
    case watchDepartures
    /// A caller's call to `application`, answered within `timeout` (the routes' bound if nil).
    case call(BusCallID, DBusCall, to: String, timeout: Duration?)
    /// A ``BusRoutesEffect/send(_:on:)`` was queued on the connection under `serial`. Fed after
    /// the effects of the same batch, so a connection that closed while it was written (a
    /// ``closed(_:reason:byPeer:)`` fed meanwhile) comes first.
    case sent(BusOutgoing, on: BusConnection, serial: UInt32)
    /// A ``BusRoutesEffect/send(_:on:)`` found its connection closed (`reason`, when known).
    case notSent(BusOutgoing, on: BusConnection, reason: String?)
    /// A message read on a connection: a reply, an error, or the bus's signals.
    case received(DBusIncoming, on: BusConnection)
    /// An application's own socket accepted the authentication: calls can go there.
    case opened(BusConnection)
    /// An application's own socket could not be connected to (``BusRoutesEffect/open(_:address:)`` failed).
    case openFailed(BusConnection, reason: String)
    /// A connection ended without being asked to (``BusRoutesEffect/close(_:reason:)`` feeds nothing):
    /// `byPeer` when the other side closed it cleanly (an application that quit), not for a fault.
    case closed(BusConnection, reason: String, byPeer: Bool)
    /// The timer of ``BusRoutesEffect/armDeadline(_:)`` for `armedFor` fired.
    case deadlineReached(armedFor: MonotonicInstant)
    /// The timer of ``BusRoutesEffect/armOpeningBound(_:at:)`` fired.
    case openingBoundReached(BusConnection)
}
