/// Converts an utterance's audio to the rate the sound-server stream is open at, chunk by chunk,
/// so that switching engines (eSpeak NG and Piper at 22050 Hz, Flite at 16000 or 8000 Hz) never
/// reopens the stream: a reopen cost about 180 ms before Flite's first word.
///
/// Four-point cubic (Catmull-Rom) interpolation: far less imaging than linear interpolation when
/// speech at 8 or 16 kHz is raised to 22.05 kHz, at a few operations a sample. The output is the
/// same however the input is cut into chunks.
struct StreamResampler: Sendable {
    /// Input samples per output sample.
    let step: Double
    /// Input not consumed yet: what the next output samples interpolate between.
    private var pending: [Int16] = [0]
    /// Where the next output sample falls, in samples from `pending`'s first.
    private var position: Double = 1

    init(from inputRate: Int, to outputRate: Int) {
        step = Double(inputRate) / Double(outputRate)
    }

    /// The output for the next `chunk` of input.
    mutating func process(_ chunk: [Int16]) -> [Int16] {
        let input = pending + chunk
        var output: [Int16] = []
        output.reserveCapacity(Int(Double(chunk.count) / step) + 2)
        while true {
            let index = Int(position)
            guard index + 2 < input.count else { break }
            let t = Float(position - Double(index))
            let p0 = Float(input[index - 1]), p1 = Float(input[index]), p2 = Float(input[index + 1]), p3 = Float(input[index + 2])
            let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
            let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
            let c = -0.5 * p0 + 0.5 * p2
            let value = ((a * t + b) * t + c) * t + p1
            output.append(Int16(max(-32768, min(32767, value.rounded()))))
            position += step
        }
        let drop = max(0, Int(position) - 1)
        pending = Array(input[drop...])
        position -= Double(drop)
        return output
    }
}
