import Foundation
import NarratorEngines
import NarratorPulseHarness
@testable import NarratorSpeech
import NarratorSpeechPlan
import Synchronization
import Testing

/// Collects a player's events with when each arrived, for assertions on their timing.
final class TimedPlayerLog: Sendable {
    private let events = Mutex<[(SpeechPlayer.Event, ContinuousClock.Instant)]>([])

    var handler: @Sendable (SpeechPlayer.Event) -> Void {
        { [self] event in events.withLock { $0.append((event, ContinuousClock.now)) } }
    }

    var all: [SpeechPlayer.Event] { events.withLock { $0.map(\.0) } }

    /// When `event` arrived, if it did.
    func time(of event: SpeechPlayer.Event) -> ContinuousClock.Instant? {
        events.withLock { $0.first { $0.0 == event }?.1 }
    }

    func wait(timeout: Duration = .seconds(20), until predicate: ([SpeechPlayer.Event]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(all) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return predicate(all)
    }
}

/// A duration in seconds, for messages and arithmetic.
private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Samples louder than near-silence: how much is spoken, leaving out pauses.
private func voiced(_ samples: [Int16]) -> Int {
    samples.count { abs(Int($0)) > 500 }
}

@Suite("SSML, index marks and SSIP's voice settings on the real engine", .serialized)
struct SSMLSpeechTests {
    /// What Orca sends: a mark before each word, named by character offsets, with a bare newline.
    static let orcaSSML = "<speak><mark name=\"0:3\"/>Yes <mark name=\"4:8\"/>push\n<mark name=\"9:16\"/>button.</speak>"

    func request(_ id: UInt64, _ text: String, ssml: Bool = true) -> PlayRequest {
        PlayRequest(
            utterance: UtteranceRequest(id: UtteranceID(id), kind: .focus, text: text), voice: .standard,
            parameters: VoiceParameters(), ssml: ssml)
    }

    @Test("an SSML utterance with three marks reports began, the three marks in order, then ended")
    func marksInOrder() {
        let log = TimedPlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(1)
        player.play(request(1, Self.orcaSSML))
        #expect(log.wait { $0.contains(.ended(id, problem: nil)) })
        #expect(log.all == [.began(id), .reachedMark(id, "0:3"), .reachedMark(id, "4:8"), .reachedMark(id, "9:16"), .ended(id, problem: nil)])
    }

    @Test("a mark is reported when the audio reaches it, not when synthesis does")
    func marksAtAudioTime() throws {
        let text = "<speak><mark name=\"a\"/>This is the first part of a rather long sentence, "
            + "<mark name=\"b\"/>and this is the second part of the same sentence, "
            + "<mark name=\"c\"/>and here at last is its end.</speak>"
        let reference = try sharedEngine.synthesizeWithMarks(text)
        #expect(reference.marks.map(\.name) == ["a", "b", "c"])
        let format = AudioFormat(sampleRate: sharedEngine.sampleRate)
        let expected = Dictionary(uniqueKeysWithValues: reference.marks.map { ($0.name, seconds(format.duration(ofSamples: $0.sample))) })
        #expect((expected["c"] ?? 0) > 1.5, "the last mark is well into the audio: \(expected)")

        let log = TimedPlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(2)
        player.play(request(2, text))
        #expect(log.wait { $0.contains(.ended(id, problem: nil)) })
        guard let began = log.time(of: .began(id)) else {
            Issue.record("no began: \(log.all)")
            return
        }
        for name in ["a", "b", "c"] {
            guard let reached = log.time(of: .reachedMark(id, name)), let offset = expected[name] else {
                Issue.record("mark \(name) missing: \(log.all)")
                continue
            }
            // eSpeak NG's timing varies a little from run to run (up to about 7%), and a shared
            // machine adds scheduling delay: generous, but far tighter than synthesis speed
            // (the whole sentence is synthesized in a fraction of its length).
            let heard = seconds(reached - began)
            #expect(abs(heard - offset) < 0.1 + offset * 0.15, "mark \(name) reported at \(heard) s, its audio is at \(offset) s")
        }
        if let ended = log.time(of: .ended(id, problem: nil)), let last = log.time(of: .reachedMark(id, "c")) {
            #expect(ended >= last)
        }
    }

