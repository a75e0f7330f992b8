import NarratorSpeechPlan
import Testing

/// How the audio output's state reaches the journal: once per real change, and at warning level
/// when the sound server was asked for by name (`--audio pulse`).
@Suite struct OutputReportTests {
    @Test func aMissingServerIsAWarningOnlyWhenPulseWasAskedFor() {
        var h = Harness()
        let pulse = OutputStatus(spec: .pulse, active: "null", fallback: true, detail: "could not open the audio stream: Connection refused (code -1)")
        #expect(h.feed(.outputChanged(pulse)) == [.journal(.warning, "audio: using null output (could not open the audio stream: Connection refused (code -1)); retrying")])
        #expect(h.feed(.outputChanged(pulse)).isEmpty)
        var other = Harness()
        let auto = OutputStatus(spec: .auto, active: "null", fallback: true, detail: "no sound server reachable: could not open the audio stream: Connection refused (code -1)")
        #expect(
            other.feed(.outputChanged(auto)) == [
                .journal(.notice, "audio: using null output (no sound server reachable: could not open the audio stream: Connection refused (code -1)); retrying")
            ])
        #expect(other.feed(.outputChanged(auto)).isEmpty)
    }
}
