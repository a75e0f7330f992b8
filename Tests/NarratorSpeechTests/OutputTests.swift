import Foundation
import NarratorEngines
@testable import NarratorSpeech
import NarratorSpeechPlan
import Synchronization
import Testing

@Suite("Audio specs")
struct AudioSpecTests {
    @Test("the four --audio forms parse, others give a clear error")
    func parse() throws {
        #expect(try AudioSpec.parse("auto") == .auto)
        #expect(try AudioSpec.parse("pulse") == .pulse)
        #expect(try AudioSpec.parse("null") == .null)
        #expect(try AudioSpec.parse("wav:/tmp/x") == .wav(directory: "/tmp/x"))
        #expect(throws: AudioSpecError.missingDirectory) { try AudioSpec.parse("wav:") }
        #expect(throws: AudioSpecError.empty) { try AudioSpec.parse("") }
        do {
            _ = try AudioSpec.parse("alsa")
            Issue.record("alsa is not a spec")
        } catch {
            #expect(error.description.contains("auto, pulse, null or wav:DIR"))
        }
    }
}

@Suite("Outputs report their status")
struct OutputStatusTests {
    @Test("null and wav name their spec; neither is a fallback")
    func fixedOutputs() throws {
        #expect(NullOutput().status == OutputStatus(spec: .null, active: "null", fallback: false))
        let directory = temporaryDirectory("status")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wav = try WavOutput(directory: directory)
        #expect(wav.status == OutputStatus(spec: .wav(directory: directory), active: "wav:\(directory)", fallback: false))
        #expect(!wav.status.stalled)
    }
}

@Suite("The speech player on the real engine", .serialized)
struct SpeechPlayerTests {
    /// A play request for `text` with the default voice and prosody.
    func request(_ id: UInt64, _ text: String, _ kind: SpeechKind = .focus) -> PlayRequest {
        PlayRequest(utterance: UtteranceRequest(id: UtteranceID(id), kind: kind, text: text), voice: .standard, parameters: VoiceParameters())
    }

