import Dispatch
import NarratorBase
import NarratorSystem
import Synchronization

/// Keeps real time for an output that nobody hears (``NullOutput``, ``WavOutput``): a virtual
/// playhead moves through each utterance's audio at its sample rate, writes wait so that they run
/// ahead of it by at most `lead` (like a device buffer), and the end waits until the playhead has
/// passed the last sample. So an utterance lasts as long as it would when heard, and queueing,
/// throttling, hints and the log's speech time behave as they do with sound.
///
/// `interrupt` takes a lock held only for a few instructions and returns at once; it releases a
/// waiting write or end, and the rest of the utterance's calls return without waiting.
final class RealTimePlayhead: Sendable {
    /// How far writing may run ahead of playback.
    let lead: Duration

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

    init(lead: Duration) {
        self.lead = lead
    }

    /// Starts an utterance: the playhead is now, and not interrupted.
    func begin(format: AudioFormat) {
        playback.withLock { playback in
            playback.format = format
            playback.interrupted = false
            playback.playedUntil = MonotonicClock.now()
        }
    }

    /// Moves the end of the audio on by `count` samples and waits until the playhead is within
    /// `lead` of it.
    func advance(bySamples count: Int) {
        let deadline = playback.withLock { playback -> MonotonicInstant? in
            guard !playback.interrupted else { return nil }
            playback.playedUntil = max(playback.playedUntil, MonotonicClock.now()) + playback.format.duration(ofSamples: count)
            return playback.playedUntil + (Duration.zero - lead)
        }
        if let deadline { waitUntil(deadline) }
    }

    /// Waits until the last sample has been "heard" (or an interrupt).
    func finish() {
        waitUntil(playback.withLock { $0.playedUntil })
    }

    func interrupt() {
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
