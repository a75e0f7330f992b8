import Foundation
import Glibc
import NarratorSystem
import Synchronization

/// `narrator-bench load`: hundreds of concurrent clients against a real release narratord, with
/// slow readers and vanishing clients among them, for LOAD_SECONDS (default 30). Every reply is
/// checked; the figures are requests per second, latency against a single idle client's in the
/// same run, requests per client, and the daemon's memory. Fails (exit 1) with the reasons.
enum LoadTest {
    struct Settings {
        var seconds = 30.0
        var clients = 300
        var threads = 4
        var slowReaders = 10
        var vanishers = 20

        static func fromEnvironment() -> Settings {
            var settings = Settings()
            let environment = ProcessInfo.processInfo.environment
            if let text = environment["LOAD_SECONDS"], let seconds = Double(text), seconds > 0 { settings.seconds = seconds }
            if let text = environment["LOAD_CLIENTS"], let clients = Int(text), clients > 0 { settings.clients = clients }
            if let text = environment["LOAD_SLOW_READERS"], let count = Int(text), count >= 0 { settings.slowReaders = count }
            if let text = environment["LOAD_VANISHERS"], let count = Int(text), count >= 0 { settings.vanishers = count }
            return settings
        }
    }

    struct WorkerReport: Sendable {
        var counts: [Int] = []
        var ephemeralTrees = 0
        var latencies: [Double] = []
        var announceLatencies: [Double] = []
        var failures: [String] = []
    }

    static func run(_ settings: Settings) throws -> (results: [BenchResult], failures: [String]) {
        let daemon = try LoadDaemon()
        var failures: [String] = []
        let baseline = try daemon.idleFocusLatencies(samples: 300)

        let start = Clock.now()
        let deadline = start + settings.seconds
        let reports = Mutex<[WorkerReport]>([])
        let vanished = Mutex(LoadDisruptors.VanisherReport())
        let slow = Mutex(LoadDisruptors.SlowReport())
        var threads: [JoinableThread] = []
        let path = daemon.socket
        let slowCount = settings.slowReaders
        threads.append(
            JoinableThread {
                let report = LoadDisruptors.readSlowly(count: slowCount, path: path, deadline: deadline)
                slow.withLock { $0 = report }
            })
        let perThread = (settings.clients + settings.threads - 1) / settings.threads
        for thread in 0..<settings.threads {
            let indices = (thread * perThread)..<min(settings.clients, (thread + 1) * perThread)
            threads.append(
                JoinableThread {
                    let report = runWorker(indices: indices, path: path, deadline: deadline)
                    reports.withLock { $0.append(report) }
                })
        }
        let vanisherCount = settings.vanishers
        threads.append(
            JoinableThread {
                let report = LoadDisruptors.vanish(count: vanisherCount, path: path, deadline: deadline)
                vanished.withLock { $0 = report }
            })

        // Memory while the load runs: the peak, after the first third (warm), and at the end.
        var warm: Int?
        var end = 0
        while Clock.now() < deadline {
            usleep(200_000)
            let now = daemon.memory()
            end = now.resident
            if warm == nil, Clock.now() >= start + settings.seconds / 3 { warm = now.resident }
        }
        for thread in threads { thread.join() }
        let elapsed = Clock.now() - start
        let afterLoad = daemon.memory()

        let workers = reports.withLock { $0 }
        let counts = workers.flatMap(\.counts).map(Double.init)
        let latencies = workers.flatMap(\.latencies)
        let announceLatencies = workers.flatMap(\.announceLatencies)
        let total = counts.reduce(0, +)
        failures += workers.flatMap(\.failures).prefix(20)
        let vanishers = vanished.withLock { $0 }
        failures += vanishers.failures.prefix(5)
        let slowReport = slow.withLock { $0 }
        failures += slowReport.failures.prefix(5)

        // No client starved: each completed at least a quarter of the median.
        let median = Stats.median(counts)
        let minimum = counts.min() ?? 0
        if counts.count != settings.clients { failures.append("only \(counts.count) of \(settings.clients) clients ran") }
        if minimum < max(10, median / 4) {
            failures.append("a client was starved: it completed \(Int(minimum)) requests, the median client \(Int(median))")
        }
        if slowReport.neverDisconnected != slowReport.neverReaders {
            failures.append("\(slowReport.neverReaders - slowReport.neverDisconnected) of \(slowReport.neverReaders) subscribers that never read were not disconnected")
        }
        let warmRSS = warm ?? end
        let growth = end - warmRSS
        let allowed = max(16 << 20, warmRSS / 4)
        if growth > allowed {
            failures.append("the daemon's memory grew by \(growth >> 20) MiB after warm-up (\(warmRSS >> 20) → \(end >> 20) MiB; allowed \(allowed >> 20) MiB)")
        }

        // Bounded: at most the slow readers' output buffers (4 MiB each) above the steady state.
        let peakAllowed = warmRSS + settings.slowReaders * (4 << 20) + (32 << 20)
        if afterLoad.peak > peakAllowed {
            failures.append("the daemon's peak memory was \(afterLoad.peak >> 20) MiB, more than \(peakAllowed >> 20) MiB (steady \(warmRSS >> 20) MiB + 4 MiB per slow reader + 32 MiB)")
        }

        // Still healthy: status answers, and the ephemeral trees of every gone client are gone.
        let persistent = workers.reduce(0) { $0 + $1.counts.count - $1.ephemeralTrees }
        if let problem = daemon.checkHealthy(expectedTrees: persistent) { failures.append(problem) }
        let overflowWarnings = daemon.logLines().filter { $0.contains("stopped reading") }.count
        let otherWarnings = daemon.logLines().filter { !$0.contains("stopped reading") && !$0.isEmpty }
        if !otherWarnings.isEmpty { failures.append("the daemon logged: \(otherWarnings.prefix(3).joined(separator: " | "))") }
        if let problem = daemon.terminate() { failures.append(problem) }

        let mib = 1_048_576.0
        let p50 = Stats.percentile(latencies, 50) * 1000
        let p99 = Stats.percentile(latencies, 99) * 1000
        let results = [
            BenchResult(
                name: "load.requests", value: total / elapsed, unit: "req/s",
                note: "\(settings.clients) clients, \(Int(total)) checked replies in \(String(format: "%.1f", elapsed)) s"),
            BenchResult(
                name: "load.latency.p50", value: p50, unit: "ms", baseline: Stats.percentile(baseline, 50) * 1000,
                baselineName: "one client, idle daemon", note: "focus/next/previous/touch/adjust/update"),
            BenchResult(
                name: "load.latency.p99", value: p99, unit: "ms", baseline: Stats.percentile(baseline, 99) * 1000,
                baselineName: "one client, idle daemon", note: "max \(String(format: "%.1f", (latencies.max() ?? 0) * 1000)) ms"),
            BenchResult(
                name: "load.announce.p99", value: Stats.percentile(announceLatencies, 99) * 1000, unit: "ms",
                note: "\(announceLatencies.count) announce replies (sent after the log commit); p50 \(String(format: "%.1f", Stats.percentile(announceLatencies, 50) * 1000)) ms"),
            BenchResult(name: "load.client.min", value: minimum, unit: "req", note: "requests completed by the least served client"),
            BenchResult(name: "load.client.median", value: median, unit: "req", note: ""),
            BenchResult(name: "load.client.max", value: counts.max() ?? 0, unit: "req", note: ""),
            BenchResult(name: "load.rss.peak", value: Double(afterLoad.peak) / mib, unit: "MiB", note: "VmHWM of narratord"),
            BenchResult(name: "load.rss.warm", value: Double(warmRSS) / mib, unit: "MiB", note: "VmRSS after a third of the run"),
            BenchResult(
                name: "load.rss.end", value: Double(end) / mib, unit: "MiB", baseline: Double(warmRSS) / mib, baselineName: "after warm-up",
                note: "VmRSS at the end of the load; \(String(format: "%.1f", Double(afterLoad.resident) / mib)) MiB once it stopped"),
            BenchResult(
                name: "load.slow.closed", value: Double(slowReport.neverDisconnected + slowReport.trickleDisconnected), unit: "clients",
                note: "of \(slowReport.neverReaders) never-reading + \(slowReport.trickleReaders) trickling subscribers; \(overflowWarnings) overflow warnings logged"),
            BenchResult(name: "load.vanished", value: Double(vanishers.connections), unit: "conns", note: "clients that left mid-request"),
        ]
        return (results, failures)
    }

