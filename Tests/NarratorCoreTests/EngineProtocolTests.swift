@testable import NarratorEngines
@testable import NarratorModel
import Testing

/// The engine protocol's frames and requests (docs/engine-protocol.md), as both sides read them.
@Suite struct EngineProtocolTests {
    let listing = EngineListing(
        engine: "flite", version: "2.2",
        voices: [.init(name: "slt", languages: ["en-us", "en"], gender: .female, sampleRate: 16000)])

    @Test func everyFrameSurvivesTheWireEvenCutIntoSingleBytes() throws {
        let frames: [EngineFrame] = [
            .ready(listing), .begin(job: 7, sampleRate: 16000), .sentence(job: 7, offset: 13),
            .audio(job: 7, samples: [0, 1, -1, .max, .min, 300]), .end(job: 7, cancelled: true),
            .failed(job: 8, message: "no voice \"x\""), .log("loaded slt in 12 ms"),
        ]
        let wire = frames.flatMap(\.bytes)
        var whole = EngineFrameDecoder()
        #expect(try whole.feed(wire) == frames)
        var bytewise = EngineFrameDecoder()
        var decoded: [EngineFrame] = []
        for byte in wire { decoded += try bytewise.feed([byte]) }
        #expect(decoded == frames)
        #expect(bytewise.pendingBytes == 0)
    }

    @Test func theHeaderIsTypeJobAndLengthInLittleEndian() {
        #expect(EngineFrame.begin(job: 0x0102_0304, sampleRate: 22050).bytes
            == [UInt8(ascii: "B"), 4, 3, 2, 1, 4, 0, 0, 0, 0x22, 0x56, 0, 0])
        #expect(EngineFrame.audio(job: 1, samples: [-2]).bytes == [UInt8(ascii: "A"), 1, 0, 0, 0, 2, 0, 0, 0, 0xfe, 0xff])
    }

    @Test func aHalfFrameWaitsForTheRest() throws {
        var decoder = EngineFrameDecoder()
        let bytes = EngineFrame.sentence(job: 1, offset: 5).bytes
        #expect(try decoder.feed(bytes.prefix(10)).isEmpty)
        #expect(decoder.pendingBytes == 10)
        #expect(try decoder.feed(bytes.dropFirst(10)) == [.sentence(job: 1, offset: 5)])
    }

    @Test func garbageFromABrokenEngineIsNamed() {
        var decoder = EngineFrameDecoder()
        #expect(throws: EngineFrameError.unknownType(UInt8(ascii: "Z"))) {
            try decoder.feed([UInt8(ascii: "Z"), 0, 0, 0, 0, 0, 0, 0, 0])
        }
        var odd = EngineFrameDecoder()
        #expect(throws: EngineFrameError.malformed(type: UInt8(ascii: "A"), reason: "odd length 3 for 16-bit samples")) {
            try odd.feed([UInt8(ascii: "A"), 0, 0, 0, 0, 3, 0, 0, 0, 1, 2, 3])
        }
        var huge = EngineFrameDecoder()
        #expect(throws: EngineFrameError.payloadTooLarge(type: UInt8(ascii: "A"), length: 0x7fff_ffff)) {
            try huge.feed([UInt8(ascii: "A"), 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f])
        }
        #expect("\(EngineFrameError.unknownType(0))" == "unknown frame type 0x0")
    }

    @Test func theFramesBeforeGarbageAreKept() {
        var decoder = EngineFrameDecoder()
        let sentence = EngineFrame.sentence(job: 2, offset: 16)
        let (frames, error) = decoder.decode(sentence.bytes + [UInt8(ascii: "Z"), 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(frames == [sentence])
        #expect(error == .unknownType(UInt8(ascii: "Z")))
    }

    @Test func requestsAreOneLineOfJSONEachWay() throws {
        let speak = EngineRequest.speak(job: 3, text: "Hi \"you\".\nNext", voice: "slt", rate: 200, pitch: 40, volume: 90)
        #expect(speak.line.hasSuffix("\n"))
        #expect(speak.line.dropLast().contains("\n") == false)
        #expect(try EngineRequest(line: String(speak.line.dropLast())) == speak)
        #expect(try EngineRequest(line: #"{"op":"cancel","job":3}"#) == .cancel(job: 3))
        #expect(throws: EngineRequestError.invalid(field: "op", reason: "unknown operation \"sing\"")) {
            try EngineRequest(line: #"{"op":"sing","job":1}"#)
        }
        #expect(throws: EngineRequestError.invalid(field: "voice", reason: "must be a string")) {
            try EngineRequest(line: #"{"op":"speak","job":1,"text":"x","rate":175,"pitch":50,"volume":100}"#)
        }
    }

    @Test func aListingNamesTheFieldThatIsWrong() throws {
        #expect(try EngineListing(json: listing.json.compactText) == listing)
        let bad = #"{"engine":"piper","voices":[{"name":"joe","languages":["en-us"],"sampleRate":22050},{"name":"x","languages":["en"],"sampleRate":"fast"}]}"#
        #expect(throws: EngineListingError(path: "voices[1].sampleRate", reason: "must be a whole number of samples per second, 4000...192000")) {
            try EngineListing(json: bad)
        }
        let mixedCase = try EngineListing(json: #"{"engine":"piper","voices":[{"name":"joe","languages":["en-US","en"],"sampleRate":22050}]}"#)
        #expect(mixedCase.voices.first?.languages == ["en-us", "en"])
        #expect(mixedCase.voices.first?.gender == .unspecified)
    }
}
