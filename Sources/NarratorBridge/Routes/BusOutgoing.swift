import NarratorModel
import NarratorBase
import NarratorDBus

/// A caller's call, numbered by the shell that keeps its completion (the core only hands it back
/// with ``BusRoutesEffect/deliver(_:_:)``).
public struct BusCallID: Sendable, Hashable, Comparable {
    public var number: UInt64

    public init(_ number: UInt64) {
        self.number = number
    }

    public static func < (a: BusCallID, b: BusCallID) -> Bool { a.number < b.number }
}

/// Whose answer a call waits for: a caller's, or one of the routes' own questions.
public enum BusTicket: Sendable, Hashable {
    /// A caller's call: its answer is delivered.
    case caller(BusCallID)
    /// `GetApplicationBusAddress` to the application: its answer settles the application's route.
    case routeQuestion(application: String)
    /// The bus's `AddMatch` for `NameOwnerChanged`: only a failure is said.
    case departureWatch
}

/// A call on its way: what it is, to whom, until when it may wait, and whose answer it is. The
/// shell hands it back as it was with ``BusRoutesInput/sent(_:on:serial:)`` (or
/// ``BusRoutesInput/notSent(_:on:reason:)``), so the core keeps no state for a call being written.
public struct BusOutgoing: Sendable, Hashable {
    public var ticket: BusTicket
    public var call: DBusCall
    public var destination: String
    public var deadline: MonotonicInstant

    public init(ticket: BusTicket, call: DBusCall, destination: String, deadline: MonotonicInstant) {
        self.ticket = ticket
        self.call = call
        self.destination = destination
        self.deadline = deadline
    }
}
