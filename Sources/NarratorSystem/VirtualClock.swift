import NarratorBase

/// A monotonic clock that moves only when told: what ``InMemoryLoop``'s timers and a handler's
/// machine read in a test, so that waiting ten seconds takes no time and nothing is timed.
public final class VirtualClock {
    public private(set) var now: MonotonicInstant

    /// Starts at `start` (the monotonic clock's now unless told: instants a handler got from
    /// the real clock before the test began stay in the past).
    public init(start: MonotonicInstant = MonotonicClock.now()) {
        now = start
    }

    /// Moves the clock on by `duration` (a negative one does nothing: it is monotonic).
    public func advance(by duration: Duration) {
        if duration > .zero { now = now + duration }
    }
}
