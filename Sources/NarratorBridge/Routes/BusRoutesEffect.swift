import NarratorModel
import NarratorBase
import NarratorDBus

/// What the bridge's routes ask their shell to do, as a value: the only way they act. The shell
/// carries the effects out in order; tests compare them exactly.
public enum BusRoutesEffect: Sendable, Equatable {
    /// Queue the call on the connection, then feed ``BusRoutesInput/sent(_:on:serial:)`` with its
    /// serial (or ``BusRoutesInput/notSent(_:on:reason:)``).
    case send(BusOutgoing, on: BusConnection)
    /// Connect to an application's own server at `address` (without waiting); feed what becomes of it.
    case open(BusConnection, address: String)
    /// Close an application's own socket now, quietly: nothing is fed for it after.
    case close(BusConnection, reason: String)
    /// Hand a caller its call's answer; nothing more comes for it.
    case deliver(BusCallID, Result<DBusValue, DBusFailure>)
    /// Feed ``BusRoutesInput/deadlineReached(armedFor:)`` at this instant (an earlier timer still fires: the core ignores it).
    case armDeadline(MonotonicInstant)
    /// Feed ``BusRoutesInput/openingBoundReached(_:)`` at this instant.
    case armOpeningBound(BusConnection, at: MonotonicInstant)
    /// A fault to tell the journal.
    case notice(String)
    /// An application answered a call given up at its deadline with a reply over the connection's limit.
    case refusedLate(application: String, reason: String)
    /// The bus went: every call out was failed; whoever asked to be told is told.
    case busLost
}