    @Test("stopping mid-utterance reports no mark (and no end) after the stop")
    func noMarksAfterStop() {
        let words = (0..<40).map { "<mark name=\"\($0)\"/>word\($0) " }.joined()
        let log = TimedPlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(3)
        player.play(request(3, "<speak>" + words + "</speak>"))
        #expect(log.wait { $0.contains(.reachedMark(id, "2")) })
        player.stop(id)
        let atStop = log.all
        // Long enough for several more words to have been heard had it not been stopped.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(log.all == atStop, "reported after the stop: \(log.all.dropFirst(atStop.count))")
        #expect(!atStop.contains(.reachedMark(id, "39")), "the marks were not all reported at once")
        #expect(atStop.first == .began(id))
    }

    @Test("SSML is spoken as its words, not its tags")
    func ssmlIsNotReadAsText() throws {
        let ssml = try sharedEngine.synthesize("<speak>hello</speak>", ssml: true)
        let plain = try sharedEngine.synthesize("hello")
        let tagsAsText = try sharedEngine.synthesize("<speak>hello</speak>", ssml: false)
        let spoken = Double(voiced(ssml)), word = Double(voiced(plain))
        #expect(spoken > word * 0.7 && spoken < word * 1.4, "SSML \(spoken) voiced samples, plain \(word)")
        #expect(Double(voiced(tagsAsText)) > word * 1.5, "read as text, the tags are heard")
    }

    @Test("pitch range and the capitals mode change the audio")
    func pitchRangeAndCapitals() throws {
        let text = "Hello World, Narrator Speaks"
        let normal = try sharedEngine.synthesize(text)
        let flat = try sharedEngine.synthesize(text, parameters: VoiceParameters(pitchRange: 0))
        let wide = try sharedEngine.synthesize(text, parameters: VoiceParameters(pitchRange: 100))
        #expect(flat != wide)
        #expect(flat != normal)
        let spelled = try sharedEngine.synthesize(text, parameters: VoiceParameters(capitals: .spell))
        let raised = try sharedEngine.synthesize(text, parameters: VoiceParameters(capitals: .pitch))
        #expect(spelled.count > normal.count * 5 / 4, "the word 'capital' is said before each of the four capitals")
        #expect(raised != normal)
        // And back: the defaults are restored for the next utterance.
        let again = try sharedEngine.synthesize(text)
        #expect(abs(again.count - normal.count) < normal.count / 10)
    }

    @Test("punctuation 'most' reads brackets and quotes that 'some' leaves out, but not commas")
    func mostPunctuation() throws {
        let text = "Press (this) [button], then \"that\"."
        let some = try sharedEngine.synthesize(text, parameters: VoiceParameters(punctuation: .some))
        let most = try sharedEngine.synthesize(text, parameters: VoiceParameters(punctuation: .most))
        let all = try sharedEngine.synthesize(text, parameters: VoiceParameters(punctuation: .all))
        #expect(voiced(most) > voiced(some) * 3 / 2, "brackets and quotes are read")
        #expect(voiced(all) > voiced(most), "comma and full stop are read only with 'all'")
    }

    @Test("the catalog holds eSpeak's voices, each alone and then with each variant")
    func voiceList() throws {
        let variants = sharedEngine.variants
        #expect(variants.count > 20)
        #expect(variants.contains { $0.identifier == "m1" && $0.name == "male1" })
        #expect(variants.contains { $0.identifier == "Mr serious" && $0.name == "Mr_Serious" })
        let catalog = VoiceCatalog(voices: sharedEngine.voices, variants: variants)
        #expect(catalog.count == sharedEngine.voices.count * (variants.count + 1))
        #expect(catalog.filter { $0.variant == nil }.map(\.voice) == sharedEngine.voices)
        let german = try #require(catalog.firstIndex { $0.name == "German" })
        #expect(catalog[german + 1].name == "German+" + variants[0].name)
        #expect(catalog.contains { $0.name == "German+grandma" && $0.identifier == "gmw/de+grandma" && $0.gender == .female })
    }

