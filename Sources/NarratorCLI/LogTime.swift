import Foundation

/// Times in the log: parsing `--since`, printing queued times, and the default database path.
enum LogTime {
    /// `since` as Unix seconds: a duration back from `now` ("90s", "10m", "2h", "1d") or a local time.
    static func parse(_ text: String, now: Double) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let unit = text.last, let factor = units[unit], let amount = Double(text.dropLast()), amount >= 0 {
            return now - amount * factor
        }
        // A time is digits and separators only. Checking first also keeps other text away from
        // DateFormatter, which traps on some non-ASCII input instead of returning nil.
        let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "T"), UInt8(ascii: " ")]
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || separators.contains($0) }) else {
            return nil
        }
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }

    /// A queued time for the table: local "HH:mm:ss.SSS" for live rows, "+12.345s" for replayed ones.
    static func format(_ seconds: Double, experiment: Bool) -> String {
        if experiment { return "+" + String(format: "%.3fs", seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// Where narratord keeps its log unless told otherwise.
    static func defaultDatabase(_ environment: [String: String]) -> String {
        stateDirectory(environment) + "/narrator.db"
    }

    /// Where `replay` keeps its experiments unless told otherwise: beside the live log, never in it,
    /// so experiments neither grow the daemon's file nor compete with its writer for the lock.
    static func defaultReplayDatabase(_ environment: [String: String]) -> String {
        stateDirectory(environment) + "/replays.db"
    }

    /// `$XDG_STATE_HOME/narrator`, else `~/.local/state/narrator` (narratord's default `--state-dir`).
    static func stateDirectory(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/narrator" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/narrator"
    }

    static func cacheDirectory(_ environment: [String: String]) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/narrator" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/narrator"
    }
}
