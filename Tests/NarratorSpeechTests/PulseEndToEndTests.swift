import Foundation
import NarratorEngines
import NarratorPulseHarness
@testable import NarratorSpeech
import NarratorSpeechPlan
import NarratorSystem
import Synchronization
import Testing

/// A real sound server (private, null sink) started by the test, PulseAudio and PipeWire (with
/// pipewire-pulse and WirePlumber) in turn; speech is recorded from the sink's monitor with
/// `parec`. A server that is not installed is left out (`make test-deps` installs both).
/// The sound card is the one boundary faked here: the null sink stands in for it.
@Suite("Sound servers end to end", .serialized)
struct PulseEndToEndTests {
    @Test("speech reaches the sink through the pulse output, and an interrupt silences it", arguments: SoundServerKind.installed)
    func speechArrivesAndInterruptSilences(_ kind: SoundServerKind) throws {
        let pulse = kind.make()
        try pulse.start()
        defer { pulse.stop() }
        pulse.useInThisProcess()
        defer { unsetenv("PULSE_SERVER") }

        let recording = pulse.directory + "/recording.raw"
        _ = try pulse.record(to: recording)

        let log = PlayerLog()
        let output = ServerOutput(spec: .pulse)
        // The first stream can take longer than the stall timeout to open on a loaded machine (seen
        // on PipeWire, which has WirePlumber link it first); the reconnect attempts then connect.
        #expect(eventually(timeout: .seconds(20)) { output.status.active == "pulse" }, "\(output.status)")
        let player = SpeechPlayer(engine: sharedEngine, output: output, onEvent: log.handler)
        let long = String(repeating: "Narrator is reading a long paragraph aloud so that there is time to interrupt it. ", count: 6)
        let id = UtteranceID(1)
        player.play(PlayRequest(utterance: UtteranceRequest(id: id, kind: .focus, text: long), voice: .standard, parameters: VoiceParameters()))

        #expect(SpeechDetection.waitForSpeech(in: recording), "speech reached the null sink's monitor")
        Thread.sleep(forTimeInterval: 0.3)

        player.stop(id)
        let interruptedAt = PrivatePulseServer.samples(in: recording).count
        // The paragraph lasts much longer than this: without the interrupt the next second would be speech.
        Thread.sleep(forTimeInterval: 1.5)
        let rate = pulse.sampleRate
        let samples = PrivatePulseServer.samples(in: recording)
        let settle = rate * 3 / 10  // what was already in flight in the recorder's own buffers
        let after = samples.dropFirst(interruptedAt + settle).prefix(rate)
        #expect(after.count > rate / 2, "the recorder kept recording")
        #expect(SpeechDetection.rms(after) < 50, "silence after the interrupt (rms \(SpeechDetection.rms(after)))")
        #expect(after.map { abs(Int($0)) }.max() ?? 0 < 300)
    }

    @Test("losing the sound server falls back to null and reconnects when it returns", arguments: SoundServerKind.installed)
    func fallbackAndReconnect(_ kind: SoundServerKind) throws {
        let pulse = kind.make()
        try pulse.start()
        defer { pulse.stop() }
        pulse.useInThisProcess()
        defer { unsetenv("PULSE_SERVER") }

        let changes = EventCounter()
        let output = ServerOutput(spec: .pulse, retryInterval: .milliseconds(200), onChange: { _ in changes.add() })
        #expect(eventually(timeout: .seconds(20)) { output.status.active == "pulse" }, "\(output.status)")
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: output, onEvent: log.handler)
        func say(_ id: UInt64, _ text: String) -> UtteranceID {
            player.play(PlayRequest(utterance: UtteranceRequest(id: UtteranceID(id), kind: .focus, text: text), voice: .standard, parameters: VoiceParameters()))
            return UtteranceID(id)
        }

