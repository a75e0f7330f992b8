import Foundation
import NarratorModel
import NarratorSystem
import NarratorTestSupport
import Testing

/// Speech Dispatcher clients through a real narratord: their messages are rows a user finds with
/// `narratorctl log --client` and counts in `stats`, next to a JSON client's.
@Suite struct SSIPLogTests {
    /// An SSIP connection that names itself and says one message, waiting for each reply's last line.
    func say(_ text: String, as name: String, priority: String, at path: String) throws {
        let connection = try UnixClient(connectingTo: path)
        defer { connection.close() }
        func command(_ line: String, until last: String) throws {
            try connection.send(bytes: Array((line + "\r\n").utf8))
            while true {
                guard let reply = try connection.readLine(timeout: .seconds(20)) else { throw DaemonHarness.HarnessError(message: "closed after \(line)") }
                if reply.hasPrefix(last) { return }
            }
        }
        try command("SET SELF CLIENT_NAME \(name)", until: "208")
        try command("SET SELF PRIORITY \(priority)", until: "202")
        try command("SPEAK", until: "230")
        try command(text + "\r\n.", until: "225 ")
        try command("QUIT", until: "231")
    }

    /// What docs/ssip.md says the log holds: a message PAUSE cut is `interrupted` by `pause`, and
    /// `spd-say -e` (pipe mode, each line it reads sent with its newline) is logged as the line.
    @Test func aPauseAndPipeModeAreLoggedAsDocumented() throws {
        let ssip = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-ssip-\(UUID().uuidString.prefix(8)).sock").path
        let daemon = try DaemonHarness(extraArguments: ["--ssip", ssip])
        defer { _ = daemon.stop() }
        let database = daemon.directory + "/state/narrator.db"
        let client = try SSIPTestClient(path: ssip)
        _ = try client.command("SET SELF PRIORITY message")
        _ = try client.speak("A long message that is still being read aloud when its client pauses it, well before its end.")
        usleep(500_000)
        _ = try client.command("PAUSE self")
        _ = try client.command("CANCEL self")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/spd-say") {
            var environment = ProcessInfo.processInfo.environment
            environment["SPEECHD_ADDRESS"] = "unix_socket:" + ssip
            let piped = try CompletedRun.run("/bin/sh", ["-c", "printf 'a piped line\\n' | /usr/bin/spd-say -e -w"], environment: environment, timeout: .seconds(30))
            #expect(piped.status == 0, "\(piped.stderr)")
        }
        var rows: [JSONValue] = []
        for _ in 0..<100 {
            rows = try JSONParser().parse(try daemon.ctl("log", "--json", "--db", database).stdout).arrayValue ?? []
            if rows.contains(where: { $0["text"]?.stringValue?.hasPrefix("a piped line") == true }) || rows.count >= 3 { break }
            usleep(100_000)
        }
        let paused = rows.first { $0["text"]?.stringValue?.hasPrefix("A long message") == true }
        #expect(paused?["outcome"] == "interrupted", "\(rows)")
        #expect(paused?["interrupted_by"] == "pause", "\(rows)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/spd-say") {
            #expect(rows.contains { $0["text"] == "a piped line" }, "\(rows.map { $0["text"] ?? .null })")
        }
    }

    @Test func logAndStatsShowWhichClientSpoke() throws {
        let ssip = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-ssip-\(UUID().uuidString.prefix(8)).sock").path
        let daemon = try DaemonHarness(extraArguments: ["--ssip", ssip])
        defer { _ = daemon.stop() }
        let database = daemon.directory + "/state/narrator.db"
        try say("hello from orca", as: "user:orca:default", priority: "message", at: ssip)
        try say("hello from spd-say", as: "root:spd-say:main", priority: "text", at: ssip)
        try say("hello from a look-alike", as: "user:orcax:main", priority: "notification", at: ssip)
        let app = try daemon.client()
        _ = try app.request(["cmd": "hello", "client": "mail"])
        _ = try app.request(["cmd": "announce", "text": "3 new messages"])

        // Rows are written as speech ends: wait until all four are there.
        var stats = try daemon.ctl("stats", "--db", database, "--json")
        for _ in 0..<300 where (try? JSONParser().parse(stats.stdout)["rows"]?.numberValue) ?? 0 < 4 {
            usleep(50_000)
            stats = try daemon.ctl("stats", "--db", database, "--json")
        }
        let clients = try JSONParser().parse(stats.stdout)["clients"]
        #expect(clients == ["mail": 1, "orca": 1, "orcax": 1, "spd-say": 1], "\(stats.stdout)")

        let orca = try daemon.ctl("log", "--db", database, "--client", "orca")
        #expect(orca.status == 0, "\(orca.stderr)")
        let lines = orca.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(orca.stdout)")
        #expect(lines.last?.contains("hello from orca") == true && lines.last?.split(separator: " ").contains("orca") == true)
        #expect(lines.last?.split(separator: " ").contains("message") == true)
        let mail = try daemon.ctl("log", "--db", database, "--client", "MAIL")
        #expect(mail.stdout.contains("3 new messages") && !mail.stdout.contains("hello from"))
        let text = try daemon.ctl("stats", "--db", database)
        #expect(text.stdout.contains("ssip-message 1") && text.stdout.contains("ssip-text 1"), "\(text.stdout)")
    }
}
