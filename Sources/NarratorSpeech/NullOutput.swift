import Foundation
import NarratorCore
import NarratorSystem

/// Discards samples but keeps real time: "speaking" lasts as long as the audio would.
///
/// Used when no sound server is reachable, so that hints, events and queues behave as they do
/// with sound. Writes may run ahead of the virtual playhead by `lead`, like a device buffer.
public final class NullOutput: AudioOutput, @unchecked Sendable {
    public let name = "null"
    /// How far writing may run ahead of playback.
    public let lead: Duration
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var playedUntil = MonotonicInstant(nanoseconds: 0)
    private var format = AudioFormat(sampleRate: 22_050)
    private var interrupted = false

    public init(lead: Duration = .milliseconds(100)) {
        self.lead = lead
    }

    public var status: OutputStatus {
        OutputStatus(spec: .null, active: name, fallback: false)
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        condition.lock()
        defer { condition.unlock() }
        self.format = format
        interrupted = false
        playedUntil = MonotonicClock.now()
    }

    public func write(_ samples: [Int16]) {
        condition.lock()
        defer { condition.unlock() }
        guard !interrupted else { return }
        playedUntil = max(playedUntil, MonotonicClock.now()) + format.duration(ofSamples: samples.count)
        waitUntil(playedUntil + (Duration.zero - lead))
    }

    public func end() {
        condition.lock()
        defer { condition.unlock() }
        waitUntil(playedUntil)
    }

    public func interrupt() {
        condition.lock()
        interrupted = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (holding the lock between waits) until `deadline` or an interrupt.
    private func waitUntil(_ deadline: MonotonicInstant) {
        while !interrupted {
            let remaining = deadline - MonotonicClock.now()
            if remaining <= .zero { return }
            let seconds = Double(remaining.nanosecondsClamped) / 1e9
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
    }
}
