import Foundation
import NarratorModel
import NarratorPulseHarness
import NarratorTestSupport
import Testing

extension SSIPClientTests {
    /// Every eSpeak NG voice with every variant, listed as speech-dispatcher 0.11.4's eSpeak NG
    /// module lists them (names, languages, variants, order), to spd-say and python3-speechd,
    /// each compared with the real speech-dispatcher in the same run; and a listed name, picked
    /// by a real client, is heard as that voice and variant at the sound server.
    @Suite struct VoiceListTests {
        static var present: Bool {
            SpdSayTests.present && SSIPTests.installed("/usr/bin/speech-dispatcher")
                && SSIPTests.installed("/usr/lib/speech-dispatcher-modules/sd_espeak-ng")
        }
        static let missing: Comment = "spd-say or speech-dispatcher's eSpeak NG module is not installed (apt-get install speech-dispatcher speech-dispatcher-espeak-ng)"

        /// `spd-say -L`'s output against `server`.
        static func spdSayList(_ server: SSIPServer) throws -> [String] {
            let run = try CompletedRun.run(SSIPTests.spdSay, ["-L"], environment: server.clientEnvironment, timeout: .seconds(60))
            #expect(run.status == 0, "spd-say -L: \(run.stderr)")
            return run.lines
        }

        @Test(.enabled(if: present, missing))
        func spdSayListsWhatSpeechDispatcherLists() throws {
            let reference = try Self.spdSayList(SSIPServer(speechDispatcher: true))
            let narratord = try SSIPServer(speechDispatcher: false)
            let listed = try Self.spdSayList(narratord)
            // Thousands, not the voices alone (131 on eSpeak NG 1.51, with 101 variants each).
            #expect(reference.count > 5000, "speech-dispatcher listed \(reference.count) lines")
            #expect(listed.count == reference.count, "narratord listed \(listed.count) lines, speech-dispatcher \(reference.count)")
            // Line for line: what spd-say prints is the three fields as each server sent them.
            let differing = zip(listed, reference).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(differing.isEmpty, "first differing lines: \(differing.prefix(3).map { "\($0.offset): \($0.element.0) | \($0.element.1)" })")
            #expect(listed.contains { $0.hasSuffix("German+grandma                       de                  grandma") })

            // The count is eSpeak NG's voices (the module spd-say lists) times their variants and
            // one, as narratorctl voices says.
            let daemon = try #require(narratord.daemon)
            let voices = try JSONParser().parse(try daemon.ctl("--json", "voices", "--engine", "espeak-ng").stdout)
            let total = try #require(voices["total"]?.numberValue), variants = try #require(voices["variant_count"]?.numberValue)
            #expect(listed.count - 1 == Int(total * (variants + 1)), "spd-say -L prints a heading, then one line per voice")
        }

        @Test(.enabled(if: present && SSIPTests.hasPythonSpeechd, "python3-speechd is not installed (apt-get install python3-speechd)"))
        func pythonSpeechdSeesEveryVoiceAndVariant() throws {
            func listed(_ server: SSIPServer) throws -> JSONValue {
                let (run, lines) = try SSIPTests.script(
                    "speechd_client.py", ["voices", "--address", server.address], environment: server.clientEnvironment, timeout: .seconds(60))
                return try #require(SSIPTests.final(lines), "no result: \(run.stderr)")
            }
            let reference = try listed(SSIPServer(speechDispatcher: true))
            let result = try listed(SSIPServer(speechDispatcher: false))
            #expect(result["ok"] == true)
            #expect(result["count"] == reference["count"], "narratord \(String(describing: result["count"])), speech-dispatcher \(String(describing: reference["count"]))")
            #expect(result["voices"] == reference["voices"], "the (name, language, variant) triples differ")
            let triples = result["voices"]?.arrayValue ?? []
            #expect(triples.contains(["German+grandma", "de", "grandma"]))
            #expect(triples.contains(["English (Received Pronunciation)+Mr_Serious", "en-GB-X-RP", "Mr_Serious"]))
        }

        /// What the sink heard while spd-say said `text` in `voice` (`-y`), from its first to its
        /// last audible sample. spd-say -w returns once the message was heard.
        static func heard(_ voice: String, saying text: String, on server: SSIPServer, pulse: PrivatePulseServer) throws -> [Int16] {
            let path = pulse.directory + "/voice-\(UUID().uuidString.prefix(8)).s16le"
            let recorder = try pulse.record(to: path)
            defer { _ = try? recorder.kill() }
            usleep(300_000)
            let run = try CompletedRun.run(SSIPTests.spdSay, ["-w", "-y", voice, text], environment: server.clientEnvironment, timeout: .seconds(30))
            #expect(run.status == 0, "spd-say -y \(voice): \(run.stderr)")
            usleep(300_000)
            return VoiceAudio.audible(PrivatePulseServer.samples(in: path))
        }

