import NarratorCore

/// The speech a batch of inputs started, in order, until the batch ends: an utterance stopped
/// within the same batch is taken out before anything was synthesized of it.
struct PendingPlays {
    private var requests: [PlayRequest] = []

    mutating func add(_ request: PlayRequest) {
        requests.append(request)
    }

    /// Takes `utterance` out if it is still waiting; false when it was already handed over.
    mutating func remove(_ utterance: UtteranceID) -> Bool {
        guard let index = requests.firstIndex(where: { $0.utterance.id == utterance }) else { return false }
        requests.remove(at: index)
        return true
    }

    /// What waits, in order, leaving nothing.
    mutating func take() -> [PlayRequest] {
        defer { requests.removeAll(keepingCapacity: true) }
        return requests
    }
}
