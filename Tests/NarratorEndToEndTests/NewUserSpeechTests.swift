import Foundation
import NarratorModel
import Testing

/// What a new user meets first, through a real narratord driven by narratorctl (issue 15).
@Suite struct NewUserSpeechTests {
    /// Writes a tree document into the daemon's directory and returns its path.
    static func write(_ json: String, named name: String, in daemon: DaemonHarness) throws -> String {
        let path = daemon.directory + "/" + name + ".json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func enteringATreeWhoseTitleIsItsFirstLabelSaysItOnce() throws {
        let daemon = try DaemonHarness()
        let library = try Self.write(
            #"{"tree": "library", "title": "Library", "root": {"id": "r", "children": [{"id": "h", "label": "Library", "traits": ["header"]}]}}"#,
            named: "library", in: daemon)
        let settings = try Self.write(
            #"{"tree": "settings", "title": "Einstellungen", "language": "de", "root": {"id": "r", "children": [{"id": "h", "label": "Einstellungen", "traits": ["header"]}]}}"#,
            named: "settings", in: daemon)
        #expect(try daemon.ctl("register", library).status == 0)
        #expect(try daemon.ctl("register", settings).status == 0)
        #expect(try daemon.ctl("focus", "library").stdout == "Library, heading\n")
        #expect(try daemon.ctl("focus", "settings").stdout == "Einstellungen, Überschrift\n")
    }

