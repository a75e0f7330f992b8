import NarratorBase
import NarratorSystem

/// Writes one line per event to stderr, prefixed with its syslog priority (`<6>`), which
/// journald turns into the entry's priority when the daemon runs as a service.
public struct Logger: Sendable {
    public var level: LogLevel

    public init(level: LogLevel) { self.level = level }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        StandardError.write("<\(level.priority)>\(message())\n")
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
