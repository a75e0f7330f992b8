import Foundation
import NarratorCore

/// Writes each utterance as a WAV file named `<sequence>-<kind>.wav` (e.g. `000001-focus.wav`).
///
/// For captions, debugging and tests. It does not keep real time: an utterance ends as soon as its
/// file is written. An interrupted utterance is written with the audio produced before the interrupt.
public final class WavOutput: AudioOutput, @unchecked Sendable {
    public let directory: String
    public var name: String { "wav:\(directory)" }
    private let lock = NSLock()
    // Guarded by `lock`.
    private var sequence: Int
    private var samples: [Int16] = []
    private var format = AudioFormat(sampleRate: 22_050)
    private var fileName = ""
    private var interrupted = false

    /// Creates the directory if needed and continues numbering after the files already there.
    public init(directory: String) throws(AudioOutputError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .fileFailed(path: directory, reason: "\(error.localizedDescription)")
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        sequence = existing.compactMap { Int($0.prefix { $0.isNumber }) }.max() ?? 0
    }

    public var status: OutputStatus {
        OutputStatus(spec: .wav(directory: directory), active: name, fallback: false)
    }

    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) {
        lock.lock()
        defer { lock.unlock() }
        sequence += 1
        fileName = String(format: "%06d-%@.wav", sequence, kind.name)
        self.format = format
        samples.removeAll(keepingCapacity: true)
        interrupted = false
    }

    public func write(_ chunk: [Int16]) {
        lock.lock()
        defer { lock.unlock() }
        if !interrupted { samples += chunk }
    }

    public func end() throws(AudioOutputError) {
        lock.lock()
        let path = directory + "/" + fileName
        let data = WavFile.encode(samples, format: format)
        lock.unlock()
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .fileFailed(path: path, reason: error.localizedDescription)
        }
    }

    public func interrupt() {
        lock.lock()
        interrupted = true
        lock.unlock()
    }
}

/// The RIFF/WAVE container for 16-bit PCM.
enum WavFile {
    static func encode(_ samples: [Int16], format: AudioFormat) -> Data {
        let dataBytes = samples.count * 2
        var data = Data(capacity: 44 + dataBytes)
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
