import NarratorSpeechPlan
import NarratorSystem
import Synchronization

/// Writes each utterance as a WAV file named `<sequence>-<kind>.wav` (e.g. `000001-focus.wav`).
///
/// For captions, debugging and tests. It keeps real time like ``NullOutput``: an utterance ends
/// when its audio would have been heard (its file is written as its audio runs out, then the end
/// waits for the rest), and an interrupt cuts it, so queueing, hints and the log's speech time are
/// what they would be with sound. A file holds exactly the samples eSpeak NG produced for its
/// utterance; an interrupted one, those produced before the interrupt. `interrupt` only sets flags,
/// so it returns at once.
public final class WavOutput: AudioOutput {
    public let directory: String
    private let playhead: RealTimePlayhead
    public var name: String { "wav:\(directory)" }

    private struct Recording {
        var sequence: Int
        var samples: [Int16] = []
        var format = AudioFormat(sampleRate: 22_050)
        var fileName = ""
        var interrupted = false
        /// Begun and not ended: its file is not written yet.
        var open = false
    }

    private let recording: Mutex<Recording>

    /// Creates the directory if needed and continues numbering after the files already there.
    public init(directory: String, lead: Duration = .milliseconds(100)) throws(AudioOutputError) {
        self.directory = directory
        playhead = RealTimePlayhead(lead: lead)
        do {
            try Syscall.makeDirectories(directory)
        } catch {
            throw .fileFailed(path: directory, reason: error.message)
        }
        let existing = (try? Syscall.directoryEntries(directory)) ?? []
        recording = Mutex(Recording(sequence: existing.compactMap { Int($0.prefix { $0.isNumber }) }.max() ?? 0))
    }

    public var status: OutputStatus {
        OutputStatus(spec: .wav(directory: directory), active: name, fallback: false)
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        // An utterance cut on one engine while the next begins on another is never ended by its
        // engine's thread (its turn passed): its file is written now, with what it had until the cut.
        let unfinished = recording.withLock { recording -> (String, [Int16], AudioFormat)? in
            defer { recording.open = true }
            guard recording.open else { return nil }
            return (directory + "/" + recording.fileName, recording.samples, recording.format)
        }
        if let (path, samples, format) = unfinished { try? Syscall.writeFileAtomically(path, WavFile.encode(samples, format: format)) }
        recording.withLock { recording in
            recording.sequence += 1
            recording.fileName = Self.fileName(sequence: recording.sequence, kind: kind)
            recording.format = format
            recording.samples.removeAll(keepingCapacity: true)
            recording.interrupted = false
        }
        playhead.begin(format: format)
    }

    public func write(_ chunk: [Int16]) {
        recording.withLock { recording in
            if !recording.interrupted { recording.samples += chunk }
        }
        playhead.advance(bySamples: chunk.count)
    }

    public func end() throws(AudioOutputError) {
        // The samples are taken out (the array shares its storage, nothing is copied) and
        // encoded outside the lock, so that an interrupt never waits for the encoding.
        let (path, samples, format) = recording.withLock { recording in
            recording.open = false
            return (directory + "/" + recording.fileName, recording.samples, recording.format)
        }
        let bytes = WavFile.encode(samples, format: format)
        do {
            try Syscall.writeFileAtomically(path, bytes)
        } catch {
            throw .fileFailed(path: path, reason: error.message)
        }
        // The file is complete; the utterance ends when its last sample would have been heard.
        playhead.finish()
    }

    public func interrupt() {
        recording.withLock { $0.interrupted = true }
        playhead.interrupt()
    }

    /// `000001-focus.wav`: the sequence number padded to six digits, then the kind.
    static func fileName(sequence: Int, kind: SpeechKind) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + "-" + kind.name + ".wav"
    }
}

/// The RIFF/WAVE container for 16-bit PCM.
enum WavFile {
    static func encode(_ samples: [Int16], format: AudioFormat) -> [UInt8] {
        let dataBytes = samples.count * 2
        var data: [UInt8] = []
        data.reserveCapacity(44 + dataBytes)
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        append32(36 + dataBytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(1)  // PCM
        append16(format.channels)
        append32(format.sampleRate)
        append32(format.sampleRate * format.channels * 2)
        append16(format.channels * 2)
        append16(16)
        data.append(contentsOf: Array("data".utf8))
        append32(dataBytes)
        samples.withUnsafeBufferPointer { buffer in
            for sample in buffer {
                withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }
}