    @Test("the WAV output writes files that Python's wave module reads back exactly")
    func wavFiles() throws {
        let directory = temporaryDirectory("wav")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: try WavOutput(directory: directory), onEvent: log.handler)
        player.play(request(1, "Hello world"))
        #expect(log.wait { $0.contains(.ended(UtteranceID(1), problem: nil)) })
        player.play(request(2, "Fifty percent", .value))
        #expect(log.wait { $0.contains(.ended(UtteranceID(2), problem: nil)) })
        let expected = try sharedEngine.synthesize("Hello world")
        let script = """
            import sys, wave
            for path in sys.argv[1:]:
                w = wave.open(path)
                print(w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes())
            """
        let output = try run("/usr/bin/env", ["python3", "-c", script, directory + "/000001-focus.wav", directory + "/000002-value.wav"])
        let lines = output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        #expect(lines.count == 2)
        #expect(Array(lines.first?.prefix(3) ?? []) == [sharedEngine.sampleRate, 1, 2])
        // eSpeak NG's output for the same text varies with its previous state (up to about 7%
        // seen here), so the duration is checked against a fresh synthesis within 15%.
        let frames = Double(lines.first?[3] ?? 0)
        #expect(abs(frames - Double(expected.count)) < Double(expected.count) * 0.15, "\(frames) vs \(expected.count)")
        #expect((lines.last?[3] ?? 0) > sharedEngine.sampleRate / 4)
    }

    @Test("on the null output an utterance ends no earlier than its audio would have been heard")
    func nullOutputKeepsRealTime() throws {
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let started = ContinuousClock.now
        player.play(request(1, "OK, button"))
        #expect(log.wait { $0.contains(.ended(UtteranceID(1), problem: nil)) })
        let audio = AudioFormat(sampleRate: sharedEngine.sampleRate).duration(ofSamples: try sharedEngine.synthesize("OK, button").count)
        #expect(ContinuousClock.now - started >= audio - .milliseconds(150), "null output plays as long as the audio lasts")
    }

    @Test("play and stop return at once while the engine thread is busy (the daemon calls them from its event loop)")
    func playAndStopNeverWaitForTheEngine() throws {
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        // Hold the engine thread inside a job, as a long utterance or a backlog of them does.
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        sharedEngine.submit(SynthesisJob(text: "held", onStart: { started.signal(); release.wait() }, onChunk: { _ in false }, onEnd: { _ in }))
        started.wait()
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            player.play(PlayRequest(utterance: UtteranceRequest(id: UtteranceID(7), kind: .focus, text: "queued behind"), voice: .standard, parameters: VoiceParameters()))
            player.stop(UtteranceID(7))
            player.play(PlayRequest(utterance: UtteranceRequest(id: UtteranceID(8), kind: .focus, text: "after"), voice: .standard, parameters: VoiceParameters()))
            answered.signal()
        }
        // A watchdog, not a speed limit: a player that waited for the engine would hang here.
        let returnedWhileBusy = answered.wait(timeout: .now() + 30) == .success
        release.signal()
        if !returnedWhileBusy { answered.wait() }
        #expect(returnedWhileBusy, "play or stop waited for the engine thread")
        // The stopped one is never reported (the plan that stopped it already knows); the next plays.
        #expect(log.wait { $0.contains(.ended(UtteranceID(8), problem: nil)) })
        #expect(!log.all.contains { if case .ended(UtteranceID(7), _) = $0 { true } else { false } })
    }

    @Test("stopping the playing utterance silences it and the next one plays to its end")
    func stopThenPlay() throws {
        let log = PlayerLog()
        let output = CountingOutput(NullOutput())
        let player = SpeechPlayer(engine: sharedEngine, output: output, onEvent: log.handler)
        player.play(request(1, String(repeating: "A long description that keeps going. ", count: 8)))
        Thread.sleep(forTimeInterval: 0.3)
        player.stop(UtteranceID(1))
        // The long one may have begun before the stop (when the shared engine was free); nothing
        // about it comes after.
        let atStop = log.all
        player.play(request(2, "Cancel, button"))
        #expect(log.wait { $0.contains(.ended(UtteranceID(2), problem: nil)) })
        // The null output plays in real time, so the long one (about 15 s) wrote what played before the stop.
        let longSeconds = Double(output.samples(of: UtteranceID(1))) / Double(sharedEngine.sampleRate)
        #expect(longSeconds < 5, "the long one wrote \(longSeconds) s of audio: the stop did not cut it")
        #expect(output.samples(of: UtteranceID(2)) > 0)
        #expect(atStop.allSatisfy { if case .reached(UtteranceID(1), _) = $0 { true } else { $0 == .began(UtteranceID(1)) } }, "\(atStop)")
        #expect(Array(log.all.dropFirst(atStop.count)) == [.began(UtteranceID(2)), .reached(UtteranceID(2), offset: 0), .ended(UtteranceID(2), problem: nil)])
    }

    @Test("an output that cannot begin the utterance is reported as its end, with the reason")
    func outputFailureIsReported() throws {
        let directory = temporaryDirectory("wav-gone")
        let log = PlayerLog()
        let output = try WavOutput(directory: directory)
        let player = SpeechPlayer(engine: sharedEngine, output: output, onEvent: log.handler)
        try FileManager.default.removeItem(atPath: directory)
        player.play(request(1, "Nowhere to go"))
        #expect(log.wait { $0.contains { if case .ended(UtteranceID(1), let problem?) = $0 { problem.contains(directory) } else { false } } })
    }

    @Test("an output that refuses a write in the middle ends the utterance with the reason, unlike a stop")
    func writeFailureIsReported() throws {
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: RefusingOutput(), onEvent: log.handler)
        player.play(request(1, "The device goes away after the first chunk of this sentence."))
        #expect(log.wait { $0.contains { if case .ended(UtteranceID(1), let problem?) = $0 { problem.contains("device gone") } else { false } } })
    }

    @Test("settings persist across restarts and bad values are refused")
    func settingsPersist() throws {
        let directory = temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SpeechSettingsStore(path: directory + "/speech.json")
        var settings = try store.load()
        let catalog = VoiceCatalog(voices: sharedEngine.voices, variants: sharedEngine.variants)
        try settings.set("rate", to: "260", installed: catalog)
        try settings.set("hints", to: "off", installed: catalog)
        try settings.set("punctuation", to: "some", installed: catalog)
        #expect(throws: SpeechSettingsError.self) { try settings.set("rate", to: "9000", installed: catalog) }
        #expect(throws: SpeechSettingsError.unknownVoice("nobody", suggestion: nil)) { try settings.set("voice", to: "nobody", installed: catalog) }
        #expect(throws: SpeechSettingsError.unknownKey("speed")) { try settings.set("speed", to: "1", installed: catalog) }
        // A voice with a variant, as SSIP names it; a typo in either half is mended in the error.
        #expect(throws: SpeechSettingsError.unknownVoice("Germna+grandma", suggestion: "German+grandma")) {
            try settings.set("voice", to: "Germna+grandma", installed: catalog)
        }
        #expect(throws: SpeechSettingsError.unknownVoice("German+grandmaa", suggestion: "German+grandma")) {
            try settings.set("voice", to: "German+grandmaa", installed: catalog)
        }
        try settings.set("voice", to: "German+grandma", installed: catalog)
        #expect(settings.chosenVoice(installed: catalog) == .withVariant(.named("German"), variant: "grandma"))
        try store.save(settings)
        let restarted = try store.load()
        #expect(restarted.rate == 260)
        #expect(restarted.hints == false)
        #expect(try restarted.get("punctuation") == "some")
    }

    @Test("a settings file that cannot be read is reported, with its path")
    func unreadableSettings() throws {
        let directory = temporaryDirectory("settings-bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/speech.json", contents: Data("{rate".utf8))
        do {
            _ = try SpeechSettingsStore(path: directory + "/speech.json").load()
            Issue.record("a corrupt file must not load")
        } catch {
            #expect(error.description.contains("speech.json"))
        }
    }
}

