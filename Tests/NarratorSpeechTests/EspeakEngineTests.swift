import Foundation
import NarratorEngines
import NarratorPulseHarness
@testable import NarratorSpeech
import Synchronization
import Testing

@Suite("eSpeak NG engine (real synthesis)")
struct EspeakEngineTests {
    @Test("a phrase produces a plausible amount of non-silent speech, a longer phrase more")
    func plausiblePCM() throws {
        let engine = sharedEngine
        let short = try engine.synthesize("Hello world")
        let long = try engine.synthesize("Hello world. This sentence is considerably longer than the first one.")
        let seconds = Double(short.count) / Double(engine.sampleRate)
        #expect(seconds > 0.4 && seconds < 3, "'Hello world' lasts \(seconds) s")
        #expect(SpeechDetection.rms(short) > 500, "speech is not silence")
        #expect(long.count > short.count * 2)
    }

    @Test("rate changes the length of the speech")
    func rateMatters() throws {
        let slow = try sharedEngine.synthesize("one two three four five", parameters: VoiceParameters(rate: 100))
        let fast = try sharedEngine.synthesize("one two three four five", parameters: VoiceParameters(rate: 350))
        #expect(slow.count > fast.count * 2)
    }

    @Test("a cancelled utterance stops producing samples")
    func cancelStopsSynthesis() throws {
        let full = try sharedEngine.synthesize(String(repeating: "This is a long text to be cut short. ", count: 10))
        let chunks = Mutex(0)
        let received = Mutex(0)
        let outcome = Mutex<SynthesisJob.Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let holder = Mutex<SynthesisJob?>(nil)
        let job = SynthesisJob(
            text: String(repeating: "This is a long text to be cut short. ", count: 10),
            onChunk: { chunk in
                received.withLock { $0 += chunk.count }
                let count = chunks.withLock { count in
                    count += 1
                    return count
                }
                if count == 2 { holder.withLock { $0?.cancel() } }
                return true
            },
            onEnd: { result in
                outcome.withLock { $0 = result }
                done.signal()
            })
        holder.withLock { $0 = job }
        sharedEngine.submit(job)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(chunks.withLock { $0 } == 2, "no chunk arrives after the cancel")
        guard case .cancelled(let samples) = outcome.withLock({ $0 }) else {
            Issue.record("expected a cancelled outcome, got \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(samples == received.withLock { $0 })
        #expect(samples * 10 < full.count)
    }

    @Test("a job cancelled before it starts is skipped")
    func cancelledBeforeStart() {
        let outcome = Mutex<SynthesisJob.Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = SynthesisJob(text: "never", onChunk: { _ in true }, onEnd: { result in
            outcome.withLock { $0 = result }
            done.signal()
        })
        job.cancel()
        sharedEngine.submit(job)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(outcome.withLock { $0 } == .skipped)
    }

    @Test("a job whose output cannot begin synthesizes nothing and ends with the output's error")
    func outputFailsToStart() throws {
        let failure = AudioOutputError.openFailed(code: 7, message: "no stream")
        let chunks = Mutex(0)
        let outcome = Mutex<SynthesisJob.Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = SynthesisJob(
            text: "This is never heard.",
            onStart: { () throws(AudioOutputError) in throw failure },
            onChunk: { _ in
                chunks.withLock { $0 += 1 }
                return true
            },
            onEnd: { result in
                outcome.withLock { $0 = result }
                done.signal()
            })
        sharedEngine.submit(job)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(outcome.withLock { $0 } == .outputFailed(failure))
        #expect(outcome.withLock { $0 }?.startedOutput == false, "the output has no utterance to end")
        #expect(chunks.withLock { $0 } == 0)
        // The engine goes on with the next job.
        #expect(try sharedEngine.synthesize("Hello").count > 0)
    }

    @Test("the installed voices include English, with languages and gender")
    func voicesIncludeEnglish() {
        let voices = sharedEngine.voices
        #expect(voices.count > 10)
        #expect(voices.contains { $0.languages.contains("en") || $0.languages.contains("en-gb") })
        #expect(voices.allSatisfy { !$0.name.isEmpty && !$0.languages.isEmpty })
    }

    @Test("a language picks a voice of that language")
    func languageSelection() throws {
        let french = try sharedEngine.resolve(.language("fr-FR"))
        #expect(french.lowercased().contains("fr"))
        let english = try sharedEngine.resolve(.language("en-GB"))
        #expect(english.lowercased().contains("english") || english.lowercased().contains("en"))
        #expect(throws: EspeakError.self) { try sharedEngine.resolve(.named("no-such-voice")) }
    }

    /// The engine keeps the voice it loaded while the next choice names the same one (English by
    /// name and the language "en" an SSIP client asks for take turns without a reload), and loads
    /// another whenever the choice names another: in any order, each choice gets its own voice.
    @Test("choices that name one voice share it, and every choice still gets its own voice")
    func voiceSwitching() throws {
        let female = VoiceChoice.language("en").with(variant: "f1")
        let choices: [VoiceChoice] = [.standard, .language("en"), .language("en-US"), .language("fr"), female]
        let alone = try choices.map { choice in
            // Each after a voice that is surely another, so that it is loaded afresh.
            _ = try sharedEngine.resolve(.language("de"))
            return try sharedEngine.resolve(choice)
        }
        #expect(alone[0] == alone[1])
        #expect(Set(alone[1...3]).count == 3, "\(alone)")
        for index in [0, 1, 0, 2, 1, 4, 0, 3, 1, 1, 4, 2, 0] {
            #expect(try sharedEngine.resolve(choices[index]) == alone[index], "\(choices[index])")
        }
    }

    @Test("a second engine in the same process is refused")
    func oneEnginePerProcess() {
        _ = sharedEngine
        #expect(throws: EspeakError.libraryInUse) { try EspeakEngine() }
    }

    @Test("a missing data directory is a clear start-up error, not an exit")
    func missingData() async {
        await #expect(processExitsWith: .success) {
            do throws(EspeakError) {
                _ = try EspeakEngine(dataPath: "/nonexistent/espeak-ng-data")
                exit(2)
            } catch {
                guard case .dataNotFound = error, "\(error)".contains("espeak-ng-data") else { exit(3) }
            }
        }
    }

    @Test("broken data is a clear start-up error carrying the status, not an exit")
    func brokenData() async {
        await #expect(processExitsWith: .success) {
            let path = NSTemporaryDirectory() + "narrator-broken-\(getpid())"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path + "/phontab", contents: Data("garbage".utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            do throws(EspeakError) {
                _ = try EspeakEngine(dataPath: path)
                exit(2)
            } catch {
                guard case .initializationFailed(let status, message: _, path: _) = error, status != 0 else { exit(3) }
            }
        }
    }
}
