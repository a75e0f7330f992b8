import Foundation
import NarratorPulseHarness
@testable import NarratorSpeech
import NarratorSpeechPlan
import NarratorSystem
import Synchronization
import Testing

extension PulseEndToEndTests {
    /// The sound output's interleavings, many times over, on a real sound server with both cores kept
    /// busy: speech, an interrupt landing mid-write from another thread, the stream's idle close and
    /// its reopening, the server killed and started again, and whole outputs dropped while their
    /// device threads are still busy. A run of `make test` once aborted inside libpulse
    /// (`pa_stream_unref`, then `pa_mutex_free`) on a device thread during ``PulseEndToEndTests``
    /// on PipeWire: `pa_simple_free` beside another call on the same stream aborts so, which
    /// `deviceCallsRacingItsClose` makes happen within its first rounds without ``StreamGate``
    /// (docs/reliability.md).
    ///
    /// `NARRATOR_PULSE_STRESS_REPEATS` sets the repetitions per server (default 12, which keeps
    /// `make test` short); `make test-pulse-stress` runs 200.
    ///
    /// Nested in ``PulseEndToEndTests`` so that its serialization keeps them apart: libpulse finds its
    /// server through `PULSE_SERVER`, one variable for the whole test process, so two of these suites
    /// running at once would each speak to the other's server.
    @Suite("Sound output under stress")
    struct PulseStressTests {
        static var repetitions: Int {
            ProcessInfo.processInfo.environment["NARRATOR_PULSE_STRESS_REPEATS"].flatMap { Int($0) } ?? 12
        }

        @Test("speak, interrupt mid-write, idle close, reopen and server restarts, repeated under CPU load", arguments: SoundServerKind.installed)
        func interleavingsUnderLoad(_ kind: SoundServerKind) throws {
            let server = kind.make()
            try server.start()
            defer { server.stop() }
            server.useInThisProcess()
            defer { unsetenv("PULSE_SERVER") }
            let load = try CPULoad(processes: 2)
            defer { load.stop() }

            let format = AudioFormat(sampleRate: sharedEngine.sampleRate)
            let speech = try synthesized("Narrator speaks, and is cut off.")
            // 20 ms pieces, as an engine hands them over: many writes, so an interrupt lands inside one.
            let piece = format.sampleRate / 50
            let chunks = stride(from: 0, to: speech.count, by: piece).map { Array(speech[$0..<min($0 + piece, speech.count)]) }
            let repetitions = Self.repetitions
            let stress = StressRun()

            func makeOutput() -> ServerOutput {
                ServerOutput(
                    spec: .pulse, retryInterval: .milliseconds(50), stallTimeout: .seconds(5), idleClose: .milliseconds(15))
            }
            var output = makeOutput()
            #expect(eventually(timeout: .seconds(30)) { output.status.active == "pulse" }, "\(output.status)")

            let finished = DispatchSemaphore(value: 0)
            let interrupter = WorkerThread(name: "stress.interrupter")
            defer { interrupter.stop() }
            // The engine's side on a thread of its own, so that a hang fails the test instead of stopping it.
            let engine = WorkerThread(name: "stress.engine")
            defer { engine.stop() }
            var failure: String?
            for rep in 0..<repetitions {
                // Every twentieth: the server dies (as in a crash) and comes back; the output falls back to
                // null and reconnects on its own. Every seventh: a new output, the old one dropped while busy.
                if rep % 20 == 9 {
                    server.stop()
                    do { try server.start() } catch { failure = "the sound server did not start again: \(error)"; break }
                }
                if rep % 7 == 6 { output = makeOutput() }
                let current = output
                let id = UtteranceID(UInt64(rep + 1))
                // Where the interrupt lands: before the first write, in the middle of the writes, during
                // the drain, or not at all; each shifted a little from one repetition to the next.
                let cutAfter: Int? = switch rep % 4 {
                case 0: 0
                case 1: 1 + rep % max(1, chunks.count - 1)
                case 2: chunks.count
                default: nil
                }
                engine.submit { _ in
                    current.begin(id, kind: .focus, format: format)
                    for (index, chunk) in chunks.enumerated() {
                        if index == cutAfter { interrupter.submit { _ in current.interrupt() } }
                        current.write(chunk)
                    }
                    if cutAfter == chunks.count { interrupter.submit { _ in current.interrupt() } }
                    current.end()
                    // Long enough every other time for the idle close to run before the next begin.
                    if rep % 2 == 0 { usleep(25_000) }
                    stress.repeated()
                    finished.signal()
                }
                guard finished.wait(timeout: .now() + 60) == .success else {
                    failure = "repetition \(rep + 1) hung: \(current.status)"
                    break
                }
            }
            #expect(failure == nil, "\(failure ?? "")")
            #expect(stress.repetitions == repetitions)

            // After all of it the output still plays speech to the sink.
            #expect(eventually(timeout: .seconds(30)) { output.status.active == "pulse" }, "\(output.status)")
            let recording = server.directory + "/after-stress.raw"
            _ = try server.record(to: recording)
            let last = output
            let after = UtteranceID(UInt64(repetitions + 1))
            engine.submit { _ in
                for _ in 0..<3 {
                    last.begin(after, kind: .focus, format: format)
                    for chunk in chunks { last.write(chunk) }
                    last.end()
                }
                finished.signal()
            }
            #expect(finished.wait(timeout: .now() + 60) == .success, "the last utterances ended")
            #expect(SpeechDetection.waitForSpeech(in: recording), "speech after \(repetitions) repetitions reached the sink")
        }

