import Foundation
import NarratorPulseHarness
import NarratorSystem

/// narratord's engine processes (narrator-flite, narrator-piper) through SSIP, each beside its
/// baseline, all in one run and into one private PulseAudio null sink recorded at its monitor
/// (``SinkRecorder``), with the same SSIP client as the `spd` suite:
///
/// - eSpeak NG in a narratord that found both engines (`--engines auto`, the default) beside a
///   narratord started with `--engines none`: the engines must cost eSpeak nothing;
/// - Flite (`SET SELF OUTPUT_MODULE flite`) beside speech-dispatcher with its own Flite module
///   (sd_flite);
/// - Piper (`OUTPUT_MODULE piper`) beside Piper alone (``PiperAlone``): the same text and voice,
///   its model loaded;
/// - CANCEL to silence at the sink for each, Piper's while its model is computing the next sentence;
/// - resident memory of both narratords idle, and that no engine process runs before a job asks for one.
///
/// Onsets are warm: each engine has said a message before anything is measured.
enum EnginesBenchmark {
    /// Two sentences: Piper's onset is its first sentence's.
    static let text = "Hello there. How are you today?"
    /// Sentences Piper takes one model pass each for (under narrator-piper's 100-character cut).
    static let long = String(repeating: "Narrator keeps reading this long paragraph through every engine until something interrupts it. ", count: 8)
    static let warmUp = 2
    static let settleMemory = 2.0

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The servers of one run and the SSIP connections measured.
    struct Rig {
        let recorder: SinkRecorder
        let floor: ClickFloor
        let auto: NarratorSpeechClient
        let none: NarratorSpeechClient
        let dispatcher: PrivateSpeechDispatcher
        let espeakAuto: SSIPConnection
        let espeakNone: SSIPConnection
        let flite: SSIPConnection
        let piper: SSIPConnection
        let spdFlite: SSIPConnection
    }

