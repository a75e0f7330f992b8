import Glibc

/// How much CPU a process has used, from /proc/PID/stat: what tells an engine that is computing
/// slowly on a loaded machine from one that is stopped, deadlocked or blocked.
extension Syscall {
    /// The CPU time process `pid` has used so far: user plus system time of all its threads
    /// (its reaped children's are not counted).
    public static func processCPUTime(_ pid: pid_t) throws(Errno) -> Duration {
        let path = "/proc/\(pid)/stat"
        let line: [UInt8]
        do {
            line = try readFile(path, limit: 4096)
        } catch {
            throw Errno(code: error.code, syscall: "\(error.syscall) \(path)")
        }
        guard let ticks = cpuTicks(statLine: line) else { throw Errno(code: EINVAL, syscall: "parse \(path)") }
        let perSecond = sysconf(Int32(_SC_CLK_TCK))
        guard perSecond > 0 else { throw Errno.current("sysconf(_SC_CLK_TCK)") }
        let hz = UInt64(perSecond)
        return .seconds(Int64(clamping: ticks / hz)) + .nanoseconds(Int64((ticks % hz) * 1_000_000_000 / hz))
    }

    /// utime + stime (fields 14 and 15, in clock ticks) of a /proc/PID/stat line; nil when the
    /// line is not one. The command name (field 2) is in parentheses and may itself hold spaces
    /// and parentheses, so the fields are counted from the last ')'.
    static func cpuTicks(statLine line: [UInt8]) -> UInt64? {
        guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // From field 3 (the state) on: utime and stime are the 12th and 13th of these.
        let fields = line[(close + 1)...].split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") })
        guard fields.count >= 13, let user = number(fields[11]), let system = number(fields[12]) else { return nil }
        let (sum, overflow) = user.addingReportingOverflow(system)
        return overflow ? nil : sum
    }

    /// A decimal field (digits only).
    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt64(String(decoding: digits, as: UTF8.self))
    }
}