        @Test("the raw device: its stream closed and reopened from other threads while it writes, drains and flushes", arguments: SoundServerKind.installed)
        func deviceCallsRacingItsClose(_ kind: SoundServerKind) throws {
            let server = kind.make()
            try server.start()
            defer { server.stop() }
            server.useInThisProcess()
            defer { unsetenv("PULSE_SERVER") }
            let load = try CPULoad(processes: 2)
            defer { load.stop() }

            let format = AudioFormat(sampleRate: sharedEngine.sampleRate)
            let speech = try synthesized("Closed under a write.")
            let piece = format.sampleRate / 100
            let chunks = stride(from: 0, to: speech.count, by: piece).map { Array(speech[$0..<min($0 + piece, speech.count)]) }
            // The first open may find PipeWire's session manager, slowed by the load, not yet done
            // with the null sink (pcaudiolib then falls back to ALSA, which has no device: ENOENT,
            // seen once in a clean-clone run): it is tried again for up to 10 s. What is stressed
            // is the stream's closing and reopening under calls, not the server's start.
            var opened: PulseOutput?
            var attempts: [String] = []
            let openDeadline = ContinuousClock.now + .seconds(10)
            while opened == nil {
                do {
                    opened = try PulseOutput(format: format)
                } catch {
                    attempts.append("\(error)")
                    guard ContinuousClock.now < openDeadline else { break }
                    usleep(200_000)
                }
            }
            let device = try #require(opened, "the stream never opened: \(attempts)")
            let rounds = Self.repetitions
            let done = Atomic<Bool>(false)
            let finished = DispatchSemaphore(value: 0)

            // The writer: utterance after utterance, each begun (reopening a closed stream), written and drained.
            let writer = WorkerThread(name: "stress.writer")
            defer { writer.stop() }
            writer.submit { _ in
                for round in 0..<rounds {
                    try? device.begin(UtteranceID(UInt64(round + 1)), kind: .focus, format: format)
                    for chunk in chunks { try? device.write(chunk) }
                    try? device.end()
                }
                done.store(true, ordering: .releasing)
                finished.signal()
            }
            // Meanwhile an interrupt (a flush) and a close (the idle close) land at every point of those calls.
            let interrupter = WorkerThread(name: "stress.interrupter")
            defer { interrupter.stop() }
            interrupter.submit { _ in
                while !done.load(ordering: .acquiring) {
                    device.interrupt()
                    usleep(3_000)
                }
                finished.signal()
            }
            let closer = WorkerThread(name: "stress.closer")
            defer { closer.stop() }
            closer.submit { _ in
                // Between 1 and 25 ms apart, so that some utterances get going and some are closed at once.
                var step: UInt32 = 0
                while !done.load(ordering: .acquiring) {
                    device.standBy()
                    step &+= 1
                    usleep(1_000 + step &* 7_919 % 24_000)
                }
                finished.signal()
            }
            for _ in 0..<3 {
                #expect(finished.wait(timeout: .now() + 300) == .success, "every thread finished its calls")
            }

            // Whether the raw device plays again afterwards is not checked here: on PipeWire its next
            // utterances sometimes did not finish within a minute (docs/speech.md). Speech after the
            // stress is checked through `ServerOutput` above, which gives such a call up at its deadline.
        }

        /// Real speech from eSpeak NG, collected whole.
        private func synthesized(_ text: String) throws -> [Int16] {
            let samples = Mutex<[Int16]>([])
            let done = DispatchSemaphore(value: 0)
            sharedEngine.submit(SynthesisJob(
                text: text, onStart: {}, onChunk: { chunk in samples.withLock { $0 += chunk }; return true },
                onEnd: { _ in done.signal() }))
            #expect(done.wait(timeout: .now() + 30) == .success)
            let speech = samples.withLock { $0 }
            #expect(speech.count > sharedEngine.sampleRate / 2, "eSpeak NG spoke the sentence")
            return speech
        }
    }
}

/// Counts what a stress run did, from any thread.
private final class StressRun: Sendable {
    private let count = Mutex<Int>(0)
    func repeated() { count.withLock { $0 += 1 } }
    var repetitions: Int { count.withLock { $0 } }
}

/// Busy child processes that keep the machine's cores loaded, so that the output's threads are
/// preempted at every point of their calls. Each spins only while the test process lives (`kill -0`
/// is the shell's own), so a test that crashes leaves no load behind.
final class CPULoad: Sendable {
    private let children: [ChildProcess]

    init(processes: Int) throws {
        var children: [ChildProcess] = []
        for _ in 0..<processes {
            children.append(try ChildProcess("/bin/sh", ["-c", "while kill -0 $PPID 2>/dev/null; do :; done"], environment: [:]))
        }
        self.children = children
    }

    func stop() {
        for child in children { _ = try? child.kill() }
    }
}
