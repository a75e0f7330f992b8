import NarratorBase

/// Events held back from an SSIP connection for a moment after it was told a message's number.
///
/// python3-speechd (and Orca, which speaks through it) reads replies and events on one thread and
/// registers a message's callback on another, only once `speak()` has read the `225` that told it
/// the message's number; the library's own comment admits the race. An event sent with the
/// `225`, or just after it, reaches no callback and is lost: 7 of 10 BEGINs were, against narratord,
/// whose audio starts within a millisecond. So the events of a connection that was just given a
/// `225` wait until it sends its next line (by then `speak()` has returned) or until ``grace`` has
/// passed, whichever comes first, and then go out in order. What the listener hears is not delayed.
///
/// A hold is the one record of its deadline: it begins with the `225` (empty) and ends with the
/// connection's next line or, once it holds an event, with the timer at ``until``.
public struct SSIPEventHold: Sendable, Equatable {
    /// Long enough for the client's other thread to be scheduled and register its callback on a
    /// busy machine (python3-speechd's comm thread gives up the interpreter's lock as soon as it
    /// waits for the socket again); short enough that a progress display does not lag visibly.
    public static let grace: Duration = .milliseconds(50)

    /// When the events go out even if the client sends nothing.
    var until: MonotonicInstant
    /// What is held, in the order it happened.
    var events: [SSIPEvent] = []
}