    static func run(runs: Int) -> (results: [BenchResult], failures: [String]) {
        if let missing = PrivateSpeechDispatcher.missing(.flite) { return ([.skipped("engines", reason: missing)], []) }
        if let missing = PiperAlone.missing { return ([.skipped("engines", reason: missing)], []) }
        guard PrivatePulseServer.isInstalled else {
            return ([.skipped("engines", reason: "pulseaudio/pulseaudio-utils are not installed (every system plays into its null sink)")], [])
        }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        for engine in ["narrator-flite", "narrator-piper"] where !FileManager.default.isExecutableFile(atPath: beside + "/" + engine) {
            return ([.skipped("engines", reason: "no \(engine) beside narrator-bench in \(beside) (make piper CONFIG=release; swift build -c release)")], [])
        }
        do { try Syscall.becomeChildSubreaper() } catch { print("engines: speech-dispatcher's module may be left as a zombie: \(error)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-engines-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pulse = PrivatePulseServer()
        defer { pulse.stop() }
        var logs: [String] = []
        do {
            for sub in ["spd", "auto", "none"] {
                try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
            }
            try pulse.start()
            let recorder = try SinkRecorder(pulse: pulse, directory: directory)
            defer { recorder.stop() }
            let floor = try ClickFloor(pulse: pulse)
            let dispatcher = try PrivateSpeechDispatcher(pulse: pulse, directory: directory + "/spd", module: .flite)
            defer { dispatcher.stop() }
            logs += [dispatcher.log, dispatcher.directory + "/speech-dispatcher.log"]
            let auto = try NarratorSpeechClient(pulse: pulse, directory: directory + "/auto")
            defer { auto.stop() }
            let none = try NarratorSpeechClient(pulse: pulse, directory: directory + "/none", arguments: ["--engines", "none"])
            defer { none.stop() }
            logs += [auto.log, none.log]
            func connect(_ path: String, _ server: String, module: String?) throws -> SSIPConnection {
                let ssip = try SSIPConnection(path: path, server: server)
                try ssip.command("SET SELF CLIENT_NAME user:bench:engines")
                try ssip.command("SET SELF NOTIFICATION ALL on")
                if let module { try ssip.command("SET SELF OUTPUT_MODULE \(module)") }
                return ssip
            }
            let rig = Rig(
                recorder: recorder, floor: floor, auto: auto, none: none, dispatcher: dispatcher,
                espeakAuto: try connect(auto.ssipSocket, "narratord (eSpeak NG, engines found)", module: nil),
                espeakNone: try connect(none.ssipSocket, "narratord --engines none", module: nil),
                // Their modules are chosen in `warm`: choosing one starts its engine, which `idle` checks has not happened.
                flite: try connect(auto.ssipSocket, "narratord (Flite)", module: nil),
                piper: try connect(auto.ssipSocket, "narratord (Piper)", module: nil),
                spdFlite: try connect(dispatcher.socket, "speech-dispatcher (sd_flite)", module: nil))
            defer { for ssip in [rig.espeakAuto, rig.espeakNone, rig.flite, rig.piper, rig.spdFlite] { ssip.close() } }
            var failures: [String] = []
            var results = try idle(rig, failures: &failures)
            try warm(rig)
            results += try latencies(rig, runs: runs)
            results += try stoppedEngine(rig, runs: runs)
            return (results, failures)
        } catch {
            Report.failure("engines", error, logs: logs)
            return ([.skipped("engines", reason: "could not measure: \(error)")], ["engines: \(error)"])
        }
    }

    /// Both narratords before any engine job: no engine process may exist (checked when they are
    /// fresh and again after each has said one eSpeak NG message), and their resident memory then.
    static func idle(_ rig: Rig, failures: inout [String]) throws -> [BenchResult] {
        Thread.sleep(forTimeInterval: settleMemory)
        var found = engineChildren(of: rig.auto.pid) + engineChildren(of: rig.none.pid)
        for ssip in [rig.espeakAuto, rig.espeakNone] {
            try SpeechDispatcherBenchmark.quiet(rig.recorder, before: "\(ssip.server)'s one message")
            let spoken = try ssip.speak(text)
            _ = try ssip.waitForEvent(702, message: spoken.message)
        }
        try SpeechDispatcherBenchmark.quiet(rig.recorder, before: "measuring memory")
        Thread.sleep(forTimeInterval: settleMemory)
        let auto = SpeechDispatcherBenchmark.Resident(pid: rig.auto.pid)
        let none = SpeechDispatcherBenchmark.Resident(pid: rig.none.pid)
        found += engineChildren(of: rig.auto.pid) + engineChildren(of: rig.none.pid)
        if !found.isEmpty {
            failures.append("engines: an engine process ran before any job asked for one: " + found.map { "\($0.pid) \($0.command)" }.joined(separator: ", "))
        }
        let mib = 1_048_576.0
        let ratio = Double(auto.total) / Double(max(none.total, 1))
        return [
            BenchResult(
                name: "engines.idle.rss", value: Double(auto.total) / mib, unit: "MiB", baseline: Double(none.total) / mib,
                baselineName: "narratord --engines none",
                note: "VmRSS of narratord with narrator-flite and narrator-piper found and listed but unused, after one eSpeak NG SSIP message each (to 702 END) "
                    + "and \(Int(settleMemory)) s idle; auto \(auto.summary), none \(none.summary); "
                    + check(ratio <= 1.05, "ratio <= 1.05 (about 1.0x)")),
            BenchResult(
                name: "engines.idle.children", value: Double(found.count), unit: "processes",
                note: "engine processes (narrator-flite, narrator-piper) children of either narratord, fresh and after its eSpeak NG message, before any engine job; "
                    + check(found.isEmpty, "0 (the run fails otherwise)")),
        ]
    }

    /// Each engine chosen (`SET SELF OUTPUT_MODULE`, which starts it) and its first message, to its end.
    static func warm(_ rig: Rig) throws {
        try rig.flite.command("SET SELF OUTPUT_MODULE flite")
        // The voice sd_flite speaks (the only one it lists), so both sides synthesize the same.
        try rig.flite.command("SET SELF SYNTHESIS_VOICE kal16")
        try rig.piper.command("SET SELF OUTPUT_MODULE piper")
        for ssip in [rig.flite, rig.piper, rig.spdFlite] {
            try SpeechDispatcherBenchmark.quiet(rig.recorder, before: "\(ssip.server)'s first message")
            let spoken = try ssip.speak(text)
            _ = try ssip.waitForEvent(702, message: spoken.message, timeout: .seconds(60))
        }
        let running = engineChildren(of: rig.auto.pid).map(\.command)
        for engine in ["narrator-flite", "narrator-piper"] where !running.contains(where: { $0.contains(engine) }) {
            throw Failure(description: "\(engine) is not running after its first message: the message was not spoken by it (children: \(running))")
        }
    }

    /// Onset and CANCEL to silence of every system, `runs` samples each after `warmUp` rounds,
    /// in an order that turns every round; Piper alone before and after them, half its runs each.
    static func latencies(_ rig: Rig, runs: Int) throws -> [BenchResult] {
        var alone = try PiperAlone.firstAudio(text: text, runs: max(1, runs / 2))
        var floor = SpeechDispatcherBenchmark.Samples()
        var espeakAuto = floor, espeakNone = floor, flite = floor, spdFlite = floor, piper = floor
        var piperBusy = 0
        guard let piperPID = engineChildren(of: rig.auto.pid).first(where: { $0.command.contains("narrator-piper") })?.pid else {
            throw Failure(description: "narrator-piper is not running")
        }
        for index in 0..<(runs + warmUp) {
            let keep = index >= warmUp
            if index % 5 == 0 { FileHandle.standardError.write(Data("engines: run \(index + 1) of \(runs + warmUp)\n".utf8)) }
            let settle = 0.15 + Double(index % 5) * 0.01
            func ssip(_ connection: SSIPConnection, into samples: inout SpeechDispatcherBenchmark.Samples, beforeCancel: () -> Void = {}) throws {
                let sample = try SpeechDispatcherBenchmark.ssipSample(
                    connection, rig.recorder, settle: settle, short: text, long: long, beforeCancel: beforeCancel)
                if keep { samples.append(sample) }
            }
            let steps: [() throws -> Void] = [
                {
                    let sample = try SpeechDispatcherBenchmark.floorSample(rig.recorder, rig.floor, settle: settle)
                    if keep { floor.append(sample) }
                },
                { try ssip(rig.espeakAuto, into: &espeakAuto) },
                { try ssip(rig.espeakNone, into: &espeakNone) },
                { try ssip(rig.flite, into: &flite) },
                { try ssip(rig.spdFlite, into: &spdFlite) },
                {
                    try ssip(rig.piper, into: &piper) {
                        // While a model pass runs: Piper is ahead of playback and computes only
                        // when the pipe has room for the next piece (a few percent of the time),
                        // so the CANCEL waits (at most 10 s) until its CPU time grows: a pass has
                        // begun, and it lasts 100 ms or more.
                        // Computing: 2 ticks (20 ms of CPU) within the last 30 ms.
                        var recent = [cpuTicks(piperPID)]
                        let deadline = Date().addingTimeInterval(10)
                        while Date() < deadline {
                            Thread.sleep(forTimeInterval: 0.005)
                            recent = Array((recent + [cpuTicks(piperPID)]).suffix(7))
                            if recent.last! - recent.first! >= 2 {
                                if keep { piperBusy += 1 }
                                break
                            }
                        }
                    }
                },
            ]
            for step in 0..<steps.count {
                do {
                    try steps[(step + index) % steps.count]()
                } catch {
                    if keep { throw error }
                }
            }
        }
        alone += try PiperAlone.firstAudio(text: text, runs: max(1, runs - runs / 2))

        let onsetFloor = Stats.median(floor.onset)
        let silenceFloor = Stats.median(floor.silence)
        func above(_ floor: Double, _ values: [Double]) -> [Double] { values.map { $0 - floor } }
        func ms(_ values: [Double]) -> String { String(format: "%.3f ms", Stats.median(values) * 1000) }
        let common = "\"\(text)\" through SSIP, the same client for every system; same private PulseAudio null sink; n=\(runs)"
        let onset = "SPEAK's final \".\" sent to the first audible sample (|x| >= \(SinkRecorder.audible)) at the sink, above the floor's p50 (\(ms(floor.onset)))"
        let silence = "long text playing: CANCEL SELF sent to the end of the last audible sample at the sink, above the floor's p50 (\(ms(floor.silence)))"
        return [
            BenchResult(
                name: "engines.floor.onset.p50", value: onsetFloor * 1000, unit: "ms",
                note: "a 2.5 ms click into an idle, open pulse stream to its first sample at the sink (as in the spd suite); n=\(runs)"),
            BenchResult(
                name: "engines.floor.silence.p50", value: silenceFloor * 1000, unit: "ms",
                note: "a tone in the same stream, flushed, to the end of its last sample at the sink"),
        ]
            + rows(
                "engines.espeak.onset", above(onsetFloor, espeakAuto.onset), above(onsetFloor, espeakNone.onset),
                baseline: "narratord --engines none", ratioAtMost: 1.2,
                note: "eSpeak NG in narratord with both engines found (the default) beside --engines none: \(onset); \(common)")
            + rows(
                "engines.flite.onset", above(onsetFloor, flite.onset), above(onsetFloor, spdFlite.onset),
                baseline: "speech-dispatcher 0.11 + sd_flite, pulse", ratioAtMost: 0.5,
                note: "narratord's Flite (SET SELF OUTPUT_MODULE flite, voice kal16, sd_flite's) beside speech-dispatcher's Flite module: \(onset); "
                    + "raw p50 \(ms(flite.onset)) vs \(ms(spdFlite.onset))")
            + rows(
                "engines.piper.onset", above(onsetFloor, piper.onset), alone,
                baseline: "Piper alone (piper_alone.py, same text and voice, model loaded): synthesize to the first audible sample of its audio", ratioAtMost: 1.2,
                note: "narratord's Piper (OUTPUT_MODULE piper, its first sentence, warm): \(onset); raw p50 \(ms(piper.onset)); "
                    + "Piper alone runs half before and half after the others, n=\(alone.count)")
            + rows(
                "engines.espeak.silence", above(silenceFloor, espeakAuto.silence), above(silenceFloor, espeakNone.silence),
                baseline: "narratord --engines none", underMilliseconds: 5,
                note: "eSpeak NG, engines found: \(silence)")
            + rows(
                "engines.flite.silence", above(silenceFloor, flite.silence), above(silenceFloor, spdFlite.silence),
                baseline: "speech-dispatcher 0.11 + sd_flite, pulse", ratioAtMost: 0.1, underMilliseconds: 5,
                note: "Flite: \(silence); raw p50 \(ms(flite.silence)) vs \(ms(spdFlite.silence))")
            + rows(
                "engines.piper.silence", above(silenceFloor, piper.silence), above(silenceFloor, espeakNone.silence),
                baseline: "eSpeak NG in narratord --engines none", underMilliseconds: 5,
                note: "Piper: \(silence); sent while narrator-piper was computing (20 ms of CPU time in the 30 ms before the CANCEL) in \(piperBusy) of \(runs)")
            + rows(
                "engines.piper.cancel.event", piper.cancelEvent, espeakNone.cancelEvent,
                baseline: "eSpeak NG in narratord --engines none",
                note: "same runs: CANCEL SELF sent to 703 CANCELED")
    }

    /// Another client's replies while narrator-piper is stopped (SIGSTOP) mid-text, beside the
    /// same while it speaks normally: the engine's threads are not the loop's, so nobody waits.
    /// Then the engine is given up at its 2 s bound and started again; the suite waits for it.
    static func stoppedEngine(_ rig: Rig, runs: Int) throws -> [BenchResult] {
        func roundTrips() throws -> [Double] {
            try (0..<runs).map { _ in
                let start = Date()
                _ = try rig.espeakAuto.command("SET SELF RATE 0")
                return Date().timeIntervalSince(start)
            }
        }
        guard let piper = engineChildren(of: rig.auto.pid).first(where: { $0.command.contains("narrator-piper") })?.pid else {
            throw Failure(description: "narrator-piper is not running")
        }
        try SpeechDispatcherBenchmark.quiet(rig.recorder, before: "Piper's long message")
        var spoken = try rig.piper.speak(long)
        _ = try rig.piper.waitForEvent(701, message: spoken.message, timeout: .seconds(30))
        let normal = try roundTrips()
        _ = try rig.piper.cancelSelf(message: spoken.message)
        try SpeechDispatcherBenchmark.quiet(rig.recorder, before: "Piper's long message, to be stopped")
        spoken = try rig.piper.speak(long)
        _ = try rig.piper.waitForEvent(701, message: spoken.message, timeout: .seconds(30))
        kill(piper, SIGSTOP)
        let stopped = try roundTrips()
        _ = try rig.piper.cancelSelf(message: spoken.message)
        // Given up at the bound, killed, and started again by narratord.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !engineChildren(of: rig.auto.pid).contains(where: { $0.command.contains("narrator-piper") && $0.pid != piper }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let back = engineChildren(of: rig.auto.pid).contains { $0.command.contains("narrator-piper") && $0.pid != piper }
        kill(piper, SIGCONT)
        if !back { throw Failure(description: "narrator-piper did not come back within 30 s of its SIGSTOP") }
        return rows(
            "engines.stopped.reply", stopped, normal, baseline: "the same client while narrator-piper speaks normally", ratioAtMost: 2,
            note: "another SSIP client's SET SELF RATE round trip while narrator-piper is stopped (SIGSTOP) mid-text, n=\(runs); narratord gave it up and started a new one")
    }

    /// p50 and p99 rows beside the baseline's, each with its targets checked.
    static func rows(
        _ name: String, _ values: [Double], _ baseline: [Double], baseline baselineName: String,
        ratioAtMost: Double? = nil, underMilliseconds: Double? = nil, note: String
    ) -> [BenchResult] {
        [50.0, 99.0].map { p in
            let value = Stats.percentile(values, p) * 1000
            let base = Stats.percentile(baseline, p) * 1000
            var checks: [String] = []
            if let ratioAtMost { checks.append(check(base > 0 && value / base <= ratioAtMost, "ratio <= \(ratioAtMost)")) }
            if let underMilliseconds { checks.append(check(value < underMilliseconds, "under \(underMilliseconds) ms")) }
            return BenchResult(
                name: "\(name).p\(Int(p))", value: value, unit: "ms", baseline: base, baselineName: baselineName,
                note: ((p == 50 ? note + "; " : "") + checks.joined(separator: ", ")))
        }
    }

    /// "target X: met" or "target X: MISSED".
    static func check(_ met: Bool, _ target: String) -> String { "target \(target): " + (met ? "met" : "MISSED") }

    /// The engine processes among `pid`'s children, by their command line.
    static func engineChildren(of pid: Int32) -> [(pid: Int32, command: String)] {
        ProcessActivity.children(of: pid).compactMap { child in
            let command = ((try? Syscall.readFile("/proc/\(child)/cmdline")).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\0").joined(separator: " ")
            return command.contains("narrator-flite") || command.contains("narrator-piper") ? (child, command) : nil
        }
    }

    /// User and system CPU time of `pid` so far, in clock ticks (/proc/PID/stat).
    static func cpuTicks(_ pid: Int32) -> Int {
        let stat = (try? Syscall.readFile("/proc/\(pid)/stat")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
