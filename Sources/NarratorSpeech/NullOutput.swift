import Dispatch
import NarratorCore
import NarratorSystem
import Synchronization

/// Discards samples but keeps real time: "speaking" lasts as long as the audio would.
///
/// Used when no sound server is reachable, so that hints, events and queues behave as they do
/// with sound. Writes may run ahead of the virtual playhead by `lead`, like a device buffer.
/// `interrupt` takes a lock held only for a few instructions, so it returns at once.
public final class NullOutput: AudioOutput {
    public let name = "null"
    /// How far writing may run ahead of playback.
    public let lead: Duration

    private struct Playback {
        var playedUntil = MonotonicInstant(nanoseconds: 0)
        var format = AudioFormat(sampleRate: 22_050)
        var interrupted = false
        /// The engine thread is waiting for the playhead: an interrupt must wake it.
        var waiting = false
    }

    private let playback = Mutex(Playback())
    /// Wakes the engine thread waiting for the playhead when an interrupt comes.
    private let wake = DispatchSemaphore(value: 0)

    public init(lead: Duration = .milliseconds(100)) {
        self.lead = lead
    }

    public var status: OutputStatus {
        OutputStatus(spec: .null, active: name, fallback: false)
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        playback.withLock { playback in
            playback.format = format
            playback.interrupted = false
            playback.playedUntil = MonotonicClock.now()
        }
    }

    public func write(_ samples: [Int16]) {
        let deadline = playback.withLock { playback -> MonotonicInstant? in
            guard !playback.interrupted else { return nil }
            playback.playedUntil = max(playback.playedUntil, MonotonicClock.now())
                + playback.format.duration(ofSamples: samples.count)
            return playback.playedUntil + (Duration.zero - lead)
        }
        if let deadline { waitUntil(deadline) }
    }

    public func end() {
        waitUntil(playback.withLock { $0.playedUntil })
    }

    public func interrupt() {
        // Only a waiting engine thread is woken, so no wake-up is left over to drain (draining
        // with zero-timeout waits cost about 80 µs of timer slack before every utterance).
        let mustWake = playback.withLock { playback in
            playback.interrupted = true
            return playback.waiting
        }
        if mustWake { wake.signal() }
    }

    /// Waits until `deadline` or an interrupt. A wake-up left over from an interrupt that came as
    /// a wait timed out only makes the loop look again.
    private func waitUntil(_ deadline: MonotonicInstant) {
        while true {
            let remaining = playback.withLock { playback -> Duration? in
                guard !playback.interrupted else { return nil }
                playback.waiting = true
                return deadline - MonotonicClock.now()
            }
            guard let remaining, remaining > .zero else {
                playback.withLock { $0.waiting = false }
                return
            }
            _ = wake.wait(for: remaining)
            playback.withLock { $0.waiting = false }
        }
    }
}
