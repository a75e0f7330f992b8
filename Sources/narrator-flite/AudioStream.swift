import CFlite

/// Where Flite's streaming callback sends the audio of the sentence being synthesized: `A`
/// frames of at most 100 ms for the current job, at its volume, after the sentence's `S` frame
/// (sent with its first audio, so a sentence Flite finds nothing to say in gets none). It also
/// answers the callback's one question: go on, or stop because the job was cancelled.
///
/// Only the synthesis thread touches it (Flite calls back on the thread that synthesizes).
final class AudioStream {
    let writer: FrameWriter
    let queue: JobQueue
    var job: UInt32 = 0
    /// The volume as a factor of the voice's own level (1 leaves the samples as Flite made them).
    var gain: Float = 1
    /// The most samples in one `A` frame: 100 ms at the voice's rate.
    var frameLimit = 1600
    /// The `S` frame for the sentence now synthesized, until its first audio goes out.
    var pendingSentence: Int?
    /// Whether the callback has seen the job's cancel and stopped Flite.
    var stopped = false
    /// Samples sent for the current job.
    var samplesSent = 0
    /// Flite starts every utterance with 110 to 230 ms of silence (by voice), which would be
    /// heard as that much later an onset: until the job's first audible sample, samples are held
    /// back, and only the last `lead` of them (15 ms, the attack) go out before it.
    enum LeadingSilence {
        case trimming(kept: [Int16], lead: Int)
        case done
    }
    var leadingSilence = LeadingSilence.done
    /// A sample at least this loud ends the leading silence (about -42 dBFS: some voices hum below it for 100 ms before they speak).
    static let audible: Int16 = 256
    private var scratch: [Int16] = []

    init(writer: FrameWriter, queue: JobQueue) {
        self.writer = writer
        self.queue = queue
    }

    /// Flite's callback: `size` new samples of `wave` from `start`. Returns whether Flite goes on.
    func deliver(_ wave: UnsafePointer<cst_wave>, start: Int, size: Int) -> Int32 {
        if stopped || queue.currentIsCancelled {
            stopped = true
            return CST_AUDIO_STREAM_STOP
        }
        guard size > 0, let samples = wave.pointee.samples else { return CST_AUDIO_STREAM_CONT }
        if let offset = pendingSentence {
            writer.send(.sentence(job: job, offset: offset))
            pendingSentence = nil
        }
        var from = start
        let end = start + size
        if case .trimming(var kept, let lead) = leadingSilence {
            let buffer = UnsafeBufferPointer(start: samples + start, count: size)
            guard let first = buffer.firstIndex(where: { $0 >= Self.audible || $0 <= -Self.audible }) else {
                kept = Array((kept + buffer).suffix(lead))
                leadingSilence = .trimming(kept: kept, lead: lead)
                return CST_AUDIO_STREAM_CONT
            }
            let before = Array((kept + buffer[..<first]).suffix(lead))
            leadingSilence = .done
            if !before.isEmpty { send(before) }
            from = start + first
        }
        while from < end {
            let count = min(frameLimit, end - from)
            scratch.removeAll(keepingCapacity: true)
            if gain == 1 {
                scratch.append(contentsOf: UnsafeBufferPointer(start: samples + from, count: count))
            } else {
                for sample in UnsafeBufferPointer(start: samples + from, count: count) {
                    scratch.append(Int16(clamping: Int((Float(sample) * gain).rounded())))
                }
            }
            writer.send(.audio(job: job, samples: scratch))
            samplesSent += count
            from += count
        }
        return CST_AUDIO_STREAM_CONT
    }

    /// Sends `samples` (already held, so at the volume Flite made them) as one `A` frame at the job's volume.
    private func send(_ samples: [Int16]) {
        let scaled = gain == 1 ? samples : samples.map { Int16(clamping: Int((Float($0) * gain).rounded())) }
        writer.send(.audio(job: job, samples: scaled))
        samplesSent += samples.count
    }

    /// The C function Flite calls, finding this stream through the streaming info's userdata.
    static let callback: narrator_flite_stream_callback = { wave, start, size, _, info in
        guard let wave, let info, let userdata = narrator_flite_stream_userdata(info) else { return CST_AUDIO_STREAM_CONT }
        let stream = Unmanaged<AudioStream>.fromOpaque(userdata).takeUnretainedValue()
        return stream.deliver(wave, start: Int(start), size: Int(size))
    }
}
