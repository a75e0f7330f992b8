import Glibc

/// The calendar clock (CLOCK_REALTIME), which can jump: only for what is shown to people or
/// stored as a date, never for measuring time (that is ``MonotonicClock``).
public enum WallClock {
    /// Seconds since 1970-01-01 00:00 UTC, with a fraction.
    public static func secondsSinceEpoch() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The current local time (the process's time zone, from TZ or /etc/localtime) formatted by
    /// strftime(3), e.g. "%Y-%m-%d-%H%M%S" for "2026-12-01-055300".
    public static func localTime(_ format: String) -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 128)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
