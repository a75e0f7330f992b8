import Foundation
import NarratorPulseHarness
import NarratorSpeech
import Synchronization

/// Speech latency: time to the first PCM at the output, and interrupt to silence, each beside a
/// baseline measured in the same run (eSpeak NG's own first chunk; the output's own interrupt).
enum SpeechBenchmark {
    static let text = "rating, 3, adjustable"
    static let long = String(repeating: "Narrator keeps reading this paragraph until something interrupts it. ", count: 8)

    static func run(runs: Int) -> [BenchResult] {
        let engine: EspeakEngine
        do { engine = try EspeakEngine() } catch {
            print("speech: skipped, eSpeak NG could not start: \(error)")
            return []
        }
        // A first chunk costs about 0.1 ms, so it gets eight times the samples: with 50, "p99" was
        // the single slowest run and swung between 1.0x and 3x from run to run on shared cores.
        var results = firstChunk(engine: engine, runs: runs * 8)
        results += interruptToSilence(engine: engine, output: NullOutput(), label: "null", runs: runs)

        guard PrivatePulseServer.isInstalled else {
            print("speech: pulse figures skipped: pulseaudio/pulseaudio-utils are not installed")
            return results
        }
        let pulse = PrivatePulseServer()
        do {
            try pulse.start()
            pulse.useInThisProcess()
            let device = try PulseOutput(format: AudioFormat(sampleRate: engine.sampleRate))
            results += interruptToSilence(engine: engine, output: device, label: "pulse", runs: runs)
        } catch {
            print("speech: pulse figures skipped: \(error)")
        }
        pulse.stop()
        return results
    }

    /// eSpeak NG through the engine alone (from the engine thread starting the job to its first
    /// chunk) beside the daemon's path (the plan deciding, the player playing) to the first `write`.
    static func firstChunk(engine: EspeakEngine, runs: Int) -> [BenchResult] {
        let probe = OutputProbe(NullOutput())
        let service = SpeechRig(engine: engine, output: probe)
        var library: [Double] = []
        var narrator: [Double] = []
        for index in 0..<(runs + 5) {
            let started = Mutex<Double>(0)
            let first = Mutex<Double?>(nil)
            let done = DispatchSemaphore(value: 0)
            engine.submit(SynthesisJob(
                text: text,
                onStart: { started.withLock { $0 = Clock.now() } },
                onChunk: { _ in
                    first.withLock { $0 = $0 ?? Clock.now() }
                    return false  // the first chunk is all that is measured
                },
                onEnd: { _ in done.signal() }))
            done.wait()

            let said = Clock.now()
            let id = service.say(text)
            let written = probe.wait(for: id) { $0.firstWrite }
            service.stop()
            service.waitUntilEngineIdle()

            guard index >= 5, let written, let chunk = first.withLock({ $0 }) else { continue }  // 5 warm-up runs
            library.append(chunk - started.withLock { $0 })
            narrator.append(written - said)
        }
        return percentiles("first chunk", narrator, baseline: library,
                           baselineName: "eSpeak NG job start to first chunk", note: "say to first write (null), target <= 1.3x")
    }

    /// `say(.focus)` of a new utterance while a long one plays, until the output is silent (its
    /// interrupt returned and no write of the old utterance is in flight), beside the output's own
    /// `interrupt()` called directly during playback.
    static func interruptToSilence(engine: EspeakEngine, output: any AudioOutput, label: String, runs: Int) -> [BenchResult] {
        let probe = OutputProbe(output)
        let service = SpeechRig(engine: engine, output: probe)
        var direct: [Double] = []
        var viaService: [Double] = []
        var missed = 0
        for index in 0..<(runs + 3) {
            for throughService in [false, true] {
                let old = service.say(long)
                guard probe.wait(for: old, { $0.firstWrite }) != nil else { missed += 1; continue }
                // Let playback settle so that the writer is blocked in the device, as in real use.
                Thread.sleep(forTimeInterval: 0.15 + Double(index % 5) * 0.01)
                let requested = Clock.now()
                if throughService {
                    service.say(text)
                } else {
                    probe.interrupt()
                }
                let silent = probe.wait(for: old) { $0.silentAt }
                service.stop()
                service.waitUntilEngineIdle()
                guard let silent else { missed += 1; continue }
                if index >= 3 {  // warm-up
                    if throughService { viaService.append(silent - requested) } else { direct.append(silent - requested) }
                }
            }
        }
        let note = "say(focus) over playing speech to silence" + (missed > 0 ? ", \(missed) runs missed" : "") + ", target p99 < 5 ms"
        return percentiles("interrupt \(label)", viaService, baseline: direct,
                           baselineName: "\(label) interrupt() called directly", note: note)
    }

    static func percentiles(_ name: String, _ values: [Double], baseline: [Double], baselineName: String, note: String) -> [BenchResult] {
        [50.0, 99.0].map { p in
            BenchResult(
                name: "\(name) p\(Int(p))", value: Stats.percentile(values, p) * 1000, unit: "ms",
                baseline: Stats.percentile(baseline, p) * 1000, baselineName: baselineName,
                note: "\(note), n=\(values.count)")
        }
    }
}
