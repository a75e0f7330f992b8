/// How much the daemon logs, and how much each line of its journal matters.
public enum LogLevel: String, CaseIterable, Comparable, Sendable {
    case error, warning, notice, info, debug

    /// The syslog priority journald reads from a `<N>` line prefix.
    public var priority: Int {
        switch self {
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug: 7
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.priority < b.priority }
}
