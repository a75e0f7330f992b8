import NarratorBase
import NarratorSpeechPlan

/// A scheduler driven by a virtual clock, recording every command and event.
struct Harness {
    var scheduler: SpeechScheduler
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    var commands: [SpeechCommand] = []
    var events: [SpeechEvent] = []
    private var nextID: UInt64 = 1

    init(_ configuration: SpeechSchedulerConfiguration = SpeechSchedulerConfiguration()) {
        scheduler = SpeechScheduler(configuration: configuration)
    }

    /// The next utterance's id.
    mutating func nextUtterance() -> UtteranceID {
        defer { nextID += 1 }
        return UtteranceID(nextID)
    }

    @discardableResult
    mutating func say(_ kind: SpeechKind, _ text: String = "text") -> UtteranceID {
        let id = nextUtterance()
        record(scheduler.submit(UtteranceRequest(id: id, kind: kind, text: text), at: now))
        return id
    }

    mutating func finish(_ id: UtteranceID) {
        record(scheduler.finished(id, at: now))
    }

    mutating func advance(_ duration: Duration) {
        now = now + duration
        record(scheduler.tick(at: now))
    }

    mutating func stopAll() {
        record(scheduler.stopAll(at: now))
    }

    mutating func configure(_ configuration: SpeechSchedulerConfiguration) {
        record(scheduler.configure(configuration, at: now))
    }

    mutating func record(_ step: SpeechSchedulerStep) {
        commands += step.commands
        events += step.events
    }

    /// The phases recorded for one utterance, in order.
    func phases(_ id: UtteranceID) -> [SpeechEvent.Phase] {
        events.filter { $0.utterance == id }.map(\.phase)
    }

    var playingID: UtteranceID? { scheduler.playing?.id }
}