    @Test("a voice is chosen by name or language with a variant, and VOICE_TYPE picks eSpeak's variants")
    func voiceWithVariant() throws {
        let voices = sharedEngine.voices, variants = sharedEngine.variants
        let catalog = VoiceCatalog(voices: voices, variants: variants)
        let name = try #require(voices.first { $0.languages.first == "en-gb" }?.name)
        #expect(catalog.choice(for: name + "+Mr serious") == .withVariant(.named(name), variant: "Mr serious"))
        #expect(catalog.choice(for: name + "+Mr_Serious") == .withVariant(.named(name), variant: "Mr serious"))
        #expect(catalog.choice(for: name + "+nobody") == nil)
        #expect(catalog.choice(for: "en") == .language("en"))
        #expect(VoiceVariant.forVoiceType("FEMALE1", in: variants)?.identifier == "f1")
        #expect(VoiceVariant.forVoiceType("male3", in: variants)?.identifier == "m3")
        #expect(VoiceVariant.forVoiceType("CHILD_FEMALE", in: variants) != nil)
        #expect(VoiceVariant.forVoiceType("ROBOT", in: variants) == nil)

        let female = VoiceChoice.language("en").with(variant: "f1")
        #expect(try sharedEngine.resolve(female).lowercased().contains("english"))
        let womanSpeaks = try sharedEngine.synthesize("Hello there", voice: female)
        let manSpeaks = try sharedEngine.synthesize("Hello there", voice: .language("en").with(variant: "male1"))
        #expect(womanSpeaks != manSpeaks)
        #expect(throws: EspeakError.self) { try sharedEngine.resolve(.standard.with(variant: "no-such-variant")) }
        #expect(try sharedEngine.synthesize("Hello there", voice: .standard).count > 0)
    }
}

/// In the PulseAudio suite, whose tests run one at a time: each points `PULSE_SERVER` of this
/// whole process at its own private server, so two at once would speak to each other's.
extension PulseEndToEndTests {
    @Test("through the sound server, began comes when the speech is heard and the marks follow the audio",
          .enabled(if: PrivatePulseServer.isInstalled, "pulseaudio and pulseaudio-utils are not installed (make test-deps)"))
    func marksFollowTheSoundServer() throws {
        let pulse = PrivatePulseServer()
        try pulse.start()
        defer { pulse.stop() }
        pulse.useInThisProcess()
        defer { unsetenv("PULSE_SERVER") }
        let recording = pulse.directory + "/recording.raw"
        _ = try pulse.record(to: recording)

        let text = "<speak><mark name=\"a\"/>Narrator reads this sentence through the sound server, "
            + "<mark name=\"b\"/>and each mark is reported as the listener hears it, "
            + "<mark name=\"c\"/>not when the engine reaches it.</speak>"
        let reference = try sharedEngine.synthesizeWithMarks(text)
        let format = AudioFormat(sampleRate: sharedEngine.sampleRate)
        let expected = Dictionary(uniqueKeysWithValues: reference.marks.map { ($0.name, seconds(format.duration(ofSamples: $0.sample))) })

        let log = TimedPlayerLog()
        let output = ServerOutput(spec: .pulse)
        #expect(output.status.active == "pulse", "\(output.status)")
        let player = SpeechPlayer(engine: sharedEngine, output: output, onEvent: log.handler)
        // The recorder is running once the monitor's silence arrives.
        let ready = ContinuousClock.now + .seconds(10)
        while PrivatePulseServer.samples(in: recording).count < pulse.sampleRate / 10 && ContinuousClock.now < ready {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let before = PrivatePulseServer.samples(in: recording).count
        let id = UtteranceID(1)
        player.play(PlayRequest(
            utterance: UtteranceRequest(id: id, kind: .focus, text: text), voice: .standard, parameters: VoiceParameters(), ssml: true))
        // When speech first shows in the recording (the recorder's own 20 ms latency comes on top).
        var heard: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + .seconds(15)
        while heard == nil && ContinuousClock.now < deadline {
            if PrivatePulseServer.samples(in: recording).dropFirst(before).contains(where: { abs(Int($0)) > 1000 }) {
                heard = ContinuousClock.now
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(log.wait { $0.contains(.ended(id, problem: nil)) })
        #expect(log.all == [.began(id), .reachedMark(id, "a"), .reachedMark(id, "b"), .reachedMark(id, "c"), .ended(id, problem: nil)])
        guard let heard, let began = log.time(of: .began(id)) else {
            Issue.record("no speech recorded or no began: \(log.all)")
            return
        }
        let lag = seconds(heard - began)
        #expect(lag > -0.1 && lag < 0.6, "speech was recorded \(lag) s after began was reported")
        for name in ["b", "c"] {
            guard let reached = log.time(of: .reachedMark(id, name)), let offset = expected[name] else { continue }
            let at = seconds(reached - began)
            #expect(abs(at - offset) < 0.25 + offset * 0.15, "mark \(name) reported at \(at) s, its audio is at \(offset) s")
        }
    }
}
