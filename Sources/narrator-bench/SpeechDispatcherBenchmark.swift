import Foundation
import NarratorPulseHarness
import NarratorSystem

/// Narrator beside Speech Dispatcher (Debian's speech-dispatcher with its eSpeak NG module), both
/// started by this run and both playing into the same private PulseAudio null sink, with the same
/// text: request-to-begin of a short utterance, and cancel of a long one to the "cancelled" event
/// (and to the reply). Runs alternate between the two systems so that both see the same machine.
/// When speech-dispatcher or PulseAudio is missing, the suite prints a row saying so and measures nothing.
enum SpeechDispatcherBenchmark {
    static let text = SpeechBenchmark.text
    static let long = SpeechBenchmark.long
    static let warmUp = 3

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
        do {
            try FileManager.default.createDirectory(atPath: directory + "/spd", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: directory + "/narrator", withIntermediateDirectories: true)
            try pulse.start()
            let dispatcher = try PrivateSpeechDispatcher(pulse: pulse, directory: directory + "/spd")
            defer { dispatcher.stop() }
            let narrator = try NarratorSpeechClient(pulse: pulse, directory: directory + "/narrator")
            defer { narrator.stop() }
            let ssip = try SSIPConnection(path: dispatcher.socket)
            defer { ssip.close() }
            try ssip.command("SET SELF CLIENT_NAME user:bench:main")
            try ssip.command("SET SELF NOTIFICATION ALL on")
            let output = try narrator.audioOutput()
            do {
                return try measure(ssip: ssip, narrator: narrator, output: output, runs: runs)
            } catch {
                for log in [dispatcher.log, dispatcher.directory + "/speech-dispatcher.log", narrator.log] {
                    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    print("spd: \(log) ends with:\n\(text.suffix(1_500))")
                }
                throw error
            }
        } catch {
            print("spd: failed: \(error)")
            return [.skipped("spd", reason: "could not measure: \(error)")]
        }
    }

    static func measure(ssip: SSIPConnection, narrator: NarratorSpeechClient, output: String, runs: Int) throws -> [BenchResult] {
        var begin = (narrator: [Double](), spd: [Double]())
        var cancelEvent = (narrator: [Double](), spd: [Double]())
        var cancelReply = (narrator: [Double](), spd: [Double]())
        var narratorCancelPhases: [String: Int] = [:]

        for index in 0..<(runs + warmUp) {
            let keep = index >= warmUp
            if index % 10 == 0 { FileHandle.standardError.write(Data("spd: run \(index + 1) of \(runs + warmUp)\n".utf8)) }
            // Begin: the short text spoken to its end, so that each sample starts from silence.
            let message = try ssip.speak(text)
            let spdBegin = try ssip.waitForEvent(701, message: message.message)
            _ = try ssip.waitForEvent(702, message: message.message)

            let spoken = try narrator.speak(text)
            let started = try narrator.waitForEvent(["started"], utterance: spoken.speech, early: spoken.early)
            _ = try narrator.waitForEvent(["finished", "interrupted", "dropped"], utterance: spoken.speech, early: spoken.early)
            if keep {
                begin.spd.append(spdBegin - message.sent)
                begin.narrator.append(started.at - spoken.sent)
            }

            // Cancel: a long text that has been playing for a while, as when a user silences speech.
            let settle = 0.15 + Double(index % 5) * 0.01
            let longMessage = try ssip.speak(long)
            _ = try ssip.waitForEvent(701, message: longMessage.message)
            Thread.sleep(forTimeInterval: settle)
            let (spdReply, spdEvent) = try spdCancel(ssip, message: longMessage.message)

            let longSpoken = try narrator.speak(long)
            _ = try narrator.waitForEvent(["started"], utterance: longSpoken.speech, early: longSpoken.early)
            Thread.sleep(forTimeInterval: settle)
            let (narratorReply, narratorEvent, phase) = try narratorStop(narrator, utterance: longSpoken.speech)
            if keep {
                cancelReply.spd.append(spdReply)
                cancelEvent.spd.append(spdEvent)
                cancelReply.narrator.append(narratorReply)
                cancelEvent.narrator.append(narratorEvent)
                narratorCancelPhases[phase, default: 0] += 1
            }
        }

        let spdName = "speech-dispatcher 0.11 + sd_espeak-ng, pulse"
        let phases = narratorCancelPhases.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let common = "same private PulseAudio null sink, narratord audio: \(output), n=\(runs)"
        return rows(
            "spd.begin", begin.narrator, begin.spd, baselineName: spdName,
            note: "\"\(text)\": narratord speak sent to its \"started\" event (emitted when its scheduler hands the utterance to the engine, "
                    + "before audio reaches the sink); SSIP final \".\" sent to 701 BEGIN (reported by the output module); \(common); target ratio <= 0.5")
            + rows(
                "spd.cancel.event", cancelEvent.narrator, cancelEvent.spd, baselineName: spdName,
                note: "long text playing: narratord stop sent to the utterance's final event (\(phases); emitted at the stop decision, "
                    + "not when the sink went silent); CANCEL SELF sent to 703 CANCELED (after the output module confirmed the stop); target ratio <= 0.5")
            + rows(
                "spd.cancel.reply", cancelReply.narrator, cancelReply.spd, baselineName: spdName,
                note: "same runs: narratord stop sent to its reply; CANCEL SELF sent to its 213 OK CANCELED reply")
    }

    /// CANCEL SELF while `message` plays: times from sending it to the 2xx reply and to 703 CANCELED.
    static func spdCancel(_ ssip: SSIPConnection, message: String) throws(SSIPError) -> (reply: Double, event: Double) {
        let sent = try ssip.send("CANCEL SELF")
        var reply: Double?
        var event: Double?
        var current: String?
        while reply == nil || event == nil {
            let line = try ssip.next(waitingFor: "the reply to CANCEL SELF and 703 CANCELED")
            guard let code = line.code else { continue }
            if code < 300 {
                if line.isFinal { reply = line.at - sent }
                continue
            }
            guard code >= 700 else { throw .unexpected(line: line.text, waitingFor: "a 2xx reply to CANCEL SELF") }
            if !line.isFinal {
                if current == nil { current = line.data }  // 7xx-<message>, then 7xx-<client>
                continue
            }
            if current == message {
                guard code == 703 else { throw .unexpected(line: line.text, waitingFor: "703 CANCELED for message \(message)") }
                event = line.at - sent
            }
            current = nil
        }
        return (reply ?? 0, event ?? 0)
    }

    /// `stop` while `utterance` plays: times from sending it to the reply and to the utterance's
    /// final event (`interrupted` or `dropped`), and that event's phase.
    static func narratorStop(_ narrator: NarratorSpeechClient, utterance: Int) throws -> (reply: Double, event: Double, phase: String) {
        let (id, sent) = try narrator.send(#""cmd": "stop""#)
        var reply: Double?
        var event: (at: Double, phase: String)?
        while reply == nil || event == nil {
            let line = try narrator.next()
            if !line.isEvent, line.id == id {
                guard line.object["ok"] as? Bool == true else { throw NarratorSpeechClient.Failure(description: "stop failed: \(line.object)") }
                reply = line.at - sent
            } else if line.isEvent, line.utterance == utterance, let phase = line.phase {
                if phase == "finished" { throw NarratorSpeechClient.Failure(description: "the long utterance finished before stop took effect") }
                if phase == "interrupted" || phase == "dropped" { event = (line.at - sent, phase) }
            }
        }
        return (reply ?? 0, event?.at ?? 0, event?.phase ?? "")
    }

    static func rows(_ name: String, _ narrator: [Double], _ spd: [Double], baselineName: String, note: String) -> [BenchResult] {
        [50.0, 99.0].map { p in
            BenchResult(
                name: "\(name).p\(Int(p))", value: Stats.percentile(narrator, p) * 1000, unit: "ms",
                baseline: Stats.percentile(spd, p) * 1000, baselineName: baselineName, note: p == 50 ? note : "")
        }
    }
}
