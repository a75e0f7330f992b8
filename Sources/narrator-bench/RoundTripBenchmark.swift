import Foundation
import NarratorSystem

/// Focus round trip through a real narratord (release build, null audio) on a 10,000-element
/// tree, beside a raw Unix-socket echo round trip of a line of the same size, in the same run.
enum RoundTripBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(samples: Int) throws -> [BenchResult] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // The baseline: an echo server on the same event loop code, a blocking client.
        let echo = try EchoServer(path: directory + "/echo.sock")
        defer { echo.stop() }
        let echoClient = try UnixClient(connectingTo: echo.path)
        defer { echoClient.close() }

        // The daemon, as users run it.
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("narratord")
        let socket = directory + "/narratord.sock"
        daemon.arguments = ["--socket", socket, "--audio", "null", "--state-dir", directory + "/state", "--log-level", "warning"]
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
        }
        var client: UnixClient?
        for _ in 0..<500 where client == nil {
            client = try? UnixClient(connectingTo: socket)
            if client == nil { usleep(10_000) }
        }
        guard let client else { throw Failure(description: "narratord did not start") }
        defer { client.close() }

        let document = TreeBenchmark.document(nodes: 10_000)
        try client.send(line: #"{"id": 0, "cmd": "register", "document": "# + document + "}")
        guard let registered = try client.readLine(), registered.contains(#""ok":true"#) else {
            throw Failure(description: "register failed")
        }

        var focusTimes: [Double] = []
        var echoTimes: [Double] = []
        var sampleLine = ""
        for index in 0..<samples {
            let group = index % 99
            let line = #"{"id": \#(index + 1), "cmd": "focus", "tree": "big", "element": "g\#(group)-\#(index % 97)"}"#
            sampleLine = line
            let t0 = Clock.now()
            try client.send(line: line)
            guard let reply = try client.readLine() else { throw Failure(description: "daemon closed the connection") }
            focusTimes.append(Clock.now() - t0)
            if index == 0, !reply.contains(#""ok":true"#) { throw Failure(description: "focus failed: \(reply)") }

            let e0 = Clock.now()
            try echoClient.send(line: line)
            _ = try echoClient.readLine()
            echoTimes.append(Clock.now() - e0)
        }
        let note = "focus by id on a 10,000-element tree, \(samples) requests of \(sampleLine.utf8.count) bytes"
        return [
            BenchResult(
                name: "focus.rtt.p50", value: Stats.percentile(focusTimes, 50) * 1e6, unit: "us",
                baseline: Stats.percentile(echoTimes, 50) * 1e6, baselineName: "raw Unix-socket echo", note: note),
            BenchResult(
                name: "focus.rtt.p99", value: Stats.percentile(focusTimes, 99) * 1e6, unit: "us",
                baseline: Stats.percentile(echoTimes, 99) * 1e6, baselineName: "raw Unix-socket echo", note: "target: within 3x the echo"),
        ]
    }
}