/// Counts the samples each utterance hands to the output it wraps (a real one, which plays them),
/// so that a test can tell how much of an utterance was heard without timing anything.
final class CountingOutput: AudioOutput {
    let inner: any AudioOutput
    var name: String { inner.name }
    var status: OutputStatus { inner.status }
    private struct Counts {
        var current: UtteranceID?
        var samples: [UtteranceID: Int] = [:]
    }
    private let counts = Mutex(Counts())

    init(_ inner: any AudioOutput) { self.inner = inner }

    func samples(of utterance: UtteranceID) -> Int { counts.withLock { $0.samples[utterance] ?? 0 } }

    func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) throws(AudioOutputError) {
        counts.withLock { $0.current = utterance }
        try inner.begin(utterance, kind: kind, format: format)
    }
    func write(_ samples: [Int16]) throws(AudioOutputError) {
        counts.withLock { counts in
            if let current = counts.current { counts.samples[current, default: 0] += samples.count }
        }
        try inner.write(samples)
    }
    func end() throws(AudioOutputError) { try inner.end() }
    func interrupt() { inner.interrupt() }
}

/// An output whose device fails at the second write: a device boundary stand-in (a sound card
/// that disappears), for what the player reports when audio is refused mid-utterance.
final class RefusingOutput: AudioOutput {
    let name = "refusing"
    var status: OutputStatus { OutputStatus(spec: .null, active: name, fallback: false) }
    private let writes = Mutex(0)
    func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) throws(AudioOutputError) {}
    func write(_ samples: [Int16]) throws(AudioOutputError) {
        let count = writes.withLock { count -> Int in
            count += 1
            return count
        }
        if count > 1 { throw .writeFailed(code: -1, message: "device gone") }
    }
    func end() throws(AudioOutputError) {}
    func interrupt() {}
}