        // The server dies (SIGKILL, as in a crash): speech goes on in real time on null.
        pulse.stop()
        let first = say(1, "The server is gone but speech goes on.")
        #expect(log.wait { $0.contains(.ended(first, problem: nil)) }, "the utterance still completes, in real time on null")
        #expect(output.status.fallback)
        #expect(output.status.active == "null")
        #expect(output.status.detail?.isEmpty == false, "status says why: \(output.status)")

        // The server returns: the reconnect timer switches back, and speech is heard again.
        try pulse.start()
        let recording = pulse.directory + "/after-reconnect.raw"
        _ = try pulse.record(to: recording)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && output.status.active != "pulse" {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(output.status.active == "pulse")
        #expect(!output.status.fallback)
        let second = say(2, "Back again, through the sound server.")
        #expect(log.wait { $0.contains(.ended(second, problem: nil)) })
        #expect(SpeechDetection.waitForSpeech(in: recording), "speech after the reconnect reached the sink")
        #expect(changes.count >= 2, "the daemon was told about the fallback and the reconnect")
    }

    @Test("a sound server that stops (SIGSTOP) freezes nothing, and speech comes back by itself when it continues",
          arguments: SoundServerKind.installed)
    func stoppedServer(_ kind: SoundServerKind) throws {
        let pulse = kind.make()
        try pulse.start()
        defer { pulse.stop() }
        pulse.useInThisProcess()
        defer { unsetenv("PULSE_SERVER") }
        // Declared after `pulse.stop()`, so it runs before it: a failure never leaves a stopped process.
        defer { try? pulse.thaw() }

        let recording = pulse.directory + "/before-stop.raw"
        _ = try pulse.record(to: recording)
        let changes = StatusLog()
        let stallTimeout = Duration.seconds(1)
        let output = ServerOutput(spec: .pulse, retryInterval: .milliseconds(200), stallTimeout: stallTimeout, onChange: changes.record)
        // A loaded machine can take longer than the stall timeout to open the first stream (seen on
        // PipeWire, which links the stream through WirePlumber first); the retries then connect.
        #expect(eventually(timeout: .seconds(20)) { output.status.active == "pulse" }, "\(output.status)")
        let calls = OutputCallTimes(format: AudioFormat(sampleRate: sharedEngine.sampleRate))
        let long = String(repeating: "Narrator is reading a long paragraph aloud while the sound server stops. ", count: 8)
        let paragraph = calls.speak(long, through: output, as: UtteranceID(1))
        #expect(SpeechDetection.waitForSpeech(in: recording), "speech reached the sink before the stop")

        // The server stops mid-paragraph: the engine thread's calls still return within their
        // deadlines, the output gives the server up, and speech goes on on null.
        try pulse.freeze()
        let stoppedAt = ContinuousClock.now
        #expect(eventually { output.status.stalled }, "\(output.status)")
        let detected = ContinuousClock.now - stoppedAt
        // A write may wait its chunk, one server buffer (2 s) and the stall timeout; the rest is slack.
        #expect(detected < stallTimeout + .seconds(5), "the stall was noticed in \(detected)")
        let stalled = output.status
        #expect(stalled.active == "null" && stalled.fallback, "\(stalled)")
        #expect(stalled.detail?.contains("stopped taking audio") == true, "\(stalled)")
        // The status changes first; onChange is told right after, on the thread that noticed.
        #expect(eventually { changes.all.contains { $0.stalled } }, "onChange was told")

        // While stopped: an interrupt, status and new speech answer at once (a reconnect attempt
        // may be hanging on the stopped server meanwhile).
        Thread.sleep(forTimeInterval: 0.5)
        let interrupt = timed { output.interrupt() }
        paragraph.job.cancel()
        #expect(interrupt < .milliseconds(500), "interrupt returned at once while the server is stopped: \(interrupt)")
        #expect(paragraph.ending.ended.wait(timeout: .now() + 10) == .success, "the interrupted paragraph ended")
        #expect(timed { _ = output.status } < .milliseconds(500))
        let meanwhile = calls.speak("Speech goes on while the server is stopped.", through: output, as: UtteranceID(2))
        #expect(meanwhile.ending.ended.wait(timeout: .now() + 20) == .success, "an utterance plays out on null")
        #expect(output.status.stalled, "status keeps the cause while the server does not answer: \(output.status)")
        let overruns = calls.overruns(stallTimeout: stallTimeout)
        #expect(overruns.allSatisfy { $0 < .seconds(2) }, "every engine-side call returned within its deadline (overruns: \(overruns))")

        // The server continues: the output reconnects by itself and speech is heard again.
        try pulse.thaw()
        #expect(eventually(timeout: .seconds(30)) { output.status.active == "pulse" }, "\(output.status)")
        #expect(output.status == OutputStatus(spec: .pulse, active: "pulse", fallback: false))
        #expect(changes.all.last == output.status, "onChange was told about the reconnect")
        let after = pulse.directory + "/after-continue.raw"
        _ = try pulse.record(to: after)
        let back = calls.speak("Back again, through the sound server.", through: output, as: UtteranceID(3))
        #expect(back.ending.ended.wait(timeout: .now() + 20) == .success)
        #expect(back.ending.outcome.withLock { $0 }.map { if case .completed = $0 { true } else { false } } == true)
        #expect(SpeechDetection.waitForSpeech(in: after), "speech after the server continued reached the sink")
    }
}

