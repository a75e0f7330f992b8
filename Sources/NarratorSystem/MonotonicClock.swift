import Glibc
import NarratorCore

/// Reads `CLOCK_MONOTONIC`, the clock all speech events are stamped with.
public enum MonotonicClock {
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        // CLOCK_MONOTONIC cannot fail with a valid pointer.
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }
}
