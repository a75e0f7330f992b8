import Foundation
import NarratorPulseHarness
import NarratorSystem

/// What linking the Swift runtime into narratord (`--static-swift-stdlib`, as `make deb` builds
/// it, so that the package needs no toolchain) costs beside the release build that loads it from
/// the toolchain's shared libraries:
///
/// - resident memory once each has said one message and gone idle;
/// - the first words of a daemon that was not running: from starting narratord (as socket
///   activation does on a user's first connection) to the first audible sample of an SSIP SPEAK
///   sent as soon as it accepts, which is where loading the runtime from shared libraries or not
///   can show. A warm SPEAK's onset is the same code either way, and below what the sink's
///   blocks can time.
///
/// Each daemon plays into a private PulseAudio server of its own whose pipe sink is heard through
/// its FIFO, on the system clock (as the idle suite's onset rows), its sink kept awake; the two
/// are started in an order that turns every round.
enum StaticRuntimeBenchmark {
    static let warmUp = 2
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A daemon kept running for the memory figure, and its SSIP connection.
    struct Daemon {
        let narrator: NarratorSpeechClient
        let ssip: SSIPConnection
    }

    /// - Parameter daemon: the statically linked narratord (`make bench` builds it into
    ///   `.build/static`); the dynamic one is the release build beside this binary.
    static func run(runs: Int, daemon: String) -> [BenchResult] {
        guard FileManager.default.isExecutableFile(atPath: daemon) else {
            return [.skipped("static", reason: "no statically linked narratord at \(daemon): make bench builds it "
                + "(make static-build STATIC_BUILD_ARGS=\"--scratch-path .build/static --product narratord\")")]
        }
        guard PrivatePulseServer.isInstalled else {
            return [.skipped("static", reason: "pulseaudio/pulseaudio-utils are not installed")]
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-static-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var logs: [String] = []
        var servers: [PrivatePulseServer] = []
        var sinks: [SinkRecorder] = []
        var daemons: [Daemon] = []
        defer {
            for each in daemons {
                each.ssip.close()
                each.narrator.stop()
            }
            for sink in sinks { sink.stop() }
            for server in servers { server.stop() }
        }
        do {
            // [0]: the static runtime, [1]: the shared one.
            for (name, path) in [("static", Optional(daemon)), ("dynamic", nil)] {
                try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true)
                let server = PrivatePulseServer(keepSinkAwake: true, pipeSink: directory + "/\(name)-sink.fifo")
                servers.append(server)
                try server.start()
                let sink = try SinkRecorder(pipeOf: server)
                sinks.append(sink)
                let narrator = try NarratorSpeechClient(pulse: server, directory: directory + "/" + name, daemon: path)
                logs.append(narrator.log)
                let ssip = try SSIPConnection(path: narrator.ssipSocket, server: "narratord (\(name) runtime)")
                daemons.append(Daemon(narrator: narrator, ssip: ssip))
                try ssip.command("SET SELF CLIENT_NAME user:bench:static")
                try ssip.command("SET SELF NOTIFICATION ALL on")
            }
            // Memory first, each having said one message and nothing more.
            for each in daemons {
                let spoken = try each.ssip.speak(SpeechDispatcherBenchmark.text)
                _ = try each.ssip.waitForEvent(702, message: spoken.message)
            }
            Thread.sleep(forTimeInterval: SpeechDispatcherBenchmark.memorySettleSeconds)
            let memory = daemons.map { SpeechDispatcherBenchmark.Resident(pid: $0.narrator.pid) }

            for each in daemons {
                each.ssip.close()
                each.narrator.stop()
            }
            daemons.removeAll()
            var firstWords: [[Double]] = [[], []]
            for round in 0..<(runs + warmUp) {
                for step in 0..<2 {
                    let index = (step + round) % 2
                    let heard = try coldStart(
                        daemon: index == 0 ? daemon : nil, server: servers[index], sink: sinks[index],
                        directory: directory + "/cold-\(round)-\(index)")
                    if round >= warmUp { firstWords[index].append(heard) }
                }
            }
            let mib = 1_048_576.0
            let baselineName = "the same release build, Swift runtime loaded from the toolchain"
            return [
                BenchResult(
                    name: "static.idle.rss", value: Double(memory[0].total) / mib, unit: "MiB",
                    baseline: Double(memory[1].total) / mib, baselineName: baselineName,
                    note: "VmRSS after one SSIP message each, heard to 702 END, then \(Int(SpeechDispatcherBenchmark.memorySettleSeconds)) s idle; "
                        + "static \(memory[0].summary), shared \(memory[1].summary)"),
            ]
                + BenchResult.percentiles(
                    "static.cold.onset", firstWords[0], beside: firstWords[1], baselineName: baselineName,
                    note: "narratord started (fork and exec) to the first audible sample (|x| >= \(SinkRecorder.audible)) of \"\(SpeechDispatcherBenchmark.text)\", "
                        + "SSIP SPEAK sent once its sockets accept (polled every 10 ms); each daemon on a private PulseAudio server of its own, "
                        + "heard through its pipe sink's FIFO (sink kept awake), turns alternating, n=\(runs)", target: "")
        } catch {
            Report.failure("static", error, logs: logs)
            return [.skipped("static", reason: "could not measure: \(error)")]
        }
    }

    /// Starts narratord (`daemon`, or the release build beside this binary when nil), says one
    /// message through SSIP as soon as it accepts, and returns the seconds from the start to the
    /// message's first audible sample at `sink`; the daemon is stopped (mid-message) before this
    /// returns.
    static func coldStart(daemon: String?, server: PrivatePulseServer, sink: SinkRecorder, directory: String) throws -> Double {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard sink.waitForQuiet(0.15, timeout: 10) || sink.count == 0 else {
            throw Failure(description: "the sink was still playing before narratord started")
        }
        let start = sink.count
        let started = Clock.now()
        let narrator = try NarratorSpeechClient(pulse: server, directory: directory, daemon: daemon)
        defer { narrator.stop() }
        let ssip = try SSIPConnection(path: narrator.ssipSocket, server: "narratord")
        defer { ssip.close() }
        _ = try ssip.speak(SpeechDispatcherBenchmark.text)
        guard let heard = sink.firstAudible(resumingAt: start) else {
            throw Failure(description: "nothing of the first message was heard at the sink within 5 s")
        }
        return heard - started
    }
}
