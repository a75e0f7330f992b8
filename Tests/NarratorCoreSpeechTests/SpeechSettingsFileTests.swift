import NarratorModel
import NarratorSpeechPlan
import Testing

/// The settings file read and written with the project's JSON, as the daemon does without
/// Foundation's coders: files written before (by JSONEncoder, " : " and all) still load.
@Suite("Speech settings file")
struct SpeechSettingsFileTests {
    static func read(_ text: String) throws -> SpeechSettings {
        try SpeechSettings(json: try JSONParser().parse(text))
    }

    @Test("a file written by an earlier daemon (JSONEncoder, pretty, sorted) loads as it was saved")
    func earlierFileLoads() throws {
        let file = """
            {
              "hintDelayMilliseconds" : 250,
              "hints" : false,
              "pitch" : 40,
              "punctuation" : "most",
              "rate" : 260,
              "voice" : "de",
              "volume" : 120
            }
            """
        var expected = SpeechSettings()
        expected.hintDelayMilliseconds = 250
        expected.hints = false
        expected.pitch = 40
        expected.punctuation = .most
        expected.rate = 260
        expected.voice = "de"
        expected.volume = 120
        #expect(try Self.read(file) == expected)
    }

    @Test("what is written reads back the same, keys sorted, the automatic voice left out")
    func roundTrip() throws {
        var settings = SpeechSettings()
        try settings.set("rate", to: "300")
        try settings.set("punctuation", to: "some")
        #expect(settings.json.compactText == #"{"hintDelayMilliseconds":400,"hints":true,"pitch":50,"punctuation":"some","rate":300,"volume":100}"#)
        #expect(try Self.read(settings.json.compactText) == settings)
        try settings.set("voice", to: "en-gb")
        #expect(settings.json["voice"] == "en-gb")
        #expect(try Self.read(JSONWriter(indent: 2).string(settings.json)) == settings)
    }

    @Test("engine-idle is kept in the file only when it is not the default, and reads back")
    func engineIdle() throws {
        var settings = SpeechSettings()
        #expect(settings.json["engineIdleSeconds"] == nil)
        try settings.set("engine-idle", to: "45")
        #expect(settings.json["engineIdleSeconds"] == 45)
        #expect(try Self.read(settings.json.compactText) == settings)
        #expect(try Self.read(#"{"engineIdleSeconds": 0}"#).engineIdle == nil)
        #expect(throws: SpeechSettingsError.outOfRange(key: "engine-idle", value: "86401", allowed: "0...86400")) {
            try settings.set("engine-idle", to: "86401")
        }
    }

    @Test("missing and null keys take the defaults; unknown keys are ignored")
    func defaults() throws {
        #expect(try Self.read("{}") == SpeechSettings())
        #expect(try Self.read(#"{"voice": null, "rate": null, "speed": 3}"#) == SpeechSettings())
    }

    @Test("a key of the wrong type is refused, naming the key", arguments: [
        (#"{"rate": "fast"}"#, "\"rate\""),
        (#"{"rate": 175.5}"#, "\"rate\""),
        (#"{"hints": "yes"}"#, "\"hints\""),
        (#"{"punctuation": "loud"}"#, "\"punctuation\""),
        (#"{"voice": 3}"#, "\"voice\""),
        (#"[1]"#, "an object"),
    ])
    func wrongType(file: String, named: String) throws {
        #expect {
            _ = try Self.read(file)
        } throws: { error in
            (error as? SpeechSettings.FileError)?.description.contains(named) == true
        }
    }
}
