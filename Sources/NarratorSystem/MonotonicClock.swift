import Dispatch
import Glibc
import NarratorBase

/// Reads `CLOCK_MONOTONIC`: the one clock of the daemon. Speech events, the session's inputs, the
/// loop's timers, log latencies and every deadline are instants on it (``MonotonicInstant``).
public enum MonotonicClock {
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid pointer.
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    /// The wait left until `deadline` (zero once it has passed).
    public static func remaining(until deadline: MonotonicInstant) -> Duration {
        max(.zero, deadline - now())
    }

    /// The wait left until `deadline` in whole milliseconds, rounded up so that a timer or a poll
    /// never wakes before it (zero once it has passed).
    public static func milliseconds(until deadline: MonotonicInstant) -> Int32 {
        let now = now()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000)
    }
}

extension DispatchSemaphore {
    /// Waits for a signal until `deadline` on the monotonic clock; false when the deadline came first.
    public func wait(until deadline: MonotonicInstant) -> Bool {
        wait(for: MonotonicClock.remaining(until: deadline))
    }

    /// Waits for a signal for at most `timeout`; false when it passed first.
    public func wait(for timeout: Duration) -> Bool {
        wait(timeout: .now() + .nanoseconds(Int(clamping: max(0, timeout.nanosecondsClamped)))) == .success
    }
}

extension DispatchQueue {
    /// Runs `work` on this queue after `delay`.
    public func async(after delay: Duration, execute work: @escaping @Sendable () -> Void) {
        asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: max(0, delay.nanosecondsClamped))), execute: work)
    }
}
