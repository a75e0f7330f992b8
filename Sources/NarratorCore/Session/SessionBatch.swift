import NarratorBase
import NarratorSpeechPlan

/// The batch of inputs being handled: its instant, the effects it has so far, and the speech it
/// started and has not stopped. Speech is handed out as `play` effects only when the batch ends,
/// so that an utterance the same batch also stopped (a burst of SSIP texts, each cutting the
/// last) is never given to the player at all.
struct SessionBatch: Sendable {
    /// The instant of the input being handled (never earlier than the last one's).
    var now: MonotonicInstant
    /// The effects of the input being handled, in order.
    private var effects: [SessionEffect] = []
    /// The speech started and not stopped, in order.
    private var unplayed: [PlayRequest] = []

    init(at now: MonotonicInstant) { self.now = now }

    mutating func emit(_ effect: SessionEffect) { effects.append(effect) }

    /// The input's effects, in order; the next input starts with none.
    mutating func take() -> [SessionEffect] {
        defer { effects.removeAll(keepingCapacity: true) }
        return effects
    }

    /// Speech that starts: held until the batch ends.
    mutating func play(_ request: PlayRequest) { unplayed.append(request) }

    /// A stop: takes back what this batch started, else stops it in the player.
    mutating func stop(_ utterance: UtteranceID) {
        if let index = unplayed.firstIndex(where: { $0.utterance.id == utterance }) {
            unplayed.remove(at: index)
        } else {
            effects.append(.stopSpeech(utterance))
        }
    }

    /// The engine an utterance this batch started plays in.
    func engine(of utterance: UtteranceID) -> String? {
        unplayed.last { $0.utterance.id == utterance }?.engine.rawValue
    }

    /// The batch ends: what it started goes to the player, in order.
    mutating func handOut() -> [PlayRequest] {
        // Most batches start nothing: their end costs no copy of the buffer.
        guard !unplayed.isEmpty else { return [] }
        defer { unplayed.removeAll(keepingCapacity: true) }
        return unplayed
    }

    /// Nothing starts (the daemon stops, every outcome final).
    mutating func dropUnplayed() { unplayed.removeAll() }
}
