import Foundation
import NarratorEngines
@testable import NarratorSpeech
import NarratorSpeechPlan
import Testing

/// Where the listener is in plain text: the player reports each sentence as its audio begins to
/// be heard (``SpeechPlayer/Event/reached(_:offset:)``), as a UTF-8 byte offset of the text, from
/// eSpeak NG's sentence events and from an engine process's `S` frames.
@Suite("Sentences reached, as they are heard", .serialized)
struct SentenceReportTests {
    /// "Ç", "É", "è" take two bytes each: the second sentence starts at character 12, byte 13.
    static let text = "Ça va bien. Éléphant noir dort. Très bien fait."

    /// The UTF-8 byte offset of `part` in `text`.
    static func offset(of part: String, in text: String = text) -> Int {
        text.utf8.distance(from: text.utf8.startIndex, to: text.firstRange(of: part)!.lowerBound)
    }

    func request(_ id: UInt64, _ text: String, engine: EngineName = .espeak, voice: VoiceChoice = .standard) -> PlayRequest {
        PlayRequest(utterance: UtteranceRequest(id: UtteranceID(id), kind: .ssip(.text), text: text), voice: voice, parameters: VoiceParameters(), engine: engine)
    }

    static func reached(_ events: [SpeechPlayer.Event]) -> [Int] {
        events.compactMap { if case .reached(_, let offset) = $0 { offset } else { nil } }
    }

    @Test("eSpeak NG: each sentence's start, in UTF-8 bytes, between began and ended")
    func espeakSentencesInBytes() {
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(1)
        player.play(request(1, Self.text))
        #expect(log.wait { $0.contains(.ended(id, problem: nil)) })
        #expect(Self.offset(of: "Éléphant") == 13 && Self.offset(of: "Très") == 35)
        #expect(log.all == [.began(id), .reached(id, offset: 0), .reached(id, offset: 13), .reached(id, offset: 35), .ended(id, problem: nil)])
    }

    @Test("eSpeak NG: a sentence is reported when its audio is heard, and none after a stop")
    func espeakSentencesWhenHeard() {
        let sentences = (1...6).map { "Sentence number \($0) goes on for a good few words before it ends." }
        let text = sentences.joined(separator: " ")
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(2)
        player.play(request(2, text))
        let second = Self.offset(of: "Sentence number 2", in: text)
        #expect(log.wait { $0.contains(.reached(id, offset: second)) })
        player.stop(id)
        let atStop = log.all
        // The whole text is synthesized in a fraction of its length: reported on synthesis, all six would be in.
        #expect(!atStop.contains(.reached(id, offset: Self.offset(of: "Sentence number 6", in: text))), "\(atStop)")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(log.all == atStop, "reported after the stop: \(log.all.dropFirst(atStop.count))")
    }

    @Test("SSML reports its marks, not sentences (its positions are in the markup)")
    func noSentencesForSSML() {
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(3)
        var ssml = request(3, "<speak>One. <mark name=\"m\"/>Two.</speak>")
        ssml.ssml = true
        player.play(ssml)
        #expect(log.wait { $0.contains(.ended(id, problem: nil)) })
        #expect(Self.reached(log.all).isEmpty, "\(log.all)")
    }

    @Test("an engine process: its S frames' offsets, as its audio is heard")
    func engineProcessSentences() throws {
        let engine = try TestEngine()
        let process = try engine.process()
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, others: [process], output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(4)
        player.play(request(4, Self.text, engine: process.engineName, voice: .named("ramp")))
        #expect(log.wait { $0.contains(.ended(id, problem: nil)) })
        #expect(log.all == [.began(id), .reached(id, offset: 0), .reached(id, offset: 13), .reached(id, offset: 35), .ended(id, problem: nil)])
    }

    @Test("an engine that dies mid-text: eSpeak NG's sentences of the rest are offsets of the whole text")
    func fallbackOffsetsAreOfTheWholeText() throws {
        let engine = try TestEngine(["--misbehave", "die", "--at-sentence", "2"])
        let process = try engine.process()
        let log = PlayerLog()
        let player = SpeechPlayer(engine: sharedEngine, others: [process], output: NullOutput(), onEvent: log.handler)
        let id = UtteranceID(5)
        player.play(request(5, Self.text, engine: process.engineName, voice: .named("ramp")))
        #expect(log.wait(timeout: .seconds(30)) { $0.contains { if case .ended(id, _) = $0 { true } else { false } } })
        // The engine was heard into its second sentence (13), and eSpeak NG says the rest from
        // there: its own sentences, at 0 and 22 of the rest, are 13 and 35 of the text.
        let reached = Self.reached(log.all)
        #expect(reached.enumerated().filter { $0.offset == 0 || reached[$0.offset - 1] != $0.element }.map(\.element) == [0, 13, 35], "\(log.all)")
    }
}
