import Foundation
import NarratorModel
import NarratorPulseHarness
import NarratorSystem
import NarratorTestSupport
import Testing

extension SSIPClientTests {
    /// Flite and Piper picked as output modules by the real clients (spd-say's -O, -o and -L,
    /// python3-speechd's set_output_module), heard at the sound server, and spoken by the engine
    /// asked for: narratord's journal says it started it, and its audio has the engine's rate.
    /// One server per engine: Piper loads its model on its first job.
    @Suite struct EngineModuleTests {
        static var present: Bool { SpdSayTests.present && !SSIPTests.againstSpeechDispatcher }
        static let missing: Comment = "spd-say is not installed (apt-get install speech-dispatcher), or the server is speech-dispatcher"

        /// The voices each engine lists (docs/flite-notes.md, docs/piper-notes.md).
        static let voices = ["flite": ["slt", "kal", "kal16", "awb", "rms"], "piper": ["joe"]]

        static func spdSay(_ arguments: [String], _ server: SSIPServer) throws -> CompletedRun {
            let run = try CompletedRun.run(SSIPTests.spdSay, arguments, environment: server.clientEnvironment, timeout: .seconds(60))
            #expect(run.status == 0, "spd-say \(arguments): \(run.stderr)")
            return run
        }

        /// The first word of each line after spd-say's heading.
        static func names(_ run: CompletedRun) -> [String] {
            run.lines.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        }

        /// Whether the recording made while `body` ran holds speech.
        static func heard(on pulse: PrivatePulseServer, _ name: String, _ body: () throws -> Void) throws -> Bool {
            let path = pulse.directory + "/\(name).s16le"
            let recorder = try pulse.record(to: path)
            defer { _ = try? recorder.kill() }
            usleep(300_000)
            try body()
            return SpeechDetection.waitForSpeech(in: path, timeout: .seconds(10))
        }

        @Test(.enabled(if: present && PrivatePulseServer.isInstalled, missing), arguments: ["flite", "piper"])
        func spdSayAndPythonSpeechdSpeakThroughTheModule(_ engine: String) throws {
            let server = try SSIPServer(recorded: true)
            let daemon = try #require(server.daemon), pulse = try #require(server.pulse)

            // -O lists the modules; -o ENGINE -L that engine's voices, and only its own.
            #expect(Self.names(try Self.spdSay(["-O"], server)) == ["espeak-ng", "flite", "piper"])
            let listed = Self.names(try Self.spdSay(["-o", engine, "-L"], server))
            #expect(Set(listed) == Set(Self.voices[engine] ?? []), "spd-say -o \(engine) -L: \(listed)")
            // Choosing the module (spd-say sends SET SELF OUTPUT_MODULE before its LIST) starts the
            // engine, so that its first words do not wait for it; the list came from its listing.

            // spd-say -w -o ENGINE: heard, and spoken by that engine.
            let spdSayHeard = try Self.heard(on: pulse, "spd-say") {
                _ = try Self.spdSay(["-w", "-o", engine, "Hello from spd-say through \(engine)."], server)
            }
            #expect(spdSayHeard, "spd-say -o \(engine) was not heard")
            #expect(daemon.log.contains("engine \(engine) started"), "\(daemon.log)")
            let spoken = { (rows: [JSONValue]) in rows.contains { $0["text"]?.stringValue?.contains("through \(engine)") == true && $0["outcome"] == "spoken" } }
            let rows = try server.logged(client: "spd-say", until: spoken)
            #expect(spoken(rows), "narratord's log for spd-say: \(rows)")

            // python3-speechd's set_output_module, as Orca uses it.
            guard SSIPTests.hasPythonSpeechd else { return }
            var result: JSONValue?
            let pythonHeard = try Self.heard(on: pulse, "python3-speechd") {
                let (run, lines) = try SSIPTests.script(
                    "speechd_client.py", ["module", "--module", engine, "--address", server.address, "--timeout", "30"],
                    environment: server.clientEnvironment, timeout: .seconds(120))
                result = SSIPTests.final(lines)
                #expect(result != nil, "no result line: \(run.stdout) \(run.stderr)")
            }
            #expect(result?["ok"] == true, "\(String(describing: result))")
            #expect(result?["sequence"] == ["begin", "end"], "\(String(describing: result))")
            let voiceNames = (result?["voices"]?.arrayValue ?? []).compactMap { $0.arrayValue?.first?.stringValue }
            #expect(Set(voiceNames) == Set(Self.voices[engine] ?? []), "list_synthesis_voices after set_output_module('\(engine)'): \(voiceNames)")
            #expect(pythonHeard, "python3-speechd's set_output_module('\(engine)') was not heard")
            // The engine was started once, for spd-say, and served the script too.
            #expect(daemon.log.components(separatedBy: "engine \(engine) started").count == 2, "\(daemon.log)")
            #expect(!daemon.log.contains("starting it again"), "\(daemon.log)")
        }

