import NarratorSpeechPlan

/// One cell of an experiment's grid: one policy replayed over one trace, with what it decided
/// (for the log) and the figures it scored.
public struct ExperimentCell: Sendable {
    public var policy: AnnouncementPolicy
    /// The trace's index in the experiment.
    public var trace: Int
    public var records: [AnnouncementRecord]
    public var speech: [SpeechRecord]
    public var metrics: ExperimentMetrics

    /// Replays `events` under `policy` on the virtual clock, each utterance as long as `lengths` says.
    public static func replay(_ events: [TraceEvent], trace: Int, policy: AnnouncementPolicy, lengths: SpeechLengths, late: Double) -> ExperimentCell {
        var simulation = AnnouncementSimulation(policy: policy) { lengths($0) }
        simulation.run(events)
        let metrics = ExperimentMetrics.measure(records: simulation.records, speech: simulation.speech, length: { lengths($0) }, late: late)
        return ExperimentCell(policy: policy, trace: trace, records: simulation.records, speech: simulation.speech, metrics: metrics)
    }
}
