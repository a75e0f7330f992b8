import CFlite

/// Speaks jobs with Flite, one at a time on the calling thread, sentence by sentence, each
/// sentence's audio streamed out as Flite's waveform synthesis makes it.
final class FliteSynthesis {
    private let voices: [FliteVoice]
    private let stream: AudioStream
    private let writer: FrameWriter

    /// Audio comes from Flite in pieces of at least this long (a fraction of a frame): small
    /// enough that the first audio leaves early and a cancel is seen soon, large enough not to
    /// write a frame for every few milliseconds of sound.
    static let pieceSeconds: Float = 0.02

    init(voices: [FliteVoice], writer: FrameWriter, queue: JobQueue) {
        self.voices = voices
        self.writer = writer
        stream = AudioStream(writer: writer, queue: queue)
        let userdata = Unmanaged.passUnretained(stream).toOpaque()
        for voice in voices {
            narrator_flite_stream(voice.voice, AudioStream.callback, userdata, Int32(Float(voice.sampleRate) * Self.pieceSeconds))
        }
    }

    /// Serves one job: `B`, then each sentence's `S` and `A` frames, then `E` (1 if a cancel came
    /// first); or `F` when the voice is unknown or Flite fails.
    func serve(_ job: QueuedJob, cancelled: Bool) {
        switch job {
        case .reject(let number, let message):
            writer.send(.failed(job: number, message: message))
        case .speak(let number, let text, let name, let rate, let pitch, let volume):
            guard let voice = voices.first(where: { $0.name == name }) else {
                let names = voices.map(\.name).joined(separator: ", ")
                writer.send(.failed(job: number, message: "narrator-flite: no voice \"\(name)\"; installed: \(names)"))
                return
            }
            writer.send(.begin(job: number, sampleRate: voice.sampleRate))
            if cancelled {
                writer.send(.end(job: number, cancelled: true))
                return
            }
            apply(Prosody(rate: rate, pitch: pitch, volume: volume), to: voice)
            stream.job = number
            stream.stopped = false
            stream.samplesSent = 0
            stream.leadingSilence = .trimming(kept: [], lead: max(1, voice.sampleRate * 15 / 1000))
            stream.frameLimit = max(1, voice.sampleRate / 10)
            for sentence in SentenceSplitter.split(text) {
                if stream.stopped || stream.queue.currentIsCancelled { break }
                stream.pendingSentence = sentence.offset
                var failed: Int32 = 0
                let utterance = narrator_flite_synth_text(FliteText.ascii(sentence.text), voice.voice, &failed)
                if failed != 0 {
                    writer.send(.failed(job: number, message: "narrator-flite: Flite failed on the sentence at byte \(sentence.offset)"))
                    return
                }
                if let utterance { delete_utterance(utterance) }
            }
            writer.send(.end(job: number, cancelled: stream.stopped || stream.queue.currentIsCancelled))
        }
    }

    /// Sets the voice's features for the job: its own speed and F0 scaled, and the gain.
    private func apply(_ prosody: Prosody, to voice: FliteVoice) {
        narrator_flite_set_prosody(
            voice.voice, voice.defaultStretch * prosody.durationFactor,
            voice.defaultF0Mean * prosody.pitchFactor, voice.defaultF0Deviation * prosody.pitchFactor)
        stream.gain = prosody.gain
    }
}
