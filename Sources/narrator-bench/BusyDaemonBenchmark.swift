import Foundation
import NarratorSystem
import Synchronization

/// Nobody waits behind a big request: an SSIP client's SPEAK to its `701 BEGIN` (what a
/// screen reader's key echo waits for) while another client registers a 100,000-element tree,
/// updates it, changes its reading order and unregisters it, over and over, beside the same figure with the daemon otherwise idle. The two are
/// measured in alternating rounds of one run, so that both see the same machine.
enum BusyDaemonBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// What the registering client did while the samples were taken.
    struct Work {
        var registers = 0
        var updates = 0
        var reorders = 0
        var registerSeconds: [Double] = []
    }

    /// A client that registers `nodes` elements, updates one element's label
    /// `updatesPerRegister` times, moves a group to the front of the reading order as many times
    /// (a `sortPriority`, which rebuilds the tree's reading order) and unregisters the tree,
    /// round after round, while it is told to be busy.
    final class RegisteringClient: Sendable {
        private struct State {
            var busy = false
            /// True while a request is out: the idle rounds wait until none is.
            var working = false
            var done = false
            var work = Work()
            var failure: String?
        }

        private final class Shared: Sendable {
            let state = Mutex(State())
        }

        private let shared = Shared()
        private let thread: JoinableThread

        init(socket: String, nodes: Int, updatesPerRegister: Int) {
            // Built once: the client's own cost stays out of the daemon's figures as far as it can.
            let register = #"{"id": 1, "cmd": "register", "document": "# + TreeBenchmark.document(nodes: nodes) + "}"
            let shared = self.shared
            thread = JoinableThread {
                let client: UnixClient
                do {
                    client = try UnixClient(connectingTo: socket, maximumLineLength: 1 << 30)
                } catch {
                    shared.state.withLock { state in
                        state.failure = "cannot connect: \(error)"
                        state.done = true
                    }
                    return
                }
                defer { client.close() }
                var round = 0
                while true {
                    let go = shared.state.withLock { state -> Bool? in
                        if state.done { return nil }
                        state.working = state.busy
                        return state.busy
                    }
                    guard let go else { return }
                    guard go else {
                        usleep(1_000)
                        continue
                    }
                    do {
                        let t0 = Clock.now()
                        try Self.request(client, register)
                        let registered = Clock.now() - t0
                        for update in 0..<updatesPerRegister {
                            let element = "g\((round * 7 + update) % 900)-\(update % 100)"
                            try Self.request(
                                client, #"{"id": 2, "cmd": "update", "tree": "big", "element": "\#(element)", "set": {"label": "Changed \#(round) \#(update)"}}"#)
                        }
                        for reorder in 0..<updatesPerRegister {
                            let group = (round * 13 + reorder * 37) % 900
                            try Self.request(
                                client, #"{"id": 4, "cmd": "update", "tree": "big", "element": "g\#(group)", "set": {"sortPriority": \#(reorder + 1)}}"#)
                        }
                        // Freeing the tree is the daemon's work too (off its loop).
                        try Self.request(client, #"{"id": 3, "cmd": "unregister", "tree": "big"}"#)
                        shared.state.withLock { state in
                            state.work.registers += 1
                            state.work.updates += updatesPerRegister
                            state.work.reorders += updatesPerRegister
                            state.work.registerSeconds.append(registered)
                        }
                        round += 1
                    } catch {
                        shared.state.withLock { state in
                            state.failure = "\(error)"
                            state.done = true
                            state.working = false
                        }
                        return
                    }
                }
            }
        }

        private static func request(_ client: UnixClient, _ line: String) throws {
            try client.send(line: line)
            guard let reply = try client.readLine(timeout: .seconds(60)) else { throw Failure(description: "narratord closed the connection") }
            guard reply.contains(#""ok":true"#) else { throw Failure(description: "request failed: \(reply.prefix(300))") }
        }

        /// Starts (or stops) the rounds; stopping waits for the request that is out.
        func setBusy(_ busy: Bool) throws {
            shared.state.withLock { $0.busy = busy }
            if !busy {
                while shared.state.withLock({ $0.working }) { usleep(1_000) }
            }
            if let failure = shared.state.withLock({ $0.failure }) { throw Failure(description: "the registering client failed: \(failure)") }
        }

        /// What it did so far; throws if it failed.
        func work() throws -> Work {
            try shared.state.withLock { (state) throws(Failure) -> Work in
                if let failure = state.failure { throw Failure(description: "the registering client failed: \(failure)") }
                return state.work
            }
        }

        func stop() {
            shared.state.withLock { $0.done = true }
            thread.join()
        }
    }

    static func run(rounds: Int, samplesPerRound: Int, nodes: Int) throws -> [BenchResult] {
        let daemon = try DaemonBenchmark.Daemon(ssip: true)
        let ssip = try echoClient(daemon)
        defer { ssip.close() }
        let registering = RegisteringClient(socket: daemon.socket, nodes: nodes, updatesPerRegister: 20)
        defer { registering.stop() }

        var idle: [Double] = []
        var busy: [Double] = []
        for round in 0..<(rounds * 2 + 1) {
            // A first idle round warms the engine and the connection up and is not kept.
            let isBusy = round % 2 == 0 ? false : true
            try registering.setBusy(isBusy)
            if isBusy {
                // The tree is there and the rounds are under way before sampling starts.
                while try registering.work().registers == 0 { usleep(10_000) }
            }
            FileHandle.standardError.write(Data("busy: round \(round + 1) of \(rounds * 2 + 1) (\(isBusy ? "registering" : "idle"))\n".utf8))
            for index in 0..<samplesPerRound {
                let sample = try speakToBegin(ssip)
                if round > 0 { if isBusy { busy.append(sample) } else { idle.append(sample) } }
                // Gaps of 2 to 11 ms, so that samples fall all over the registering client's rounds.
                usleep(UInt32(2_000 + (index * 7919) % 9_000))
            }
        }
        try registering.setBusy(false)
        let work = try registering.work()
        let registerMedian = work.registerSeconds.isEmpty ? 0 : Stats.median(work.registerSeconds) * 1000
        let note = String(
            format: "%d samples each; meanwhile %d registers of %dk elements (median %.0f ms each), %d label updates, %d reorders and as many unregisters as registers",
            busy.count, work.registers, nodes / 1000, registerMedian, work.updates, work.reorders)
        return BenchResult.percentiles(
            "busy.ssip-begin", busy, beside: idle, baselineName: "the same with the daemon otherwise idle",
            note: "SPEAK to 701 BEGIN while another client registers, updates, reorders and unregisters; " + note, target: "target: at most 2x")
    }

    /// An SSIP client of `daemon` that hears every event of its messages: what ``speakToBegin(_:)`` samples with.
    static func echoClient(_ daemon: DaemonBenchmark.Daemon) throws -> SSIPConnection {
        let ssip = try SSIPConnection(path: daemon.ssipSocket, server: "narratord")
        try ssip.command("SET SELF CLIENT_NAME user:bench:echo")
        try ssip.command("SET SELF NOTIFICATION ALL on")
        return ssip
    }

    /// SPEAK to the message's 701 BEGIN, then CANCEL SELF until its 703, so that the next
    /// message does not queue behind this one.
    static func speakToBegin(_ ssip: SSIPConnection) throws -> Double {
        let (message, sent) = try ssip.speak("k")
        let began = try ssip.waitForEvent(701, message: message)
        _ = try ssip.cancelSelf(message: message)
        return began - sent
    }
}