    /// One worker thread: `indices` clients multiplexed with poll, one request in flight each.
    static func runWorker(indices: Range<Int>, path: String, deadline: Double) -> WorkerReport {
        var report = WorkerReport()
        var clients: [LoadClient] = []
        for index in indices {
            do {
                clients.append(try LoadClient(index: index, path: path, ephemeral: index % 3 == 2))
            } catch {
                report.failures.append("client \(index) could not connect: \(error)")
            }
        }
        var entries: [pollfd] = []
        let giveUp = deadline + 10
        while true {
            let now = Clock.now()
            if now >= deadline {
                if clients.allSatisfy({ $0.isIdle || $0.connection.isClosed }) { break }
                if now >= giveUp {
                    for client in clients where !client.isIdle { client.fail("no reply within 10 s after the end") }
                    break
                }
            } else {
                for client in clients where client.isIdle && !client.connection.isClosed { client.sendNext(now: now) }
            }
            entries.removeAll(keepingCapacity: true)
            for client in clients {
                if client.connection.hasPendingOutput {
                    do { try client.connection.flush() } catch { client.fail("sending failed: \(error)") }
                }
                let events = Int16(POLLIN) | (client.connection.hasPendingOutput ? Int16(POLLOUT) : 0)
                entries.append(pollfd(fd: client.connection.isClosed ? -1 : client.connection.fd, events: events, revents: 0))
            }
            do {
                _ = try Syscall.poll(&entries, timeoutMilliseconds: 100)
            } catch {
                report.failures.append("poll failed: \(error)")
                break
            }
            let received = Clock.now()
            for (offset, client) in clients.enumerated() where entries[offset].revents != 0 {
                let lines: [String]
                do {
                    lines = try client.connection.readLines()
                } catch {
                    client.fail("reading failed: \(error)")
                    continue
                }
                for line in lines { client.receive(line, now: received) }
                if client.connection.isClosed { client.fail("the daemon closed the connection") }
            }
        }
        for client in clients {
            report.counts.append(client.completed)
            if client.tree.ephemeral { report.ephemeralTrees += 1 }
            report.latencies += client.latencies
            report.announceLatencies += client.announceLatencies
            report.failures += client.failures
            client.connection.close()
        }
        return report
    }
}
