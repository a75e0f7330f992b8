import NarratorSpeechPlan

/// Discards samples but keeps real time: "speaking" lasts as long as the audio would.
///
/// Used when no sound server is reachable, so that hints, events and queues behave as they do
/// with sound. Writes may run ahead of the virtual playhead by `lead`, like a device buffer.
/// `interrupt` takes a lock held only for a few instructions, so it returns at once.
public final class NullOutput: AudioOutput {
    public let name = "null"
    private let playhead: RealTimePlayhead
    /// How far writing may run ahead of playback.
    public var lead: Duration { playhead.lead }

    public init(lead: Duration = .milliseconds(100)) {
        playhead = RealTimePlayhead(lead: lead)
    }

    public var status: OutputStatus {
        OutputStatus(spec: .null, active: name, fallback: false)
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        playhead.begin(format: format)
    }

    public func write(_ samples: [Int16]) {
        playhead.advance(bySamples: samples.count)
    }

    public func end() {
        playhead.finish()
    }

    public func interrupt() {
        playhead.interrupt()
    }
}