        /// With `--audio wav:DIR` each utterance's file has its engine's sample rate: Flite's voices
        /// 16 kHz, Piper's and eSpeak NG's 22050 Hz. The rate proves which engine spoke.
        @Test(.enabled(if: present, missing))
        func eachModuleSpeaksAtItsEnginesRate() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-wav-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try DaemonHarness(audio: "wav:" + directory, ssip: true)
            var environment = ProcessInfo.processInfo.environment
            environment["SPEECHD_ADDRESS"] = "unix_socket:" + daemon.ssipSocket
            environment["SPEECHD_CMD"] = "/bin/false"
            for (module, rate) in [("flite", 16_000), ("piper", 22_050), ("espeak-ng", 22_050)] {
                let before = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                let run = try CompletedRun.run(
                    SSIPTests.spdSay, ["-w", "-o", module, "Spoken by \(module)."], environment: environment, timeout: .seconds(60))
                #expect(run.status == 0, "spd-say -o \(module): \(run.stderr)")
                let new = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).subtracting(before).filter { $0.hasSuffix(".wav") }
                #expect(new.count == 1, "spd-say -o \(module) wrote \(new.sorted())")
                for file in new {
                    let bytes = [UInt8](FileManager.default.contents(atPath: directory + "/" + file) ?? Data())
                    try #require(bytes.count > 44, "\(file) has no header")
                    let fileRate = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16 | Int(bytes[27]) << 24
                    #expect(fileRate == rate, "spd-say -o \(module): \(file) is at \(fileRate) Hz")
                    let samples = stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
                    #expect(SpeechDetection.containsSpeech(samples, rate: fileRate), "spd-say -o \(module): \(file) holds no speech")
                }
            }
        }

        /// The module commands answered as speech-dispatcher 0.11.4 (with its Flite module)
        /// answers them, compared in one run: the same codes and final lines, each voice line
        /// NAME, language and variant, an unknown module accepted and read back as speechd does.
        @Test(.enabled(if: SSIPTests.installed("/usr/bin/speech-dispatcher") && SSIPTests.installed("/usr/lib/speech-dispatcher-modules/sd_flite"),
                       "speech-dispatcher or its Flite module is not installed (apt-get install speech-dispatcher speech-dispatcher-flite)"))
        func moduleCommandsAnswerAsSpeechDispatcherDoes() throws {
            let dialogue = [
                "SET SELF CLIENT_NAME test:modules:main", "LIST OUTPUT_MODULES", "SET SELF OUTPUT_MODULE flite", "GET OUTPUT_MODULE",
                "LIST SYNTHESIS_VOICES", "SET SELF SYNTHESIS_VOICE kal16", "SET SELF LANGUAGE en", "GET OUTPUT_MODULE",
                "SET SELF OUTPUT_MODULE nosuch", "GET OUTPUT_MODULE", "SET SELF OUTPUT_MODULE espeak-ng", "GET OUTPUT_MODULE",
            ]
            func answers(_ server: SSIPServer) throws -> [[String]] {
                let client = try SSIPTestClient(path: server.socket)
                return try dialogue.map { try client.command($0) }
            }
            let reference = try answers(SSIPServer(speechDispatcher: true))
            let narrator = try answers(SSIPServer(speechDispatcher: false))
            for (index, line) in dialogue.enumerated() {
                let ours = narrator[index], theirs = reference[index]
                #expect(ours.last == theirs.last, "\(line): narratord \(ours), speech-dispatcher \(theirs)")
                #expect(Set(ours.map { $0.prefix(4) }) == Set(theirs.map { $0.prefix(4) }), "\(line): narratord \(ours), speech-dispatcher \(theirs)")
                if line.hasPrefix("GET") { #expect(ours == theirs, "\(line)") }
            }
            // Both list their modules, Flite among them; each voice line has three fields.
            #expect(reference[1].contains("250-flite") && narrator[1].contains("250-flite"), "\(reference[1]) \(narrator[1])")
            for voices in [reference[4], narrator[4]] {
                #expect(voices.dropLast().allSatisfy { $0.hasPrefix("249-") && $0.split(separator: "\t").count == 3 }, "\(voices)")
                #expect(voices.contains { $0.hasPrefix("249-kal16\t") }, "\(voices)")
            }
        }
    }
}