    @Test func anEmptyOrTooLongTextSaysWhatWasWrongAndThatNothingWasSpoken() throws {
        let daemon = try DaemonHarness(extraArguments: ["--max-text", "10"])
        let empty = try daemon.ctl("announce", "")
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("announce.text: the text is empty"), "\(empty.stderr)")
        let speakEmpty = try daemon.ctl("speak", "")
        #expect(speakEmpty.status == 1)
        #expect(speakEmpty.stderr.contains("speak.text: the text is empty"), "\(speakEmpty.stderr)")
        let long = try daemon.ctl("announce", "a text of thirty characters...")
        #expect(long.status == 1)
        #expect(long.stderr.contains("30 characters, over the limit of 10 (--max-text); the text was refused and nothing was spoken"), "\(long.stderr)")
    }

    @Test func settingADeclarativeValueIsRefusedWithItsPathNotDropped() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("register", "examples/player.json").status == 0)
        #expect(try daemon.ctl("focus", "player", "rating").status == 0)
        let update = try daemon.ctl("update", "player", "rating", "--set", #"{"value": "five stars"}"#, "--announce")
        #expect(update.status == 1)
        #expect(update.stdout.isEmpty, "nothing was spoken: \(update.stdout)")
        #expect(update.stderr.contains("set.value: this element's value is declarative"), "\(update.stderr)")
        #expect(update.stderr.contains(#"set the block instead, e.g. {"adjustable": {"value":4,"min":1,"max":5}}"#), "\(update.stderr)")
        let block = try daemon.ctl("update", "player", "rating", "--set", #"{"adjustable": {"value": 4, "min": 1, "max": 5}}"#, "--announce")
        #expect(block.status == 0 && block.stdout == "4\n", "\(block.stdout) \(block.stderr)")
    }

    @Test func aLanguageCodeNamesAVoiceForSetAndForTheDaemon() throws {
        let daemon = try DaemonHarness(extraArguments: ["--voice", "de"])
        #expect(try daemon.ctl("get", "voice").stdout == "de\n")
        let set = try daemon.ctl("set", "voice", "fr")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try daemon.ctl("get", "voice").stdout == "fr\n")
        #expect(try daemon.ctl("status").stdout.contains("voice:    fr"))
        let speak = try daemon.ctl("speak", "Bonjour")
        #expect(speak.status == 0, "\(speak.stderr)")
        let unknown = try daemon.ctl("set", "voice", "xx-nowhere")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no installed voice is named 'xx-nowhere'"), "\(unknown.stderr)")
    }

    /// The WAV files in `directory` once there are `count` of them, sorted, with their lengths in seconds.
    static func wavs(in directory: String, count: Int) throws -> [(name: String, seconds: Double)] {
        let deadline = Date().addingTimeInterval(20)
        var names: [String] = []
        repeat {
            names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
            if names.count >= count { break }
            usleep(20_000)
        } while Date() < deadline
        return try names.map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            func u32(_ at: Int) -> Int { data[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
            return (name, Double(u32(40)) / 2 / Double(u32(24)))
        }
    }

    @Test func announceAndSpeakAreReadInTheirLanguage() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-lang-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let daemon = try DaemonHarness(audio: "wav:" + wav, extraArguments: ["--policy", "none"])
        let text = "مرحبا بكم في نشرة الأخبار"
        let arabic = try daemon.ctl("speak", "--language", "ar", text)
        #expect(arabic.status == 0, "\(arabic.stderr)")
        _ = try Self.wavs(in: wav, count: 1)
        // Without a language and without focus, the default (English) voice spells the letters out.
        #expect(try daemon.ctl("speak", text).status == 0)
        let spoken = try Self.wavs(in: wav, count: 2)
        #expect(spoken.count == 2)
        guard spoken.count == 2 else { return }
        #expect(spoken[0].seconds * 2 < spoken[1].seconds, "read in Arabic: \(spoken[0].seconds) s; spelled in English: \(spoken[1].seconds) s")
        // With focus in an Arabic tree, an announcement without a language is read in Arabic too.
        let news = try Self.write(
            #"{"tree": "news", "language": "ar", "root": {"id": "r", "children": [{"id": "h", "label": "العناوين", "traits": ["header"]}]}}"#,
            named: "news", in: daemon)
        #expect(try daemon.ctl("register", news).status == 0)
        #expect(try daemon.ctl("focus", "news").status == 0)
        _ = try Self.wavs(in: wav, count: 3)
        #expect(try daemon.ctl("announce", text).status == 0)
        let all = try Self.wavs(in: wav, count: 4)
        #expect(all.count == 4)
        guard all.count == 4 else { return }
        #expect(all[3].name.contains("-announcement"))
        #expect(abs(all[3].seconds - spoken[0].seconds) < spoken[0].seconds * 0.2, "\(all[3].seconds) s vs \(spoken[0].seconds) s")
    }

    /// Polls `status` until nothing plays or waits.
    static func waitUntilQuiet(_ daemon: DaemonHarness, within seconds: Double = 30) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try daemon.ctl("status").stdout.contains("speaking: no, 0 waiting") { return }
            usleep(50_000)
        }
    }

    @Test func theWAVOutputKeepsRealTimeSoStatsReportAudioTime() throws {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-wavtime-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let daemon = try DaemonHarness(audio: "wav:" + wav, extraArguments: ["--policy", "none"])
        let started = Date()
        #expect(try daemon.ctl("announce", "The download of the album has finished and the tracks are ready to play.").status == 0)
        #expect(try daemon.ctl("announce", "--priority", "low", "Three new messages from the project group.").status == 0)
        try Self.waitUntilQuiet(daemon)
        let elapsed = Date().timeIntervalSince(started)
        let files = try Self.wavs(in: wav, count: 2)
        let audio = files.reduce(0) { $0 + $1.seconds }
        #expect(files.count == 2 && audio > 3, "\(files)")
        // Both were heard one after the other: that takes as long as their audio.
        #expect(elapsed >= audio - 0.3, "spoke \(audio) s of audio in \(elapsed) s")
        let stats = try daemon.ctl("stats", "--db", daemon.directory + "/state/narrator.db", "--json")
        #expect(stats.status == 0, "\(stats.stderr)")
        let speech = try JSONParser().parse(stats.stdout)["speechSeconds"]?.numberValue ?? 0
        #expect(abs(speech - audio) < 0.3, "stats: \(speech) s of speech; the WAV files hold \(audio) s")
    }

    @Test func aLogFileThatIsNotADatabaseIsSetAsideAndAFreshLogStarts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-junkdb-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = directory + "/narrator.db"
        let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try junk.write(to: URL(fileURLWithPath: database))
        try Data("stale journal".utf8).write(to: URL(fileURLWithPath: database + "-wal"))
        // The name carries the local time, in the daemon's time zone: one that is never UTC here.
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Asia/Kolkata"
        let startedAt = Date()
        let daemon = try DaemonHarness(environment: environment, extraArguments: ["--db", database])
        let readyAt = Date()
        let client = try daemon.client()
        let reply = try client.request(["cmd": "announce", "text": "Logged again"])
        #expect(reply["logged"] == true, "\(reply)")
        let status = try client.request(["cmd": "status"])
        #expect(status["log"]?["ok"] == true, "\(status)")
        let asidePath = status["log"]?["set_aside"]?["path"]?.stringValue ?? ""
        #expect(asidePath.hasPrefix(database + ".corrupt-"), "\(status)")
        let stamp = DateFormatter()
        stamp.locale = Locale(identifier: "en_US_POSIX")
        stamp.timeZone = TimeZone(identifier: "Asia/Kolkata")
        stamp.dateFormat = "yyyy-MM-dd-HHmmss"
        let seconds = Int(startedAt.timeIntervalSince1970)...Int(readyAt.timeIntervalSince1970) + 1
        let names = seconds.map { database + ".corrupt-" + stamp.string(from: Date(timeIntervalSince1970: Double($0))) }
        #expect(names.contains(asidePath), "\(asidePath) is not named for Asia/Kolkata's time now (\(names))")
        // The junk is kept as it was, with its journal, next to the fresh log.
        #expect(FileManager.default.contents(atPath: asidePath) == junk)
        #expect(FileManager.default.contents(atPath: asidePath + "-wal") == Data("stale journal".utf8))
        #expect(try sqlite(database, "SELECT text FROM utterances WHERE kind = 'announcement'") == ["Logged again"])
        #expect(try daemon.ctl("status").stdout.contains("set aside as \(asidePath)"))
        // Said once in the journal.
        #expect(daemon.log.components(separatedBy: "was not a database").count == 2, "\(daemon.log)")
        #expect(daemon.log.contains("it was set aside as \(asidePath) and a fresh log started"))
    }

    /// The daemon's environment with no sound server reachable.
    static var noSoundServer: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:/nonexistent/narrator-test/pulse/native"
        return environment
    }

    @Test func withoutASoundServerTheOutputIsReportedOnceAndALSAStaysQuiet() throws {
        let daemon = try DaemonHarness(audio: "auto", environment: Self.noSoundServer)
        // Two reconnect attempts (one every 2 s) after the first.
        Thread.sleep(forTimeInterval: 4.6)
        let log = daemon.log
        #expect(!log.contains("ALSA lib"), "\(log)")
        let audioLines = log.split(separator: "\n").filter { $0.contains("audio") }
        #expect(audioLines.count == 1, "\(audioLines)")
        // No sound server is reachable (PULSE_SERVER points nowhere): the fallback is certain.
        try #require(log.contains("audio: null (fallback"), "\(log)")
        // auto falling back to null is the normal case without a server: a notice.
        #expect(audioLines.first?.hasPrefix("<5>") == true, "\(audioLines)")
    }

    @Test func anExplicitPulseThatCannotConnectIsAWarning() throws {
        let daemon = try DaemonHarness(audio: "pulse", environment: Self.noSoundServer)
        Thread.sleep(forTimeInterval: 2.5)
        let log = daemon.log
        #expect(!log.contains("ALSA lib"), "\(log)")
        let audioLines = log.split(separator: "\n").filter { $0.contains("audio") }
        #expect(audioLines.count == 1, "\(audioLines)")
        try #require(log.contains("audio: null (fallback"), "\(log)")
        #expect(audioLines.first?.hasPrefix("<4>") == true, "\(audioLines)")
    }
}