/// Drives an output from the shared engine as the speech player does, and times every call the
/// engine thread makes on it, against what that call may legitimately take.
final class OutputCallTimes: Sendable {
    /// How an utterance ended, once `ended` is signalled.
    final class Ending: Sendable {
        let ended = DispatchSemaphore(value: 0)
        let outcome = Mutex<SynthesisJob.Outcome?>(nil)
    }

    let format: AudioFormat
    /// ServerOutput's default.
    let deviceBuffer = Duration.seconds(2)
    /// For each call: how long it took, and the audio it may legitimately wait for.
    private let calls = Mutex<[(took: Duration, allowed: Duration)]>([])

    init(format: AudioFormat) {
        self.format = format
    }

    func speak(_ text: String, through output: any AudioOutput, as id: UtteranceID) -> (job: SynthesisJob, ending: Ending) {
        let format = self.format
        let deviceBuffer = self.deviceBuffer
        let ending = Ending()
        let job = SynthesisJob(
            text: text,
            onStart: { () throws(AudioOutputError) in
                try self.time(allowed: .zero) { () throws(AudioOutputError) in try output.begin(id, kind: .focus, format: format) }
            },
            onChunk: { chunk in
                // A write may wait for its chunk's playback and for the server to ask for audio.
                (try? self.time(allowed: format.duration(ofSamples: chunk.count) + deviceBuffer) { () throws(AudioOutputError) in try output.write(chunk) }) != nil
            },
            onEnd: { result in
                // A drain waits for what the device still holds: at most its buffer.
                if result.startedOutput { try? self.time(allowed: deviceBuffer) { () throws(AudioOutputError) in try output.end() } }
                ending.outcome.withLock { $0 = result }
                ending.ended.signal()
            })
        sharedEngine.submit(job)
        return (job, ending)
    }

    /// How far each call went past what it may take plus `stallTimeout`, the longest first.
    func overruns(stallTimeout: Duration) -> [Duration] {
        calls.withLock { $0 }.map { $0.took - $0.allowed - stallTimeout }.sorted(by: >)
    }

    private func time(allowed: Duration, _ call: () throws(AudioOutputError) -> Void) throws(AudioOutputError) {
        let start = ContinuousClock.now
        defer { calls.withLock { $0.append((ContinuousClock.now - start, allowed)) } }
        try call()
    }
}

/// Counts calls from any thread.
final class EventCounter: Sendable {
    private let value = Mutex<Int>(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
