import Foundation
import Glibc

/// An engine process narratord started, found in /proc as a user would find it (`ps --ppid`):
/// a child of narratord whose command line names the engine's executable.
struct EngineChild: Equatable {
    let pid: pid_t

    /// Fields of /proc/PID/stat after the command name (which may hold spaces): state first.
    private static func stat(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else {
            return nil
        }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// The live (not yet ended) children of `parent` whose command line contains `executable`
    /// (nil: every live child).
    static func all(of parent: pid_t, named executable: String?) -> [EngineChild] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.sorted().compactMap { pid in
            guard let fields = stat(pid), fields.count > 2, fields[1] == Substring(String(parent)), fields[0] != "Z" else { return nil }
            let command = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return executable.map(command.contains) ?? true ? EngineChild(pid: pid) : nil
        }
    }

    /// The one such child; nil when there is none or more than one.
    static func one(of parent: pid_t, named executable: String) -> EngineChild? {
        let found = all(of: parent, named: executable)
        return found.count == 1 ? found[0] : nil
    }

    /// Waits until `parent` has a single live child named `executable` other than `old`.
    static func wait(of parent: pid_t, named executable: String, other old: EngineChild? = nil, timeout: TimeInterval = 30) -> EngineChild? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let child = one(of: parent, named: executable), child != old { return child }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    /// Its state letter (`R`, `S`, `T` when stopped, `Z` once ended); nil when it is gone.
    var state: Character? { Self.stat(pid)?.first?.first }

    /// CPU time it has used, in clock ticks (user and system).
    var cpuTicks: Int {
        guard let fields = Self.stat(pid), fields.count > 13 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }
}
