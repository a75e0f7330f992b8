import NarratorSpeechPlan
import Synchronization

/// Whose turn it is at the audio output. With one engine, its thread called `begin`, `write` and
/// `end` for one utterance after another. With several, a job cut on one engine (Piper, mid-
/// sentence) may still be handing over audio on its thread while the next utterance begins on
/// another (eSpeak NG's): this gives the output to one utterance at a time, and drops the calls of
/// an utterance whose turn has passed, so nothing of it is heard inside the next one and its late
/// `end` does not end the next one. A stop's `interrupt` makes a call in progress return promptly,
/// so the next `begin` waits at most for that.
final class OutputTurn: Sendable {
    private let output: any AudioOutput
    /// The utterance whose audio the output is taking (nil between utterances); held across each call.
    private let owner = Mutex<UtteranceID?>(nil)

    init(output: any AudioOutput) {
        self.output = output
    }

    /// Begins `id` at the output: its turn from now. (An utterance cut on another engine whose
    /// thread has not ended it yet loses its turn here; its late `end` is dropped. Ending it at the
    /// device instead raced the interrupt's flush inside pcaudiolib's PulseAudio stream.)
    func begin(_ id: UtteranceID, kind: SpeechKind, format: AudioFormat) throws(AudioOutputError) {
        try owner.withLock { (owner: inout UtteranceID?) throws(AudioOutputError) in
            owner = nil
            try output.begin(id, kind: kind, format: format)
            owner = id
        }
    }

    /// Hands `samples` of `id` over; false when it is no longer `id`'s turn (nothing was written).
    func write(_ id: UtteranceID, _ samples: [Int16]) throws(AudioOutputError) -> Bool {
        try owner.withLock { (owner: inout UtteranceID?) throws(AudioOutputError) -> Bool in
            guard owner == id else { return false }
            try output.write(samples)
            return true
        }
    }

    /// Ends `id`'s turn (waiting until its audio was heard), if it still has it.
    func end(_ id: UtteranceID) throws(AudioOutputError) {
        try owner.withLock { (owner: inout UtteranceID?) throws(AudioOutputError) in
            guard owner == id else { return }
            owner = nil
            try output.end()
        }
    }

    /// Whether `id` has the output now.
    func holds(_ id: UtteranceID) -> Bool {
        owner.withLock { $0 == id }
    }
}
