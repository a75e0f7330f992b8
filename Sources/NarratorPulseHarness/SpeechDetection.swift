import Foundation
import NarratorBase
import NarratorSystem

/// Telling speech from silence in what `parec` recorded from the null sink's monitor, so that a
/// test can check that speech was really heard rather than trusting the speaker's own account.
public enum SpeechDetection {
    /// Root mean square of PCM: zeros and the noise floor stay far below speech.
    public static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Int16 {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// Whether some 50 ms window of `samples` is louder than a whisper.
    public static func containsSpeech(_ samples: [Int16], rate: Int = 22_050) -> Bool {
        let window = rate / 20
        return stride(from: 0, to: max(0, samples.count - window), by: window).contains {
            rms(samples[$0..<$0 + window]) > 300
        }
    }

    /// Polls (generously: a loaded machine is slow, never wrong) until the raw s16le recording at
    /// `path` holds speech; false if it still does not after `timeout`.
    public static func waitForSpeech(in path: String, rate: Int = 22_050, timeout: Duration = .seconds(30)) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        while MonotonicClock.now() < deadline {
            if containsSpeech(PrivatePulseServer.samples(in: path), rate: rate) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return containsSpeech(PrivatePulseServer.samples(in: path), rate: rate)
    }
}
