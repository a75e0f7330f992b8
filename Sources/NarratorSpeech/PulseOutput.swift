import CALSA
import CPCAudio
import NarratorSpeechPlan
import Synchronization

/// The platform audio device through pcaudiolib: PulseAudio (or PipeWire's pulse server), else ALSA.
///
/// pcaudiolib's PulseAudio backend is `pa_simple`, whose write blocks while the server buffer is
/// full. So that an interrupt is heard at once, ``interrupt()`` calls `audio_object_flush`
/// (`pa_simple_flush`: the server drops the stream's buffer) directly from the interrupting thread,
/// while the engine thread may be blocked in a write; `pa_simple` serializes both on its mainloop
/// lock. The writer hands audio over in 10 ms pieces, checks for an interrupt between pieces, and
/// flushes again if a piece slipped in after the interrupt.
///
/// This is the raw device: every call waits for the server, so with a server that stops answering
/// (a stopped process) a write, a drain and the interrupt's flush block until it answers again.
/// The daemon never calls it on a thread that must not wait: ``ServerOutput`` drives it from
/// threads of its own. Any call may come from any thread: ``StreamGate`` keeps the stream from
/// being closed or freed under a write, a drain or a flush (libpulse aborted when it was).
public final class PulseOutput: AudioOutput {
    public let name = "pulse"
    /// pcaudiolib's device object. A C pointer is not `Sendable`; sharing it is sound because every
    /// call on it goes through `gate`: writes, drains and flushes (which `pa_simple` serializes on
    /// its mainloop lock) side by side, an open, a close and the final free each alone, so that the
    /// stream is never freed under another call, from whichever threads they come.
    private nonisolated(unsafe) let object: OpaquePointer
    private let gate = StreamGate()
    /// The format the stream is open in (nil: closed): changed only inside the gate's exclusive
    /// calls, read inside its sharing ones.
    private let stream: Mutex<AudioFormat?>
    /// The rate the stream is opened at: eSpeak NG's and Piper's, so theirs is written as is.
    static let streamRate = 22_050
    /// Converts the current utterance's audio when its rate is not ``streamRate`` (written by
    /// `begin`, used by the writing thread).
    private let resampler = Mutex<StreamResampler?>(nil)
    /// Counts interrupts.
    private let interrupts = Atomic<UInt64>(0)
    /// The count of interrupts when the current utterance began (written by `begin` only).
    private let startedAt = Atomic<UInt64>(0)

    /// Connects to the sound server (or the ALSA device when there is no server) and opens a
    /// stream in `format`, so that a connection only counts when audio can really be played:
    /// `create_audio_device_object` alone never contacts the server (without one it returns an ALSA
    /// object whose open fails later), which made a reconnect look successful with the server down.
    public init(applicationName: String = "Narrator", format: AudioFormat = AudioFormat(sampleRate: 22_050)) throws(AudioOutputError) {
        _ = Self.alsaSilenced
        guard let object = create_audio_device_object(nil, applicationName, "Speech") else {
            throw .deviceUnavailable("no PulseAudio/PipeWire server and no ALSA device")
        }
        let code = audio_object_open(object, AUDIO_OBJECT_FORMAT_S16LE, UInt32(format.sampleRate), UInt8(format.channels))
        guard code == 0 else {
            let message = audio_object_strerror(object, code).map { String(cString: $0) } ?? "error \(code)"
            audio_object_destroy(object)
            throw .openFailed(code: code, message: message)
        }
        self.object = object
        stream = Mutex(format)
    }

    /// Without a PulseAudio server, pcaudiolib tries ALSA, which prints each failure to stderr
    /// (eight "ALSA lib ... Unknown PCM default" lines per attempt, every reconnect interval,
    /// forever). Its handler is replaced once, before the first attempt, by one that says nothing:
    /// the daemon reports the output's state itself (``ServerOutput``, the session's journal).
    /// ALSA is kept as pcaudiolib's fallback, for machines with a sound card and no sound server.
    private static let alsaSilenced: Int32 = narrator_alsa_silence()

