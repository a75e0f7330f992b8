import Foundation

/// One measured figure, with the baseline measured in the same run where there is one.
struct BenchResult {
    var name: String
    var value: Double
    var unit: String
    var baseline: Double? = nil
    var baselineName: String? = nil
    var note: String = ""
    /// Why the figure could not be measured on this machine (a missing tool); the row says so.
    var skipped: String? = nil

    /// Nil without a baseline, or with one of zero (a ratio to nothing says nothing).
    var ratio: Double? { baseline.flatMap { $0 == 0 ? nil : value / $0 } }

    /// A row that says a suite was skipped and why, so that a missing tool never fails a run.
    static func skipped(_ name: String, reason: String) -> BenchResult {
        BenchResult(name: name, value: 0, unit: "", skipped: reason)
    }

    /// The p50 and p99 of `samples` (seconds) beside the same of `baseline`, in milliseconds:
    /// `name.p50` with `note`, `name.p99` with `target`.
    static func percentiles(_ name: String, _ samples: [Double], beside baseline: [Double], baselineName: String, note: String, target: String) -> [BenchResult] {
        [(50.0, note), (99.0, target)].map { percentile, text in
            BenchResult(
                name: "\(name).p\(Int(percentile))", value: Stats.percentile(samples, percentile) * 1000, unit: "ms",
                baseline: Stats.percentile(baseline, percentile) * 1000, baselineName: baselineName, note: text)
        }
    }

    var json: [String: Any] {
        if let skipped { return ["name": name, "skipped": skipped] }
        var object: [String: Any] = ["name": name, "value": value, "unit": unit, "note": note]
        if let baseline { object["baseline"] = baseline }
        if let baselineName { object["baseline_name"] = baselineName }
        if let ratio { object["ratio"] = ratio }
        return object
    }
}

enum Clock {
    /// Monotonic seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

enum Memory {
    /// Resident set size of this process, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// What other processes are doing, read from /proc: how often they wake up, and their children.
enum ProcessActivity {
    /// Context switches, voluntary and not, of every thread of the processes `pids` so far: each is
    /// a wake-up (a thread that sleeps in poll costs none until something arrives).
    /// - Parameter excluding: thread names (`comm`) left out, such as libpulse's own mainloop thread.
    static func contextSwitches(of pids: [Int32], excluding: Set<String> = []) -> Int {
        var total = 0
        for pid in pids {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                if !excluding.isEmpty {
                    let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
                    if excluding.contains(name.trimmingCharacters(in: .whitespacesAndNewlines)) { continue }
                }
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
                for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                    total += Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
                }
            }
        }
        return total
    }

    /// The child processes of `pid` (of any of its threads).
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return children.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        }
    }
}

enum Stats {
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let index = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count - 1)).rounded())))
        return sorted[index]
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 50) }
}

enum Report {
    /// A suite that could not measure says why, and shows the end of each log it kept, so that
    /// the reason is in the run's output.
    static func failure(_ suite: String, _ error: any Error, logs: [String]) {
        print("\(suite): failed: \(error)")
        for log in logs {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            print("\(suite): \(log) ends with:\n\(text.suffix(1_500))")
        }
    }

    static func table(_ results: [BenchResult]) -> String {
        func f(_ v: Double) -> String { String(format: v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.3f", v) }
        var lines = [
            "benchmark".padding(toLength: 22, withPad: " ", startingAt: 0) + "value".padding(toLength: 16, withPad: " ", startingAt: 0)
                + "baseline".padding(toLength: 16, withPad: " ", startingAt: 0) + "ratio   note"
        ]
        for r in results {
            if let skipped = r.skipped {
                lines.append(
                    r.name.padding(toLength: 22, withPad: " ", startingAt: 0) + "skipped".padding(toLength: 40, withPad: " ", startingAt: 0) + skipped)
                continue
            }
            let value = "\(f(r.value)) \(r.unit)"
            let base = r.baseline.map { "\(f($0)) \(r.unit)" } ?? "-"
            let ratio = r.ratio.map { String(format: "%.2fx", $0) } ?? "-"
            lines.append(
                r.name.padding(toLength: 22, withPad: " ", startingAt: 0) + value.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + base.padding(toLength: 16, withPad: " ", startingAt: 0) + ratio.padding(toLength: 8, withPad: " ", startingAt: 0)
                    + r.note + (r.baselineName.map { " (baseline: \($0))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    static func write(_ results: [BenchResult], to path: String) throws {
        let object: [String: Any] = [
            "machine": machine(), "results": results.map(\.json),
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }

    static func machine() -> [String: Any] {
        var info: [String: Any] = ["cores": ProcessInfo.processInfo.activeProcessorCount]
        if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
        {
            info["cpu"] = line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        info["memory_gib"] = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        return info
    }
}
