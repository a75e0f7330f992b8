import Foundation
import NarratorSystem

/// The daemon as a whole: registering large trees (time and resident memory), moving through the
/// largest, and what an idle daemon costs (memory and wake-ups).
enum DaemonBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A running narratord (release, null audio) on a temporary socket.
    final class Daemon {
        let process = Process()
        let directory: String
        let socket: String
        /// Where SSIP clients connect, when started with `ssip`.
        let ssipSocket: String
        let client: UnixClient
        var nextID = 0

        init(ssip: Bool = false) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-d-\(getpid())").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("narratord")
            socket = directory + "/narratord.sock"
            ssipSocket = directory + "/ssip.sock"
            process.arguments = ["--socket", socket, "--audio", "null", "--state-dir", directory + "/state", "--log-level", "warning", "--max-message", "1000000000"]
                + (ssip ? ["--ssip", ssipSocket] : [])
            try process.run()
            var connected: UnixClient?
            for _ in 0..<500 where connected == nil {
                connected = try? UnixClient(connectingTo: socket, maximumLineLength: 1 << 30)
                if connected == nil { usleep(10_000) }
            }
            guard let connected else { throw Failure(description: "narratord did not start") }
            client = connected
        }

        deinit {
            client.close()
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Sends a request line and waits for its reply.
        @discardableResult
        func request(_ body: String) throws -> String {
            nextID += 1
            try client.send(line: #"{"id": \#(nextID), "# + body + "}")
            guard let reply = try client.readLine() else { throw Failure(description: "daemon closed the connection") }
            guard reply.contains(#""ok":true"#) else { throw Failure(description: "request failed: \(reply.prefix(300))") }
            return reply
        }

        var pid: Int32 { process.processIdentifier }

        /// Resident memory of the daemon, from /proc.
        func residentBytes() -> Int {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
            else { return 0 }
            return kb * 1024
        }

        /// Context switches of all the daemon's threads so far (each is a wake-up).
        func contextSwitches() -> Int { ProcessActivity.contextSwitches(of: [pid]) }
    }

    static func run(sizes: [Int], moves: Int, idleSeconds: Double) throws -> [BenchResult] {
        var results: [BenchResult] = []
        let daemon = try Daemon()
        // Idle first, before anything was registered: what a desktop pays for the service.
        // One request makes sure start-up work is over before counting.
        try daemon.request(#""cmd": "hello""#)
        usleep(500_000)
        let idle = daemon.residentBytes()
        let switchesBefore = daemon.contextSwitches()
        usleep(UInt32(idleSeconds * 1_000_000))
        let wakeups = Double(daemon.contextSwitches() - switchesBefore) / idleSeconds
        results.append(BenchResult(name: "idle.rss", value: Double(idle) / 1_048_576, unit: "MiB", note: "resident memory of an idle daemon"))
        results.append(BenchResult(name: "idle.wakeups", value: wakeups, unit: "/s", note: "context switches of all threads over \(Int(idleSeconds)) s idle (aim: 0)"))

        for size in sizes {
            let document = TreeBenchmark.document(nodes: size).replacingOccurrences(of: #""tree": "big""#, with: #""tree": "big\#(size)""#)
            // One registration is one sample, and a shared machine makes single samples swing by a
            // third: trees up to 100k are registered `repeats` times (the extra copies under other
            // names, unregistered at once) and the medians reported; memory is measured on the first.
            let repeats = size <= 100_000 ? 5 : 1
            var transfers: [Double] = []
            var registrations: [Double] = []
            var grown = 0
            for round in 0..<repeats {
                // Baseline: the same bytes through the socket to a request the daemon rejects at once,
                // so the ratio shows what registering adds to moving the document and checking its
                // syntax (the parser checks a request's "document" but leaves decoding it to register).
                let b0 = Clock.now()
                try daemon.client.send(line: #"{"id": 0, "cmd": "nope", "document": "# + document + "}")
                _ = try daemon.client.readLine()
                transfers.append(Clock.now() - b0)
                let name = round == 0 ? "big\(size)" : "big\(size)-\(round)"
                let body = round == 0 ? document : document.replacingOccurrences(of: #""tree": "big\#(size)""#, with: #""tree": "\#(name)""#)
                let before = daemon.residentBytes()
                let t0 = Clock.now()
                try daemon.request(#""cmd": "register", "document": "# + body)
                registrations.append(Clock.now() - t0)
                if round == 0 {
                    // The daemon gives a large request's freed memory back once no other has come
                    // for half a second (RequestPreparation.quietBeforeRelease).
                    usleep(800_000)
                    grown = daemon.residentBytes() - before
                } else {
                    try daemon.request(#""cmd": "unregister", "tree": "\#(name)""#)
                }
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            let spread = repeats > 1 ? String(format: "median of %d (%.3g to %.3g ms); ", repeats, registrations.min()! * 1000, registrations.max()! * 1000) : ""
            results.append(
                BenchResult(
                    name: "register.\(size)", value: median(registrations) * 1000, unit: "ms", baseline: median(transfers) * 1000,
                    baselineName: "sending the same bytes to a rejected request",
                    note: "\(spread)\(document.utf8.count / 1024) KiB document; target for 100k: under 300 ms"))
            results.append(
                BenchResult(
                    name: "register.\(size).rss", value: Double(grown) / Double(size), unit: "B/node",
                    note: "daemon resident memory growth per node (target: under 1024)"))
        }
        if let largest = sizes.max() {
            try daemon.request(#""cmd": "focus", "tree": "big\#(largest)""#)
            var times: [Double] = []
            for index in 0..<moves {
                let t0 = Clock.now()
                try daemon.request(index % 2 == 0 ? #""cmd": "next""# : #""cmd": "previous""#)
                times.append(Clock.now() - t0)
            }
            results.append(
                BenchResult(
                    name: "move.\(largest).p50", value: Stats.percentile(times, 50) * 1e6, unit: "us",
                    note: "next/previous round trip on the \(largest)-node tree"))
            results.append(BenchResult(name: "move.\(largest).p99", value: Stats.percentile(times, 99) * 1e6, unit: "us", note: ""))
        }
        return results
    }
}
