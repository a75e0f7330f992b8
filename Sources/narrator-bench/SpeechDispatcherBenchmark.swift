import Foundation
import NarratorPulseHarness
import NarratorSystem

/// Narrator beside Speech Dispatcher (Debian's speech-dispatcher with its eSpeak NG module), both
/// started by this run and both playing into the same private PulseAudio null sink, whose monitor
/// is recorded (``SinkRecorder``), with the same text:
///
/// - through SSIP, the same client code against both servers: SPEAK to 701 BEGIN, request to
///   audible onset at the sink above the floor (``ClickFloor``), CANCEL to 703 and to silence at
///   the sink, messages accepted per second, what idle SSIP clients cost in wake-ups, and the
///   time to list every voice and variant;
/// - narratord's own JSON protocol (`speak`, `stop`) against the same speech-dispatcher runs;
/// - resident memory after one message, narratord beside speech-dispatcher and its eSpeak NG
///   module together (``idleMemory(_:)``), measured first, on the fresh servers.
///
/// Samples alternate between the systems (in an order that turns every round) so that all of
/// them see the same machine. When speech-dispatcher or PulseAudio is missing, the suite prints
/// a row saying so and measures nothing.
enum SpeechDispatcherBenchmark {
    static let text = SpeechBenchmark.text
    static let long = SpeechBenchmark.long
    static let warmUp = 3
    static let spdName = "speech-dispatcher 0.11 + sd_espeak-ng, pulse"

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// One speech server's samples, in seconds.
    struct Samples {
        /// Request to the server's report that speech began (701 BEGIN, or narratord's `started`).
        var begin: [Double] = []
        /// Request to the first audible sample at the sink.
        var onset: [Double] = []
        var cancelReply: [Double] = []
        /// Cancel to the server's report (703 CANCELED, or the utterance's final event).
        var cancelEvent: [Double] = []
        /// Cancel to the end of the last audible sample at the sink.
        var silence: [Double] = []
    }

    /// The systems of one run, and where their samples go.
    struct Rig {
        let recorder: SinkRecorder
        let floor: ClickFloor
        let dispatcher: PrivateSpeechDispatcher
        let narrator: NarratorSpeechClient
        let spd: SSIPConnection
        let narratorSSIP: SSIPConnection
    }