    deinit {
        gate.exclusive {
            audio_object_close(object)
            audio_object_destroy(object)
        }
    }

    public var status: OutputStatus {
        OutputStatus(spec: .pulse, active: name, fallback: false)
    }

    /// Opens the stream in `format` if it is closed (``standBy()``) or open in another format.
    public func begin(_ utterance: UtteranceID, kind: SpeechKind, format requested: AudioFormat) throws(AudioOutputError) {
        startedAt.store(interrupts.load(ordering: .acquiring), ordering: .releasing)
        // The stream stays at one rate; audio at another is converted (``StreamResampler``).
        let format = AudioFormat(sampleRate: Self.streamRate, channels: requested.channels)
        resampler.withLock {
            $0 = requested.sampleRate == Self.streamRate ? nil : StreamResampler(from: requested.sampleRate, to: Self.streamRate)
        }
        try gate.exclusive { () throws(AudioOutputError) in
            try stream.withLock { (open: inout AudioFormat?) throws(AudioOutputError) in
                guard open != format else { return }
                if open != nil {
                    audio_object_close(object)
                    open = nil
                }
                let code = audio_object_open(object, AUDIO_OBJECT_FORMAT_S16LE, UInt32(format.sampleRate), UInt8(format.channels))
                guard code == 0 else {
                    throw .openFailed(code: code, message: message(code))
                }
                open = format
            }
        }
    }

    public func write(_ input: [Int16]) throws(AudioOutputError) {
        try gate.sharing { () throws(AudioOutputError) in
            guard let format = stream.withLock({ $0 }), !wasInterrupted else { return }
            let samples = resampler.withLock { held -> [Int16] in
                guard var stage = held else { return input }
                // Taken out while it works, so that its buffers are not copied, and put back.
                held = nil
                defer { held = stage }
                return stage.process(input)
            }
            let piece = max(1, format.sampleRate * format.channels / 100)
            var offset = 0
            while offset < samples.count {
                let count = min(piece, samples.count - offset)
                let code = samples.withUnsafeBufferPointer { buffer in
                    // Never empty here: offset < samples.count.
                    buffer.baseAddress.map { audio_object_write(object, $0 + offset, count * 2) } ?? 0
                }
                if wasInterrupted {
                    // This piece may have reached the server after the interrupt's flush.
                    flushOnce()
                    return
                }
                guard code == 0 else { throw .writeFailed(code: code, message: message(code)) }
                offset += count
            }
        }
    }

    public func end() throws(AudioOutputError) {
        try gate.sharing { () throws(AudioOutputError) in
            guard stream.withLock({ $0 }) != nil, !wasInterrupted else { return }
            let code = audio_object_drain(object)
            guard code == 0 || wasInterrupted else { throw .writeFailed(code: code, message: message(code)) }
        }
    }

    /// Closes the stream (`pa_simple_free`: the connection to the server goes with it), so that
    /// the server's sink can suspend; `begin` opens it again. Alone: after the calls in flight.
    public func standBy() {
        gate.exclusive {
            stream.withLock { open in
                guard open != nil else { return }
                audio_object_close(object)
                open = nil
            }
        }
    }

    /// Marks the utterance interrupted and flushes the server's buffer: this waits for the server.
    public func interrupt() {
        interrupts.add(1, ordering: .acquiringAndReleasing)
        flush()
    }

    private var wasInterrupted: Bool {
        interrupts.load(ordering: .acquiring) != startedAt.load(ordering: .acquiring)
    }

    /// Beside a write or a drain blocked in the server (that is what cuts it short), never beside
    /// an open or a close.
    private func flush() {
        gate.sharing { flushOnce() }
    }

    /// One flush at a time (under `stream`'s lock, as before the gate): inside a sharing call.
    private func flushOnce() {
        stream.withLock { _ in
            _ = audio_object_flush(object)
        }
    }

    private func message(_ code: Int32) -> String {
        audio_object_strerror(object, code).map { String(cString: $0) } ?? "error \(code)"
    }
}
