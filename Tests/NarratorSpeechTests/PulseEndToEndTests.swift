import Foundation
import NarratorCore
import NarratorPulseHarness
@testable import NarratorSpeech
import NarratorSystem
import Synchronization
import Testing

/// A real PulseAudio server (private, null sink) started by the test; speech is recorded from the
/// sink's monitor with `parec`. Skipped only when pulseaudio/pulseaudio-utils are not installed.
/// The sound card is the one boundary faked here: the null sink stands in for it.
@Suite(
    "PulseAudio end to end",
    .serialized,
    .enabled(if: PrivatePulseServer.isInstalled, "pulseaudio and pulseaudio-utils are not installed (make test-deps)")
)
struct PulseEndToEndTests {
    @Test("speech reaches the sink through the pulse output, and an interrupt silences it")
    func speechArrivesAndInterruptSilences() throws {
        let pulse = PrivatePulseServer()
        try pulse.start()
        defer { pulse.stop() }
        pulse.useInThisProcess()
        defer { unsetenv("PULSE_SERVER") }

        let recording = pulse.directory + "/recording.raw"
        _ = try pulse.record(to: recording)

        let log = EventLog()
        let output = ServerOutput(spec: .pulse)
        #expect(output.status.active == "pulse", "\(output.status)")
        let service = try SpeechService(engine: sharedEngine, output: output, onEvent: log.handler)
        let long = String(repeating: "Narrator is reading a long paragraph aloud so that there is time to interrupt it. ", count: 6)
        let id = service.say(long, kind: .focus)

        #expect(SpeechDetection.waitForSpeech(in: recording), "speech reached the null sink's monitor")
        Thread.sleep(forTimeInterval: 0.3)

        service.stop()
        #expect(log.wait { $0.contains { $0.utterance == id && $0.isFinal } })
        let interruptedAt = PrivatePulseServer.samples(in: recording).count
        #expect(log.phases(id).last == .interrupted(by: nil))
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

    @Test("losing the sound server falls back to null and reconnects when it returns")
    func fallbackAndReconnect() throws {
        let pulse = PrivatePulseServer()
        try pulse.start()
        defer { pulse.stop() }
        pulse.useInThisProcess()
        defer { unsetenv("PULSE_SERVER") }

        let changes = EventCounter()
        let output = ServerOutput(spec: .pulse, retryInterval: .milliseconds(200), onChange: { _ in changes.add() })
        #expect(output.status.active == "pulse")
        let log = EventLog()
        let service = try SpeechService(engine: sharedEngine, output: output, onEvent: log.handler)

        // The server dies (SIGKILL, as in a crash): speech goes on in real time on null.
        pulse.stop()
        let first = service.say("The server is gone but speech goes on.", kind: .focus)
        #expect(log.wait { $0.contains { $0.utterance == first && $0.isFinal } })
        #expect(log.phases(first).last == .finished, "the utterance still completes, in real time on null")
        #expect(service.status.output.fallback)
        #expect(service.status.output.active == "null")
        #expect(service.status.output.detail?.isEmpty == false, "status says why: \(service.status.output)")

        // The server returns: the reconnect timer switches back, and speech is heard again.
        try pulse.start()
        let recording = pulse.directory + "/after-reconnect.raw"
        _ = try pulse.record(to: recording)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && service.status.output.active != "pulse" {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(service.status.output.active == "pulse")
        #expect(!service.status.output.fallback)
        let second = service.say("Back again, through the sound server.", kind: .focus)
        #expect(log.wait { $0.contains { $0.utterance == second && $0.isFinal } })
        #expect(log.phases(second).last == .finished)
        #expect(SpeechDetection.waitForSpeech(in: recording), "speech after the reconnect reached the sink")
        #expect(changes.count >= 2, "the daemon was told about the fallback and the reconnect")
    }
}

/// Counts calls from any thread.
final class EventCounter: Sendable {
    private let value = Mutex<Int>(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
