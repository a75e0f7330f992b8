import NarratorBase
import NarratorKeyboard
import NarratorProtocol
import NarratorDBus

/// What the bridge's core asks its shell to do. The shell carries each out without waiting and
/// reports what came of it as a ``BridgeInput``.
public enum BridgeEffect: Equatable, Sendable {
    /// Send `call` to the application `application` on the accessibility bus; its reply (or
    /// `.timedOut` once `timeout` passes) comes back as `.answered(question, …)`.
    case ask(BridgeQuestion, application: String, DBusCall, timeout: Duration)
    /// One request for narratord, on the connection that owns the bridge's trees.
    case request(Request)
    /// Connect to narratord again; `.daemonConnected` or `.daemonUnreachable` follows.
    case connectToDaemon
    /// Deliver `.timerFired(timer)` at `deadline` (a timer set again is simply fired twice: the
    /// core ignores a fire it no longer waits for).
    case setTimer(BridgeTimer, at: MonotonicInstant)
    /// Look for a new accessibility bus with a registry that answers; `.newBus(found:)` follows.
    case lookForNewBus
    /// Start the bridge again from scratch in this process (libatspi cannot be started twice):
    /// narratord drops the old connection's trees first.
    case restart
    /// A line for the journal.
    case journal(String)
    /// Narrator takes the key event being handled: it does not reach the application. (Without
    /// this effect a key event goes on to the application unchanged.)
    case takeKey
    /// Keep these keys from the application from now on, and only these (X passive grabs; the
    /// whole keyboard in learn mode). Set whenever what Narrator takes changes.
    case grabKeys(KeyGrabs)
    /// Lock Caps Lock (true) or unlock it, in the X server: it toggles on every press of the key,
    /// also when Narrator took it as its own.
    case setCapsLock(Bool)
}

/// A question the bridge asked an application (or the registry), carried with its reply so that
/// the core knows what the answer is for without keeping a table of calls.
public enum BridgeQuestion: Hashable, Sendable {
    /// The registry's children: the desktop's applications.
    case desktop
    /// One of the requests of read `read` (of an application, or of one object in it).
    case read(ReadID, ATSPIRequest)
    /// The row a list that manages its descendants has selected (`Selection.GetSelectedChild`).
    case selectedRow(application: String, list: String)
    /// That row's index in the list, to read it with its place.
    case rowIndex(application: String, row: String, list: String)
    /// A text's selection (`Text.GetSelection`), after it changed.
    case selection(application: String, path: String)
    /// An action carried out for narratord (`what` says it in the journal if it fails).
    case act(ATSPIMirror.WindowID, what: String)
}

/// Identifies one read in flight.
public struct ReadID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "read \(rawValue)" }
    /// Reads are numbered as they begin: the greater began later.
    public static func < (lhs: ReadID, rhs: ReadID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The bridge's timers, each a reason to be woken.
public enum BridgeTimer: Hashable, Sendable {
    /// Read the applications whose events came in the last moments (a burst is one read).
    case batch
    /// Try again the applications that did not answer.
    case retryUnresponsive
    /// The moment for the focus event after the `sequence`th window activation has passed.
    case activation(sequence: Int)
    /// Try to reach narratord again.
    case reconnect
    /// Look again for a new accessibility bus.
    case lookForBus
    /// The moment for a second tap of Narrator's key has passed: it is grabbed again.
    case narratorTap
    /// The keyboard has been quiet long enough to tell narratord of children pages added or removed.
    case quietMirror
}