        @Test(.enabled(if: SpdSayTests.present && PrivatePulseServer.isInstalled, "spd-say or PulseAudio is not installed"))
        func aListedVariantIsHeardAsThatVariant() throws {
            let server = try SSIPServer(recorded: true, speechDispatcher: false)
            let daemon = try #require(server.daemon), pulse = try #require(server.pulse)
            // Names as the list gives them, so that a voice missing from it fails here.
            let names = Set(try Self.spdSayList(server).map { $0.trimmingCharacters(in: .whitespaces) }.compactMap { $0.components(separatedBy: "  ").first })
            for name in ["German", "German+grandma", "German+Mr_Serious"] { #expect(names.contains(name), "spd-say -L lists no \(name)") }

            let text = "Guten Tag, wie geht es Ihnen?"
            let grandma = try Self.heard("German+grandma", saying: text, on: server, pulse: pulse)
            let again = try Self.heard("German+grandma", saying: text, on: server, pulse: pulse)
            let serious = try Self.heard("German+Mr_Serious", saying: text, on: server, pulse: pulse)
            let plain = try Self.heard("German", saying: text, on: server, pulse: pulse)
            for (name, audio) in [("grandma", grandma), ("Mr_Serious", serious), ("German", plain)] {
                #expect(audio.count > 22_050 / 2, "\(name): \(audio.count) audible samples")
            }
            // The same variant twice has one pitch; another variant, and the voice alone, another.
            let repeated = VoiceAudio.same(grandma, again)
            #expect(repeated, VoiceAudio.describe(grandma, again))
            let grandmaIsSerious = VoiceAudio.same(grandma, serious), grandmaIsPlain = VoiceAudio.same(grandma, plain)
            #expect(!grandmaIsSerious, VoiceAudio.describe(grandma, serious))
            #expect(!grandmaIsPlain, VoiceAudio.describe(grandma, plain))

            // The same name through narratorctl: the user's voice, shown as set, and heard as SSIP's.
            let set = try daemon.ctl("set", "voice", "German+grandma")
            #expect(set.status == 0, "\(set.stderr)")
            #expect(try daemon.ctl("get", "voice").stdout == "German+grandma\n")
            #expect(try daemon.ctl("status").lines.contains { $0.hasPrefix("voice:") && $0.hasSuffix(" German+grandma") })
            let path = pulse.directory + "/narratorctl.s16le"
            let recorder = try pulse.record(to: path)
            usleep(300_000)
            let monitor = try SpeechMonitor(daemon)
            let spoke = try JSONParser().parse(try daemon.ctl("--json", "speak", text).stdout)
            let utterance = try #require(spoke["speech"]?.numberValue, "\(spoke)")
            #expect(try monitor.wait(for: "finished", of: utterance))
            usleep(300_000)
            _ = try? recorder.kill()
            let spoken = VoiceAudio.audible(PrivatePulseServer.samples(in: path))
            let spokenAsGrandma = VoiceAudio.same(spoken, grandma)
            #expect(spokenAsGrandma, VoiceAudio.describe(spoken, grandma))
        }
    }
}

/// Comparing what a sink heard by its pitch: eSpeak NG's noise sources make two readings of one
/// text differ sample by sample, and a variant's flutter drifts their phases apart, but a
/// variant's pitch stays put (grandma reads German at about 210 Hz, Mr_Serious at about 105 Hz).
enum VoiceAudio {
    /// From the first to the last sample above the floor.
    static func audible(_ samples: [Int16]) -> [Int16] {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > 64 }), let last = samples.lastIndex(where: { abs(Int($0)) > 64 }) else { return [] }
        return Array(samples[first...last])
    }

    /// The median pitch, in Hz, of the voiced 46 ms frames (60 to 400 Hz, by autocorrelation); nil without any.
    static func pitch(_ samples: [Int16]) -> Double? {
        let frame = 1024, rate = 22_050.0
        var pitches: [Double] = []
        for start in stride(from: 0, to: samples.count - frame, by: frame) {
            let x = samples[start..<start + frame].map(Double.init)
            guard SpeechDetection.rms(samples[start..<start + frame]) > 500 else { continue }
            var best = (correlation: 0.0, lag: 0)
            for lag in Int(rate / 400)...Int(rate / 60) {
                var xy = 0.0, xx = 0.0, yy = 0.0
                for i in 0..<(frame - lag) {
                    xy += x[i] * x[i + lag]
                    xx += x[i] * x[i]
                    yy += x[i + lag] * x[i + lag]
                }
                let correlation = xy / ((xx * yy).squareRoot() + 1e-9)
                if correlation > best.correlation { best = (correlation, lag) }
            }
            if best.correlation > 0.5 { pitches.append(rate / Double(best.lag)) }
        }
        guard !pitches.isEmpty else { return nil }
        return pitches.sorted()[pitches.count / 2]
    }

    /// Whether two recordings have one pitch, within 10%.
    static func same(_ a: [Int16], _ b: [Int16]) -> Bool {
        guard let pitchA = pitch(a), let pitchB = pitch(b) else { return false }
        return abs(pitchA - pitchB) <= 0.1 * max(pitchA, pitchB)
    }

    static func describe(_ a: [Int16], _ b: [Int16]) -> Comment {
        "pitch \(pitch(a).map { String(Int($0)) } ?? "none") Hz and \(pitch(b).map { String(Int($0)) } ?? "none") Hz, \(a.count) and \(b.count) audible samples"
    }
}
