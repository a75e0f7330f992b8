import Dispatch
import NarratorExperiments
import NarratorSpeechPlan
import Synchronization

/// Replays an experiment's cells on every core: each cell (one policy over one trace) is
/// independent and reads only immutable values (the traces, the measured lengths), so they run
/// as one `concurrentPerform` and each result lands in its own slot.
public enum ExperimentRunner {
    /// The cells in grid order: policy-major, `cells[p * traces.count + t]`.
    public static func run(policies: [AnnouncementPolicy], traces: [[TraceEvent]], lengths: SpeechLengths, late: Double) -> [ExperimentCell] {
        let count = policies.count * traces.count
        guard count > 0 else { return [] }
        let slots = Slots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let t = index % traces.count
            let cell = ExperimentCell.replay(traces[t], trace: t, policy: policies[index / traces.count], lengths: lengths, late: late)
            slots.store(cell, at: index)
        }
        return slots.cells
    }

    /// The same cells one after another on the calling thread (the benchmark's baseline).
    public static func runSequentially(policies: [AnnouncementPolicy], traces: [[TraceEvent]], lengths: SpeechLengths, late: Double) -> [ExperimentCell] {
        policies.flatMap { policy in
            traces.enumerated().map { ExperimentCell.replay($1, trace: $0, policy: policy, lengths: lengths, late: late) }
        }
    }

    private final class Slots: Sendable {
        private let storage: Mutex<[ExperimentCell?]>

        init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

        func store(_ cell: ExperimentCell, at index: Int) { storage.withLock { $0[index] = cell } }

        var cells: [ExperimentCell] { storage.withLock { $0.compactMap { $0 } } }
    }
}
