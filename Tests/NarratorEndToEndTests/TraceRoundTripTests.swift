import Foundation
import NarratorExperiments
import NarratorModel
import Testing

/// Real traffic through the built binaries (spd-say and python3-speechd over SSIP, a JSON client
/// announcing and moving the focus), exported with `narratorctl log --trace` and replayed under
/// the policy it ran with: every logged outcome comes back, row for row.
@Suite struct TraceRoundTripTests {
    static let packages: Comment = "needs spd-say and python3-speechd (apt-get install speech-dispatcher python3-speechd)"
    static var clientsInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/spd-say")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/speechd/__init__.py")
    }

    static let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Helpers/traces/speechd_chat.py").path

    @Test(.enabled(if: clientsInstalled, packages)) func aRecordedSessionReplaysAsItWasLogged() throws {
        let daemon = try DaemonHarness(ssip: true)
        defer { _ = daemon.stop() }
        let database = daemon.directory + "/state/narrator.db"
        var environment = ProcessInfo.processInfo.environment
        environment["SPEECHD_ADDRESS"] = "unix_socket:" + daemon.ssipSocket
        func spdSay(_ arguments: String...) throws {
            let run = try DaemonHarness.run("/usr/bin/spd-say", arguments, environment: environment, timeout: .seconds(30))
            #expect(run.status == 0, "spd-say \(arguments): \(run.stderr)")
        }

        // An app registers its screen and moves the focus (focus speech, then its hint).
        let app = try daemon.client()
        _ = try app.request(["cmd": "hello", "client": "player"])
        _ = try app.request(["cmd": "register", "document": try loadExample("player.json")])
        _ = try app.request(["cmd": "focus", "tree": "player", "element": "waveform"])
        sleep(3)
        // spd-say: one waited for, then two that cut each other, then CANCEL ALL.
        try spdSay("-w", "message number one from spd say")
        try spdSay("one quick")
        try spdSay("two quick")
        try spdSay("-C")
        // A chat client floods, repeats a line, cancels and echoes a character and a key.
        let chat = try DaemonHarness.run("/usr/bin/python3", [Self.helper, daemon.ssipSocket, "chat"], timeout: .seconds(60))
        #expect(chat.status == 0, "\(chat.stderr)")
        // The app's announcements: a progress value under one key, a repeat, and the end.
        for percent in stride(from: 10, through: 60, by: 10) {
            _ = try app.request(["cmd": "announce", "text": .string("Download \(percent) percent"), "key": "download", "tree": "player"])
            usleep(200_000)
        }
        _ = try app.request(["cmd": "announce", "text": "Download complete", "tree": "player"])
        _ = try app.request(["cmd": "announce", "text": "Download complete", "tree": "player"])

        // Every row is written once its speech ends: wait until the trace holds a final outcome for all.
        let trace = daemon.directory + "/session.jsonl"
        var lines: [String] = []
        for _ in 0..<200 {
            let exported = try daemon.ctl("log", "--db", database, "--trace")
            #expect(exported.status == 0, "\(exported.stderr)")
            lines = exported.lines
            let open = lines.filter { $0.contains("\"kind\":\"announce\"") && !$0.contains("\"outcome\"") }
            if lines.count >= 27, open.isEmpty { break }
            usleep(100_000)
        }
        try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let events = try AnnouncementTrace.parse(lines.joined(separator: "\n"))
        // What was recorded is real traffic with real decisions: every kind and the outcomes that matter.
        let kinds = Set(events.map { event -> String in
            switch event.kind {
            case .announce: "announce"
            case .focus: "focus"
            case .speech(_, let kind): kind.name
            case .ssip(_, _, let command): "ssip \(command.rawValue)"
            case .ssipCancel(let all): all ? "cancel all" : "cancel"
            case .ssipStop, .stop, .shutdown: "other"
            }
        })
        #expect(kinds.isSuperset(of: ["announce", "focus", "hint", "ssip SPEAK", "ssip CHAR", "ssip KEY", "cancel all", "cancel"]), "\(kinds)")
        let outcomes = Set(events.compactMap(\.logged))
        #expect(outcomes.isSuperset(of: [.spoken, .interrupted, .cancelled, .throttled, .deduplicated]), "\(outcomes)")
        #expect(events.filter { $0.client == "unknown:chat:default" || $0.client?.hasSuffix(":chat:default") == true }.count >= 11)

        let check = try daemon.ctl("replay", trace, "--check", "--db", daemon.directory + "/replays.db", "--json")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let result = try JSONParser().parse(check.stdout)["check"]
        let compared = try #require(result?["compared"]?.numberValue)
        #expect(compared == Double(events.filter { $0.logged != nil }.count))
        #expect(compared >= 20, "\(lines.joined(separator: "\n"))")
        #expect(result?["matching"]?.numberValue == compared, "\(check.stdout)")

        // The same trace is an experiment: under no policy nothing is throttled or deduplicated.
        let none = try daemon.ctl("replay", trace, "--policy", "none", "--db", daemon.directory + "/replays.db", "--json")
        let counts = try JSONParser().parse(none.stdout)["policies"]?.arrayValue?.first?["outcomes"]
        #expect(counts?["throttled"] == 0 && counts?["deduplicated"] == 0, "\(none.stdout)")
    }
}