    static func run(runs: Int) -> [BenchResult] {
        if let missing = PrivateSpeechDispatcher.missing {
            return [.skipped("spd", reason: missing)]
        }
        guard PrivatePulseServer.isInstalled else {
            return [.skipped("spd", reason: "pulseaudio/pulseaudio-utils are not installed (both systems play into its null sink)")]
        }
        // speech-dispatcher's output modules come back here when it is killed, to be reaped.
        do { try Syscall.becomeChildSubreaper() } catch { print("spd: its output modules may be left as zombies: \(error)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-bench-spd-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pulse = PrivatePulseServer()
        defer { pulse.stop() }
        var logs: [String] = []
        do {
            try FileManager.default.createDirectory(atPath: directory + "/spd", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: directory + "/narrator", withIntermediateDirectories: true)
            try pulse.start()
            let recorder = try SinkRecorder(pulse: pulse, directory: directory)
            defer { recorder.stop() }
            let floor = try ClickFloor(pulse: pulse)
            let dispatcher = try PrivateSpeechDispatcher(pulse: pulse, directory: directory + "/spd")
            defer { dispatcher.stop() }
            logs += [dispatcher.log, dispatcher.directory + "/speech-dispatcher.log"]
            let narrator = try NarratorSpeechClient(pulse: pulse, directory: directory + "/narrator")
            defer { narrator.stop() }
            logs.append(narrator.log)
            let spd = try SSIPConnection(path: dispatcher.socket, server: "speech-dispatcher")
            defer { spd.close() }
            let narratorSSIP = try SSIPConnection(path: narrator.ssipSocket, server: "narratord")
            defer { narratorSSIP.close() }
            for ssip in [spd, narratorSSIP] {
                try ssip.command("SET SELF CLIENT_NAME user:bench:main")
                try ssip.command("SET SELF NOTIFICATION ALL on")
            }
            let rig = Rig(recorder: recorder, floor: floor, dispatcher: dispatcher, narrator: narrator, spd: spd, narratorSSIP: narratorSSIP)
            // Memory first, while both servers have said one message and nothing more.
            var results = try idleMemory(rig)
            results += try latencies(rig, runs: runs)
            results += try idleWakeups(rig)
            results += try acceptRate(rig)
            results += try voiceList(rig, runs: 10)
            return results
        } catch {
            Report.failure("spd", error, logs: logs)
            return [.skipped("spd", reason: "could not measure: \(error)")]
        }
    }

    /// Begin, onset, cancel and silence for every system, and the floor, `runs` samples each.
    static func latencies(_ rig: Rig, runs: Int) throws -> [BenchResult] {
        var floor = Samples()
        var spd = Samples()
        var ssip = Samples()
        var json = Samples()
        var jsonPhases: [String: Int] = [:]
        for index in 0..<(runs + warmUp) {
            let keep = index >= warmUp
            if index % 10 == 0 { FileHandle.standardError.write(Data("spd: run \(index + 1) of \(runs + warmUp)\n".utf8)) }
            let settle = 0.15 + Double(index % 5) * 0.01
            let steps: [() throws -> Void] = [
                {
                    let sample = try floorSample(rig.recorder, rig.floor, settle: settle)
                    if keep { floor.append(sample) }
                },
                {
                    let sample = try ssipSample(rig.spd, rig.recorder, settle: settle)
                    if keep { spd.append(sample) }
                },
                {
                    let sample = try ssipSample(rig.narratorSSIP, rig.recorder, settle: settle)
                    if keep { ssip.append(sample) }
                },
                {
                    let (sample, phase) = try jsonSample(rig.narrator, rig.recorder, settle: settle)
                    if keep {
                        json.append(sample)
                        jsonPhases[phase, default: 0] += 1
                    }
                },
            ]
            for step in 0..<steps.count {
                do {
                    try steps[(step + index) % steps.count]()
                } catch {
                    // Warm-up rounds are there to wake the sink, the servers and their streams: the
                    // very first click into a just-opened stream can be lost while the sink resumes.
                    if keep { throw error }
                }
            }
        }

        let onsetFloor = Stats.median(floor.onset)
        let silenceFloor = Stats.median(floor.silence)
        let common = "same private PulseAudio null sink, n=\(runs)"
        let phases = jsonPhases.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        func above(_ floor: Double, _ values: [Double]) -> [Double] { values.map { $0 - floor } }
        func ms(_ values: [Double]) -> String { String(format: "%.3f ms", Stats.median(values) * 1000) }
        let clock = "times at the sink are on its sample clock, whose origin is within the sink's block (about 5 ms) of the truth; differences are exact to a sample"
        return [
            BenchResult(
                name: "floor.onset.p50", value: onsetFloor * 1000, unit: "ms",
                note: "a 2.5 ms click written into an already-open, idle pulse stream (pcaudiolib, as narratord's) to its first sample at the sink; "
                    + String(format: "p99 %.3f ms; %@; %@", Stats.percentile(floor.onset, 99) * 1000, common, clock)),
            BenchResult(
                name: "floor.silence.p50", value: silenceFloor * 1000, unit: "ms",
                note: "a tone playing in the same stream, flushed (pa_simple_flush), to the end of its last sample at the sink; "
                    + String(format: "p99 %.3f ms", Stats.percentile(floor.silence, 99) * 1000)),
        ]
            + rows(
                "ssip.begin", ssip.begin, spd.begin,
                note: "\"\(text)\": SPEAK's final \".\" sent to 701 BEGIN, the same SSIP client (it sends nothing after the 225) against narratord --ssip and speech-dispatcher; "
                    + "narratord holds a connection's events until its next line or 50 ms after a 225, so that python3-speechd's callbacks see them (docs/ssip.md, Events): "
                    + "this row is that hold, not the audio (ssip.onset is); \(common)")
            + rows(
                "ssip.onset", above(onsetFloor, ssip.onset), above(onsetFloor, spd.onset),
                note: "same runs: SPEAK's final \".\" sent to the first audible sample (|x| >= \(SinkRecorder.audible)) at the sink, above the floor's p50; "
                    + "raw p50 \(ms(ssip.onset)) vs \(ms(spd.onset)); target ratio <= 0.25")
            + rows(
                "ssip.cancel.event", ssip.cancelEvent, spd.cancelEvent,
                note: "long text playing: CANCEL SELF sent to 703 CANCELED")
            + rows(
                "ssip.cancel.reply", ssip.cancelReply, spd.cancelReply,
                note: "same runs: CANCEL SELF sent to 213 OK CANCELED")
            + rows(
                "ssip.silence", above(silenceFloor, ssip.silence), above(silenceFloor, spd.silence),
                note: "same runs: CANCEL SELF sent to the end of the last audible sample at the sink, above the floor's p50; "
                    + "raw p50 \(ms(ssip.silence)) vs \(ms(spd.silence)); target ratio <= 0.1")
            + rows(
                "spd.begin", json.begin, spd.begin,
                note: "narratord's JSON speak sent to its \"started\" event (its scheduler handing the utterance to the engine, before audio reaches the sink), "
                    + "beside SSIP's \".\" to 701 BEGIN; target ratio <= 0.5")
            + rows(
                "json.onset", above(onsetFloor, json.onset), above(onsetFloor, spd.onset),
                note: "narratord's JSON speak sent to the first audible sample at the sink, above the floor's p50; raw p50 \(ms(json.onset))")
            + rows(
                "spd.cancel.event", json.cancelEvent, spd.cancelEvent,
                note: "long text playing: narratord's JSON stop sent to the utterance's final event (\(phases)) beside CANCEL SELF to 703; target ratio <= 0.5")
            + rows(
                "spd.cancel.reply", json.cancelReply, spd.cancelReply,
                note: "same runs: JSON stop sent to its reply beside CANCEL SELF to its 213 reply")
            + rows(
                "json.silence", above(silenceFloor, json.silence), above(silenceFloor, spd.silence),
                note: "same runs: JSON stop sent to the end of the last audible sample at the sink, above the floor's p50; raw p50 \(ms(json.silence))")
    }

    /// The floor: a click into the idle stream, to its first sample at the sink; a tone flushed
    /// after `settle` seconds, to the end of its last sample there.
    static func floorSample(_ recorder: SinkRecorder, _ floor: ClickFloor, settle: Double) throws -> Samples {
        try quiet(recorder, before: "the floor's click")
        let sent = try floor.click()
        guard let heard = recorder.firstAudible(after: sent) else {
            throw Failure(description: "the floor's click was not heard at the sink within 5 s (\(recorder.describe(around: sent)))")
        }
        try quiet(recorder, before: "the floor's tone")
        let flushed = try floor.flushedTone(recorder: recorder, after: settle)
        guard let silent = recorder.silence(after: flushed) else { throw Failure(description: "the sink did not fall silent after the floor's flush") }
        return Samples(onset: [heard - sent], silence: [silent - flushed])
    }

    /// One SSIP sample: a short message from silence (begin, onset; then cancelled) and a long
    /// one cancelled after `settle` seconds of playing, at a moment something is heard;
    /// `beforeCancel` runs just before that CANCEL (to look at the engine then).
    static func ssipSample(
        _ ssip: SSIPConnection, _ recorder: SinkRecorder, settle: Double, short text: String = text, long: String = long,
        beforeCancel: () -> Void = {}
    ) throws -> Samples {
        var samples = Samples()
        try quiet(recorder, before: "\(ssip.server)'s message")
        let short = try ssip.speak(text)
        // The event first, read as it arrives; the sink keeps every sample, so its onset is found afterwards.
        let began = try ssip.waitForEvent(701, message: short.message)
        guard let heard = recorder.firstAudible(after: short.sent) else {
            throw Failure(description: "nothing of \(ssip.server)'s message was heard at the sink within 5 s (\(recorder.describe(around: short.sent)))")
        }
        _ = try ssip.cancelSelf(message: short.message)
        samples.begin.append(began - short.sent)
        samples.onset.append(heard - short.sent)

        try quiet(recorder, before: "\(ssip.server)'s long message")
        let message = try ssip.speak(long)
        _ = try ssip.waitForEvent(701, message: message.message)
        Thread.sleep(forTimeInterval: settle)
        recorder.waitForLoud()
        beforeCancel()
        let cancel = try ssip.cancelSelf(message: message.message)
        guard cancel.code == 703 else { throw Failure(description: "\(ssip.server)'s long message ended before CANCEL took effect") }
        guard let silent = recorder.silence(after: cancel.sent) else { throw Failure(description: "the sink did not fall silent after \(ssip.server)'s CANCEL") }
        samples.cancelReply.append(cancel.reply)
        samples.cancelEvent.append(cancel.event)
        samples.silence.append(silent - cancel.sent)
        return samples
    }

    /// The same through narratord's JSON protocol: `speak` and `stop`; also the stop's final phase.
    static func jsonSample(_ narrator: NarratorSpeechClient, _ recorder: SinkRecorder, settle: Double) throws -> (Samples, String) {
        var samples = Samples()
        try quiet(recorder, before: "narratord's speak")
        let short = try narrator.speak(text)
        let started = try narrator.waitForEvent(["started"], utterance: short.speech, early: short.early)
        guard let heard = recorder.firstAudible(after: short.sent) else {
            throw Failure(description: "nothing of narratord's speak was heard at the sink within 5 s (\(recorder.describe(around: short.sent)))")
        }
        _ = try narratorStop(narrator, utterance: short.speech)
        samples.begin.append(started.at - short.sent)
        samples.onset.append(heard - short.sent)

        try quiet(recorder, before: "narratord's long speak")
        let spoken = try narrator.speak(long)
        _ = try narrator.waitForEvent(["started"], utterance: spoken.speech, early: spoken.early)
        Thread.sleep(forTimeInterval: settle)
        recorder.waitForLoud()
        let stop = try narratorStop(narrator, utterance: spoken.speech)
        guard stop.phase != "finished" else { throw Failure(description: "narratord's long utterance finished before stop took effect") }
        guard let silent = recorder.silence(after: stop.sent) else { throw Failure(description: "the sink did not fall silent after narratord's stop") }
        samples.cancelReply.append(stop.reply)
        samples.cancelEvent.append(stop.event)
        samples.silence.append(silent - stop.sent)
        return (samples, stop.phase)
    }

    static func quiet(_ recorder: SinkRecorder, before what: String) throws {
        guard recorder.waitForQuiet() else { throw Failure(description: "the sink was still playing after 10 s, before \(what)") }
    }

    /// `stop` while `utterance` plays: when it was sent, the times from then to the reply and to
    /// the utterance's final event, and that event's phase.
    static func narratorStop(_ narrator: NarratorSpeechClient, utterance: Int) throws -> (sent: Double, reply: Double, event: Double, phase: String) {
        let (id, sent) = try narrator.send(#""cmd": "stop""#)
        var reply: Double?
        var event: (at: Double, phase: String)?
        while reply == nil || event == nil {
            let line = try narrator.next()
            if !line.isEvent, line.id == id {
                guard line.object["ok"] as? Bool == true else { throw NarratorSpeechClient.Failure(description: "stop failed: \(line.object)") }
                reply = line.at - sent
            } else if line.isEvent, line.utterance == utterance, let phase = line.phase,
                ["finished", "interrupted", "dropped"].contains(phase)
            {
                event = (line.at - sent, phase)
            }
        }
        return (sent, reply ?? 0, event?.at ?? 0, event?.phase ?? "")
    }

    static func rows(_ name: String, _ narrator: [Double], _ spd: [Double], note: String) -> [BenchResult] {
        [50.0, 99.0].map { p in
            BenchResult(
                name: "\(name).p\(Int(p))", value: Stats.percentile(narrator, p) * 1000, unit: "ms",
                baseline: Stats.percentile(spd, p) * 1000, baselineName: spdName, note: p == 50 ? note : "")
        }
    }
}

extension SpeechDispatcherBenchmark.Samples {
    mutating func append(_ other: Self) {
        begin += other.begin
        onset += other.onset
        cancelReply += other.cancelReply
        cancelEvent += other.cancelEvent
        silence += other.silence
    }
}
