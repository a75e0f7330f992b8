import NarratorBase
import NarratorExperiments
import NarratorSpeechPlan

/// A queue and scheduler on a virtual clock where every utterance takes `speechLength`.
struct Session {
    var simulation: AnnouncementSimulation

    init(_ policy: AnnouncementPolicy = .default, speechLength: Duration = .seconds(1)) {
        simulation = AnnouncementSimulation(policy: policy) { _ in speechLength }
    }

    @discardableResult
    mutating func announce(
        _ text: String, _ priority: AnnouncementPriority = .default, tree: String? = nil, element: String? = nil, key: String? = nil
    ) -> AnnouncementID {
        simulation.apply(TraceEvent(at: .zero, kind: .announce(text: text, priority: priority, key: key), tree: tree, element: element))!
    }

    mutating func focus(_ tree: String, _ text: String = "OK, button") {
        simulation.apply(TraceEvent(at: .zero, kind: .focus(text: text), tree: tree))
    }

    /// Lets `seconds` of virtual time pass.
    mutating func wait(_ seconds: Double) {
        simulation.advance(to: simulation.now + .milliseconds(Int64(seconds * 1000)))
    }

    /// Runs until nothing is left to say.
    mutating func drain() {
        simulation.advance(to: nil)
    }

    func record(_ id: AnnouncementID) -> AnnouncementRecord? {
        simulation.records.first { $0.announcement.id == id }
    }

    func outcome(_ id: AnnouncementID) -> AnnouncementOutcome? { record(id)?.outcome }

    /// The first decision made about `id` (what the `announce` reply carries).
    func firstDecision(_ id: AnnouncementID) -> String? {
        simulation.decisions.first { $0.announcement == id }?.state.name
    }

    /// Seconds since the start of the session.
    func seconds(_ instant: MonotonicInstant?) -> Double? {
        instant.map { Double($0.nanoseconds) / 1e9 }
    }

    /// The texts spoken to the end, in order.
    var spokenTexts: [String] {
        simulation.records.filter { $0.outcome == .spoken }.sorted { $0.startedAt! < $1.startedAt! }.map(\.announcement.text)
    }
}

extension AnnouncementPolicy {
    func with(_ change: (inout AnnouncementPolicy) -> Void) -> AnnouncementPolicy {
        var copy = self
        change(&copy)
        return copy
    }
}
