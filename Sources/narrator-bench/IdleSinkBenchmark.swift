import Foundation
import NarratorPulseHarness
import NarratorSystem

/// What an idle Narrator costs the sound server, and what waking it costs the next utterance.
///
/// - Onset after idle: narratord and speech-dispatcher (with its eSpeak NG module), each on a
///   private PulseAudio server of its own, so that one's stream cannot keep the other's sink
///   awake. The sink is a pipe sink (``PrivatePulseServer/init(keepSinkAwake:pipeSink:)``), heard
///   by reading its FIFO (``SinkRecorder/init(pipeOf:)``) rather than by a recording client,
///   which would keep it from suspending; `module-suspend-on-idle` suspends it 1 s after its
///   last stream. Each round waits 10 s with both silent, notes whether each sink is suspended,
///   and then times the same SSIP SPEAK on each, in an order that turns, to its first audible
///   sample at the sink. narratord's onset with its stream open and the sink running, a moment
///   later, is the in-run figure of what waking costs.
/// - Sound-server CPU: the server's processes' CPU time over 10 s while narratord idles with an
///   SSIP client connected (after speaking, its stream closed), beside the same server over 10 s
///   before narratord started, on PulseAudio and on PipeWire (pipewire, pipewire-pulse and
///   WirePlumber together).
enum IdleSinkBenchmark {
    static let idleSeconds = 10.0
    static let cpuSeconds = 10.0
    static let text = SpeechBenchmark.text
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(rounds: Int) -> [BenchResult] {
        if let missing = PrivateSpeechDispatcher.missing {
            return [.skipped("idle", reason: missing)]
        }
        guard PrivatePulseServer.isInstalled else {
            return [.skipped("idle", reason: "pulseaudio/pulseaudio-utils are not installed")]
        }
        do { try Syscall.becomeChildSubreaper() } catch { print("idle: its output modules may be left as zombies: \(error)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-idle-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var results: [BenchResult] = []
        do {
            for sub in ["/spd", "/narrator", "/pipewire-narrator"] {
                try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true)
            }
            results += try onsets(rounds: rounds, directory: directory)
        } catch {
            print("idle: onset after idle failed: \(error)")
            results.append(.skipped("idle.onset", reason: "could not measure: \(error)"))
        }
        if PrivatePipeWireServer.isInstalled {
            do {
                let server = PrivatePipeWireServer(keepSinkAwake: false)
                defer { server.stop() }
                try server.start()
                results.append(try serverCPU(server, name: "idle.pipewire.cpu", directory: directory + "/pipewire-narrator"))
            } catch {
                print("idle: PipeWire CPU failed: \(error)")
                results.append(.skipped("idle.pipewire.cpu", reason: "could not measure: \(error)"))
            }
        } else {
            results.append(.skipped("idle.pipewire.cpu", reason: "pipewire, pipewire-pulse or wireplumber is not installed"))
        }
        return results
    }

    /// Onset after 10 s of silence, narratord beside speech-dispatcher; then the PulseAudio CPU row.
    static func onsets(rounds: Int, directory: String) throws -> [BenchResult] {
        let narratorServer = PrivatePulseServer(keepSinkAwake: false, pipeSink: directory + "/narratord-sink.fifo")
        defer { narratorServer.stop() }
        let spdServer = PrivatePulseServer(keepSinkAwake: false, pipeSink: directory + "/spd-sink.fifo")
        defer { spdServer.stop() }
        try narratorServer.start()
        try spdServer.start()
        let narratorSink = try SinkRecorder(pipeOf: narratorServer)
        let spdSink = try SinkRecorder(pipeOf: spdServer)

        // The server with nobody connected: the baseline of the CPU row.
        guard narratorServer.waitForSink("SUSPENDED", timeout: .seconds(30)) else {
            throw Failure(description: "the pipe sink did not suspend with no client (\(narratorServer.sinkState() ?? "?"))")
        }
        let alone = cpuMilliseconds(of: narratorServer.serverProcesses, over: cpuSeconds)

        let narrator = try NarratorSpeechClient(pulse: narratorServer, directory: directory + "/narrator")
        defer { narrator.stop() }
        let dispatcher = try PrivateSpeechDispatcher(pulse: spdServer, directory: directory + "/spd")
        defer { dispatcher.stop() }
        let narratorSSIP = try SSIPConnection(path: narrator.ssipSocket, server: "narratord")
        defer { narratorSSIP.close() }
        let spd = try SSIPConnection(path: dispatcher.socket, server: "speech-dispatcher")
        defer { spd.close() }
        let systems = [(narratorSSIP, narratorSink, narratorServer), (spd, spdSink, spdServer)]
        for (ssip, _, _) in systems {
            try ssip.command("SET SELF CLIENT_NAME user:bench:idle")
            try ssip.command("SET SELF NOTIFICATION ALL on")
            // Warm-up: speech-dispatcher starts its module, both open their first stream.
            let warm = try ssip.speak(text)
            _ = try ssip.waitForEvent(702, message: warm.message)
        }

        var cold: [[Double]] = [[], []]
        var suspended = [0, 0]
        var warmOnsets: [Double] = []
        for round in 0..<rounds {
            FileHandle.standardError.write(Data("idle: round \(round + 1) of \(rounds) (\(Int(idleSeconds)) s of silence first)\n".utf8))
            Thread.sleep(forTimeInterval: idleSeconds)
            for step in 0..<systems.count {
                let index = (step + round) % systems.count
                let (ssip, sink, server) = systems[index]
                if server.sinkState() == "SUSPENDED" { suspended[index] += 1 }
                cold[index].append(try onset(ssip, sink))
            }
            // A moment later narratord's stream is open and its sink running: the warm figure.
            warmOnsets.append(try onset(narratorSSIP, narratorSink))
        }

        // The server again, narratord idle with its SSIP client connected, its stream closed.
        guard narratorServer.waitForSink("SUSPENDED", timeout: .seconds(30)) else {
            throw Failure(description: "the sink did not suspend while narratord idled (\(narratorServer.sinkState() ?? "?"))")
        }
        let idle = cpuMilliseconds(of: narratorServer.serverProcesses, over: cpuSeconds)

        let spdName = SpeechDispatcherBenchmark.spdName
        let common = "\"\(text)\" by SSIP SPEAK after \(Int(idleSeconds)) s of silence, each system on a private PulseAudio server of its own "
            + "whose pipe sink module-suspend-on-idle suspends 1 s after its last stream; SPEAK's final \".\" to the first audible sample "
            + "(|x| >= \(SinkRecorder.audible)) in what the sink wrote, timed by the blocks written after the request; "
            + "sink suspended before the request: narratord \(suspended[0]) of \(rounds), speech-dispatcher \(suspended[1]) of \(rounds)"
            + "; samples at full scale (count, longest run) in all that each sink played: narratord \(narratorSink.fullScale()), speech-dispatcher \(spdSink.fullScale())"
        return [50.0, 99.0].map { p in
            BenchResult(
                name: "idle.onset.p\(Int(p))", value: Stats.percentile(cold[0], p) * 1000, unit: "ms",
                baseline: Stats.percentile(cold[1], p) * 1000, baselineName: spdName,
                note: p == 50
                    ? common + String(format: "; narratord a moment later, stream open and sink running: p50 %.3f ms; target ratio <= 0.5",
                                      Stats.median(warmOnsets) * 1000)
                    : "")
        } + [
            BenchResult(
                name: "idle.pulse.cpu", value: idle / cpuSeconds, unit: "ms/s", baseline: alone / cpuSeconds,
                baselineName: "the same server before narratord started",
                note: String(format: "CPU time (utime + stime) of the private PulseAudio server over %.0f s while narratord idles after speaking "
                    + "with an SSIP client connected, its stream closed and the sink suspended; target 0, as with no client", cpuSeconds)),
        ]
    }

    /// One SPEAK to its first audible sample at `sink`, then the message is let finish.
    static func onset(_ ssip: SSIPConnection, _ sink: SinkRecorder) throws -> Double {
        guard sink.waitForQuiet(0.15, timeout: 10) || sink.count == 0 else {
            throw Failure(description: "\(ssip.server)'s sink was still playing before the request")
        }
        let start = sink.count
        let said = try ssip.speak(text)
        guard let heard = sink.firstAudible(resumingAt: start) else {
            throw Failure(description: "nothing of \(ssip.server)'s message was heard at its sink within 5 s")
        }
        _ = try ssip.waitForEvent(702, message: said.message)
        return heard - said.sent
    }

    /// PipeWire's processes' CPU while narratord idles with a client, beside them with no client.
    static func serverCPU(_ server: PrivatePipeWireServer, name: String, directory: String) throws -> BenchResult {
        guard server.waitForSink("SUSPENDED", timeout: .seconds(30)) else {
            throw Failure(description: "the null sink did not suspend with no client (\(server.sinkState() ?? "?"))")
        }
        let alone = cpuMilliseconds(of: server.serverProcesses, over: cpuSeconds)
        let narrator = try NarratorSpeechClient(pulse: server, directory: directory)
        defer { narrator.stop() }
        let ssip = try SSIPConnection(path: narrator.ssipSocket, server: "narratord")
        defer { ssip.close() }
        try ssip.command("SET SELF NOTIFICATION ALL on")
        let said = try ssip.speak(text)
        _ = try ssip.waitForEvent(702, message: said.message)
        guard server.waitForSink("SUSPENDED", timeout: .seconds(30)) else {
            throw Failure(description: "the sink did not suspend while narratord idled (\(server.sinkState() ?? "?"))")
        }
        let idle = cpuMilliseconds(of: server.serverProcesses, over: cpuSeconds)
        return BenchResult(
            name: name, value: idle / cpuSeconds, unit: "ms/s", baseline: alone / cpuSeconds,
            baselineName: "the same server before narratord started",
            note: String(format: "CPU time of pipewire, pipewire-pulse and wireplumber (private, null sink suspended by WirePlumber 1 s after "
                + "it falls idle) over %.0f s while narratord idles after speaking with an SSIP client connected; target 0, as with no client",
                cpuSeconds))
    }

    /// The CPU time (user and system, in milliseconds) the processes `pids` use over `seconds`.
    static func cpuMilliseconds(of pids: [Int32], over seconds: Double) -> Double {
        let before = cpuTicks(pids)
        Thread.sleep(forTimeInterval: seconds)
        return Double(cpuTicks(pids) - before) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// utime + stime of each process, from /proc/PID/stat (fields 14 and 15, after the command's parentheses).
    static func cpuTicks(_ pids: [Int32]) -> Int {
        pids.reduce(0) { total, pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return total }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After ")": state is field 3, so utime (14) and stime (15) are at 11 and 12.
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return total }
            return total + user + system
        }
    }
}
