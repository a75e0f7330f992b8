import NarratorEngines

/// One job's frames as narratord would see them, with what a listener would hear in them.
struct EngineJob {
    let frames: [EngineFrame]
    let job: UInt32

    init(_ frames: [EngineFrame], job: UInt32) {
        self.frames = frames.filter { $0.job == job }
        self.job = job
    }

    /// The frame types in order, audio runs kept as single letters ("BSASAE" for two sentences).
    var shape: String {
        var letters = ""
        for frame in frames {
            let letter = Character(Unicode.Scalar(frame.type))
            if letter == "A", letters.last == "A" { continue }
            letters.append(letter)
        }
        return letters
    }

    var sampleRate: Int? {
        for case .begin(_, let rate) in frames { return rate }
        return nil
    }

    /// The `S` offsets, in order.
    var sentenceOffsets: [Int] {
        frames.compactMap { if case .sentence(_, let offset) = $0 { offset } else { nil } }
    }

    /// Each `A` frame's samples.
    var audioFrames: [[Int16]] {
        frames.compactMap { if case .audio(_, let samples) = $0 { samples } else { nil } }
    }

    var samples: [Int16] { audioFrames.flatMap { $0 } }

    /// Seconds of audio at the job's rate.
    var seconds: Double {
        Double(samples.count) / Double(sampleRate ?? 1)
    }

    /// How the job ended: true cancelled, false completed, nil failed or not ended.
    var cancelled: Bool? {
        for case .end(_, let cancelled) in frames { return cancelled }
        return nil
    }

    var failure: String? {
        for case .failed(_, let message) in frames { return message }
        return nil
    }
}

/// Measures of a recording that tell speech from silence and from itself at another pitch.
enum AudioMeasure {
    /// Root mean square amplitude (full scale is 32767).
    static func rms(_ samples: some Collection<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// The median fundamental frequency over the loud 40 ms windows (autocorrelation peak
    /// between 60 and 500 Hz): what the ear hears as the voice's pitch.
    static func medianPitch(_ samples: [Int16], sampleRate: Int) -> Double? {
        let window = sampleRate / 25
        let loud = rms(samples) * 0.7
        let minimumLag = sampleRate / 500, maximumLag = sampleRate / 60
        var pitches: [Double] = []
        var start = 0
        while start + window + maximumLag < samples.count {
            let frame = samples[start..<(start + window + maximumLag)].map(Double.init)
            if rms(samples[start..<(start + window)]) > loud {
                var energy = 0.0
                for i in 0..<window { energy += frame[i] * frame[i] }
                var bestLag = 0, best = 0.0
                for lag in minimumLag...maximumLag {
                    var sum = 0.0
                    for i in 0..<window { sum += frame[i] * frame[i + lag] }
                    if sum > best { best = sum; bestLag = lag }
                }
                // Only clearly periodic (voiced) windows count.
                if bestLag > 0, best > 0.5 * energy { pitches.append(Double(sampleRate) / Double(bestLag)) }
            }
            start += window
        }
        guard !pitches.isEmpty else { return nil }
        return pitches.sorted()[pitches.count / 2]
    }
}
