import Foundation
@testable import NarratorSpeech
import Testing

/// Flite's 16 kHz (and kal's 8 kHz) audio raised to the stream's 22050 Hz: the right length, the
/// same however it is chunked, a tone kept a tone, and nothing past full scale.
@Suite struct StreamResamplerTests {
    static func tone(_ frequency: Double, rate: Int, seconds: Double) -> [Int16] {
        (0..<Int(Double(rate) * seconds)).map { Int16(12_000 * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
    }

    @Test func aSecondAt16kHzBecomesASecondAt22050Hz() {
        for rate in [16_000, 8_000] {
            var resampler = StreamResampler(from: rate, to: 22_050)
            let out = resampler.process(Self.tone(440, rate: rate, seconds: 1))
            // Short by what the last two input samples (the interpolation's look-ahead) would give.
            #expect(abs(out.count - 22_050) <= 2 * 22_050 / rate + 1, "\(rate) Hz: \(out.count) samples")
        }
    }

    @Test func theOutputDoesNotDependOnHowTheInputIsChunked() {
        let input = Self.tone(300, rate: 16_000, seconds: 0.5)
        var whole = StreamResampler(from: 16_000, to: 22_050)
        let expected = whole.process(input)
        for size in [1, 2, 7, 320, 1000] {
            var chunked = StreamResampler(from: 16_000, to: 22_050)
            var output: [Int16] = []
            var start = 0
            while start < input.count {
                output += chunked.process(Array(input[start..<min(start + size, input.count)]))
                start += size
            }
            #expect(output == expected, "chunks of \(size)")
        }
    }

    /// The resampled tone matches the same tone generated at 22050 Hz, to within a small error.
    @Test func aToneStaysTheSameTone() {
        var resampler = StreamResampler(from: 16_000, to: 22_050)
        let out = resampler.process(Self.tone(1_000, rate: 16_000, seconds: 0.2))
        let reference = Self.tone(1_000, rate: 22_050, seconds: 0.2)
        // The output starts one input sample late (the interpolation's look-behind is a zero).
        let errors = zip(out.dropFirst(10), reference.dropFirst(10)).map { abs(Int($0) - Int($1)) }
        #expect(errors.max() ?? .max < 200, "largest difference \(errors.max() ?? -1) of 12000")
    }

    @Test func fullScaleIsClampedNotWrapped() {
        var resampler = StreamResampler(from: 8_000, to: 22_050)
        let square = (0..<400).map { $0 / 4 % 2 == 0 ? Int16.max : Int16.min }
        let out = resampler.process(square)
        // Catmull-Rom overshoots at the edges: clamped, the samples next to an edge stay at its sign.
        for (index, sample) in out.enumerated().dropFirst(2) where index + 2 < out.count {
            let previous = out[index - 1]
            #expect(!(previous == .max && sample < -30_000 && out[index + 1] == .max), "wrapped at \(index)")
        }
        #expect(out.contains(.max) && out.contains(.min))
    }
}
