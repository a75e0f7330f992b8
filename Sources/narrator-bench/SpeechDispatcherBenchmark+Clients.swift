import Foundation
import NarratorSystem
import Synchronization

/// What many SSIP clients cost each server: messages accepted per second while several clients
/// speak as fast as their replies allow, and wake-ups while clients sit connected and silent.
extension SpeechDispatcherBenchmark {
    static let floodConnections = 4
    /// Messages each flooding client keeps in flight when it does not wait for each reply.
    static let floodDepth = 16
    static let floodSeconds = 3.0
    static let idleClients = 10
    static let idleSeconds = 5.0

    /// Messages accepted per second by each server, from `floodConnections` clients sending
    /// distinct texts at priority text for `floodSeconds`: first each client writing
    /// `floodDepth` messages at a time and then reading their replies (what the server can take),
    /// then each waiting for every reply before the next command, as python3-speechd and spd-say
    /// do (what one client's round trips allow).
    static func acceptRate(_ rig: Rig) throws -> [BenchResult] {
        var rates: [(narratord: Double, dispatcher: Double)] = []
        for depth in [floodDepth, 1] {
            try quiet(rig.recorder, before: "flooding narratord")
            let narratord = try flood(socket: rig.narrator.ssipSocket, server: "narratord", depth: depth)
            try quiet(rig.recorder, before: "flooding speech-dispatcher")
            let dispatcher = try flood(socket: rig.dispatcher.socket, server: "speech-dispatcher", depth: depth)
            rates.append((narratord, dispatcher))
        }
        let common = "\(floodConnections) clients, distinct texts at priority text, \(Int(floodSeconds)) s per server"
        return [
            BenchResult(
                name: "ssip.accept", value: rates[0].narratord, unit: "msg/s", baseline: rates[0].dispatcher, baselineName: spdName,
                note: "SSIP messages accepted (225 OK MESSAGE QUEUED) per second, each client writing \(floodDepth) SPEAKs at a time, then reading their replies; "
                    + "\(common); target ratio >= 5"),
            BenchResult(
                name: "ssip.accept.lockstep", value: rates[1].narratord, unit: "msg/s", baseline: rates[1].dispatcher, baselineName: spdName,
                note: "the same with each client waiting for every reply before its next command, as python3-speechd and spd-say do; \(common)"),
        ]
    }

    /// What the flooding threads report back.
    final class Tally: Sendable {
        let accepted = Mutex(0)
        let failure = Mutex<String?>(nil)
    }

    static func flood(socket: String, server: String, depth: Int) throws -> Double {
        let tally = Tally()
        let start = Clock.now()
        let deadline = start + floodSeconds
        let threads = (0..<floodConnections).map { index in
            JoinableThread {
                do {
                    let ssip = try SSIPConnection(path: socket, server: server)
                    defer { ssip.close() }
                    try ssip.command("SET SELF CLIENT_NAME user:bench-flood:c\(index)")
                    var count = 0
                    while Clock.now() < deadline {
                        if depth == 1 {
                            _ = try ssip.speak("message \(count) from client \(index)")
                            count += 1
                        } else {
                            try ssip.speakPipelined((0..<depth).map { "message \(count + $0) from client \(index)" })
                            count += depth
                        }
                    }
                    tally.accepted.withLock { $0 += count }
                    try ssip.command("CANCEL SELF")
                } catch {
                    tally.failure.withLock { $0 = $0 ?? "\(error)" }
                }
            }
        }
        threads.forEach { $0.join() }
        let elapsed = Clock.now() - start
        if let failure = tally.failure.withLock({ $0 }) { throw Failure(description: "flooding \(server): \(failure)") }
        return Double(tally.accepted.withLock { $0 }) / elapsed
    }

    /// Wake-ups per second (context switches of every thread) of each server while
    /// `idleClients` SSIP clients sit connected, notifications on, saying nothing, once narratord
    /// has closed its idle stream. narratord's figure leaves out libpulse's mainloop thread (an
    /// open pcaudiolib stream asks the server for timing about once a second; the closed stream
    /// takes the thread with it), which the note counts; speech-dispatcher's counts everything,
    /// its output module included.
    static func idleWakeups(_ rig: Rig) throws -> [BenchResult] {
        try quiet(rig.recorder, before: "counting wake-ups")
        // Past narratord's idle close (2 s after its last audio, StreamIdlePolicy), whose timer
        // and stream teardown would otherwise be counted as idle wake-ups.
        Thread.sleep(forTimeInterval: 3)
        let pulseThread: Set<String> = ["threaded-ml"]
        let narratordAlone = wakeups { ProcessActivity.contextSwitches(of: [rig.narrator.pid], excluding: pulseThread) }
        let (narratord, pulse) = try withIdleClients(socket: rig.narrator.ssipSocket, server: "narratord") {
            let all = { ProcessActivity.contextSwitches(of: [rig.narrator.pid]) }
            let own = { ProcessActivity.contextSwitches(of: [rig.narrator.pid], excluding: pulseThread) }
            let before = (all(), own())
            Thread.sleep(forTimeInterval: idleSeconds)
            let after = (all(), own())
            return (Double(after.1 - before.1) / idleSeconds, Double((after.0 - before.0) - (after.1 - before.1)) / idleSeconds)
        }
        let dispatcherPIDs = { [rig.dispatcher.pid] + rig.dispatcher.modules }
        let dispatcher = try withIdleClients(socket: rig.dispatcher.socket, server: "speech-dispatcher") {
            wakeups { ProcessActivity.contextSwitches(of: dispatcherPIDs()) }
        }
        return [
            BenchResult(
                name: "ssip.idle.wakeups", value: narratord, unit: "/s", baseline: dispatcher, baselineName: spdName + " and its module",
                note: String(
                    format: "context switches over %.0f s with %d idle SSIP clients connected (notifications on, nothing said); narratord's threads "
                        + "without libpulse's (%.2f /s of its own); %.2f /s without the clients; target 0",
                    idleSeconds, idleClients, pulse, narratordAlone)),
        ]
    }

    static func withIdleClients<T>(socket: String, server: String, _ measure: () -> T) throws -> T {
        var clients: [SSIPConnection] = []
        defer { clients.forEach { $0.close() } }
        for index in 0..<idleClients {
            let ssip = try SSIPConnection(path: socket, server: server)
            clients.append(ssip)
            try ssip.command("SET SELF CLIENT_NAME user:bench-idle:c\(index)")
            try ssip.command("SET SELF NOTIFICATION ALL on")
        }
        Thread.sleep(forTimeInterval: 0.5)
        return measure()
    }

    /// Wake-ups per second over `idleSeconds`, as `count` counts them.
    static func wakeups(_ count: () -> Int) -> Double {
        let before = count()
        Thread.sleep(forTimeInterval: idleSeconds)
        return Double(count() - before) / idleSeconds
    }
}
