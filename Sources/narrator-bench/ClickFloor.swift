import Foundation
import NarratorPulseHarness
import NarratorSpeech
import NarratorSpeechPlan
import NarratorSystem

/// The floor under what the listener hears: the fastest any program can start, or stop, being
/// heard through the sound server here. A stream is opened once on the private server, with
/// pcaudiolib as narratord's is, and left idle between samples (so no silence is queued in front
/// of a click; a stream kept fed with silence drifts against the null sink's clock). Each onset
/// sample writes a short click into it; each silence sample plays a tone and flushes it. Both are
/// timed at the sink by the same recorder as the systems measured, so what a speech server adds
/// (its queue, its synthesis, its own streams) is its figure less the floor's.
final class ClickFloor {
    let output: PulseOutput
    private let format: AudioFormat
    private var next: UInt64 = 1
    /// 2.5 ms of a square wave at a quarter of full scale: loud from its first sample.
    private let clickSamples: [Int16]
    /// One second of the same wave, to be cut short.
    private let toneSamples: [Int16]

    init(pulse: PrivatePulseServer) throws {
        pulse.useInThisProcess()
        format = AudioFormat(sampleRate: pulse.sampleRate)
        output = try PulseOutput(applicationName: "narrator-bench floor", format: format)
        func square(_ count: Int) -> [Int16] { (0..<count).map { ($0 / 11) % 2 == 0 ? 8_192 : -8_192 } }
        clickSamples = square(pulse.sampleRate / 400)
        toneSamples = square(pulse.sampleRate)
        // A new stream's first audio can wait for the server to start it: 50 ms of silence,
        // played out, leave it started and idle, as narratord's is after its first utterance.
        try output.begin(newUtterance(), kind: .speak, format: format)
        try output.write([Int16](repeating: 0, count: pulse.sampleRate / 20))
        try output.end()
    }

    /// Writes one click into the idle stream; returns when `write` was called.
    func click() throws -> Double {
        try output.begin(newUtterance(), kind: .speak, format: format)
        let sent = Clock.now()
        try output.write(clickSamples)
        try output.end()
        return sent
    }

    /// Plays the tone from another thread (a write blocks while the server's buffer is full, as
    /// the engine thread's does) and, once `recorder` hears it, flushes the stream; returns when
    /// the flush was asked for.
    func flushedTone(recorder: SinkRecorder, after settle: Double) throws -> Double {
        try output.begin(newUtterance(), kind: .speak, format: format)
        let output = self.output
        let tone = toneSamples
        let writer = JoinableThread {
            try? output.write(tone)
            try? output.end()
        }
        defer { writer.join() }
        Thread.sleep(forTimeInterval: settle)
        recorder.waitForLoud()
        let asked = Clock.now()
        output.interrupt()
        return asked
    }

    private func newUtterance() -> UtteranceID {
        defer { next += 1 }
        return UtteranceID(next)
    }
}
