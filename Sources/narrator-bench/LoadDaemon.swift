import Foundation
import Glibc
import NarratorModel
import NarratorSystem

/// The narratord under load: the release build next to this binary, null audio, a temporary
/// socket and state directory, warnings logged to a file the test reads afterwards.
final class LoadDaemon {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let directory: String
    let socket: String
    let process: ChildProcess
    private var terminated = false

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-load-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/narratord.sock"
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("narratord").path
        // --max-message 65536 keeps each client's output buffer at the 4 MiB floor, so a subscriber
        // that stops reading overflows within the run.
        process = try ChildProcess(
            binary,
            ["--socket", socket, "--audio", "null", "--state-dir", directory + "/state", "--log-level", "warning", "--max-message", "65536"],
            environment: ProcessInfo.processInfo.environment, error: directory + "/narratord.log")
        for _ in 0..<500 {
            if (try? UnixClient(connectingTo: socket)) != nil { return }
            if let ended = try process.poll() { throw Failure(description: "narratord \(ended) at start: \(logLines().joined(separator: " | "))") }
            usleep(10_000)
        }
        throw Failure(description: "narratord did not start listening on \(socket)")
    }

    deinit {
        if !terminated { _ = try? process.kill() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Focus round trips of one client on an idle daemon: the latency baseline.
    func idleFocusLatencies(samples: Int) throws -> [Double] {
        let client = try UnixClient(connectingTo: socket)
        defer { client.close() }
        let tree = LoadTree(client: -1, ephemeral: true)
        try client.send(line: #"{"id": 0, "cmd": "register", "ephemeral": true, "document": \#(tree.document)}"#)
        guard let reply = try client.readLine(timeout: .seconds(10)), reply.contains(#""ok":true"#) else {
            throw Failure(description: "the baseline client could not register its tree")
        }
        var times: [Double] = []
        for index in 0..<samples {
            let t0 = Clock.now()
            try client.send(line: #"{"id": \#(index + 1), "cmd": "focus", "tree": "\#(tree.name)", "element": "\#(LoadTree.stopIDs[index % 4])"}"#)
            guard let reply = try client.readLine(timeout: .seconds(10)), reply.contains(#""ok":true"#) else {
                throw Failure(description: "a baseline focus failed")
            }
            times.append(Clock.now() - t0)
        }
        return times
    }

    /// VmRSS and VmHWM of the daemon, in bytes.
    func memory() -> (resident: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
                let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
            else { return 0 }
            return kb * 1024
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }

    /// Nil when `status` answers and, within a few seconds, exactly `expectedTrees` trees remain
    /// (every ephemeral tree of a gone client removed); else what is wrong.
    func checkHealthy(expectedTrees: Int) -> String? {
        let client: UnixClient
        do {
            client = try UnixClient(connectingTo: socket)
        } catch {
            return "after the load the daemon does not accept connections: \(error)"
        }
        defer { client.close() }
        var trees = -1
        for attempt in 0..<30 {
            do {
                try client.send(line: #"{"id": \#(attempt), "cmd": "status"}"#)
                guard let line = try client.readLine(timeout: .seconds(5)), case .object(let reply) = try JSONParser().parse(line),
                    reply["ok"]?.boolValue == true, let count = reply["trees"]?.numberValue
                else { return "after the load, status did not answer ok" }
                trees = Int(count)
            } catch {
                return "after the load, status failed: \(error)"
            }
            if trees == expectedTrees { return nil }
            usleep(100_000)
        }
        return "after the load \(trees) trees are registered, expected \(expectedTrees) (ephemeral trees of gone clients should be removed)"
    }

    /// The daemon's log (warnings and worse).
    func logLines() -> [String] {
        ((try? String(contentsOfFile: directory + "/narratord.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// SIGTERM; nil when it exits with status 0 within 10 s, else what happened.
    func terminate() -> String? {
        terminated = true
        do {
            try process.send(SIGTERM)
            let ended = try process.wait(timeout: .seconds(10))
            return ended == .exited(0) ? nil : "on SIGTERM narratord \(ended) (within 10 s, else killed)"
        } catch {
            return "could not stop narratord: \(error)"
        }
    }
}
