import Foundation
import NarratorModel
import Testing

/// Runs the sqlite3 shell on a database, as a user would while narratord runs.
func sqlite(_ database: String, _ sql: String) throws -> [String] {
    let output = try DaemonHarness.run("/usr/bin/sqlite3", [database, sql])
    return output.stdout.split(separator: "\n").map(String.init)
}

/// Announcements through a real narratord: the queue's decisions in replies, rows in a real SQLite file.
@Suite struct AnnouncementLogTests {
    @Test func repliesCarryTheDecisionAndArriveAfterTheRowIsCommitted() throws {
        let daemon = try DaemonHarness()
        let database = daemon.directory + "/state/narrator.db"
        let app = try daemon.client()
        _ = try app.request(["cmd": "hello", "client": "mail"])
        let first = try app.request(["cmd": "announce", "text": "3 new messages"])
        #expect(first["decision"] == "speaking")
        #expect(first["logged"] == true)
        let again = try app.request(["cmd": "announce", "text": "3 New  messages"])
        #expect(again["decision"] == "deduplicated")
        #expect(again["duplicate_of"] == first["announcement"])
        // The reply came after the commit: the row is already there for any other reader.
        let id = Int(again["announcement"]?.numberValue ?? 0)
        #expect(try sqlite(database, "SELECT outcome, duplicate_of, client_name FROM utterances WHERE announcement = \(id)") == ["deduplicated|\(Int(first["announcement"]!.numberValue!))|mail"])
        #expect(try sqlite(database, "PRAGMA journal_mode") == ["wal"])
        let status = try app.request(["cmd": "status"])
        #expect(status["log"]?["ok"] == true)
        #expect(status["announcements"]?["policy"] == "default")
        // Spoken to its end while the daemon runs: the row names the utterance that spoke it.
        let firstID = Int(first["announcement"]!.numberValue!)
        let query = "SELECT outcome, utterance IS NOT NULL FROM utterances WHERE announcement = \(firstID)"
        var spoken = try sqlite(database, query)
        for _ in 0..<300 where spoken.first?.hasPrefix("spoken") != true {
            usleep(20_000)
            spoken = try sqlite(database, query)
        }
        #expect(spoken == ["spoken|1"])
        // Once speech ends, the first row carries its outcome and times.
        #expect(daemon.stop() == 0)
        #expect(try sqlite(database, "SELECT outcome, started_at IS NOT NULL FROM utterances WHERE announcement = \(Int(first["announcement"]!.numberValue!))").first?.hasSuffix("|1") == true)
        let log = try daemon.ctl("log", "--db", database)
        #expect(log.lines.count == 3)
        #expect(log.lines.last?.contains("deduplicated (of \(Int(first["announcement"]!.numberValue!)))") == true)
    }

    @Test func everyAcknowledgedAnnouncementSurvivesSIGKILL() throws {
        // One connection floods on purpose here: lift its waiting-announcement limit.
        let daemon = try DaemonHarness(extraArguments: ["--max-queued", "10000"])
        let database = daemon.directory + "/state/narrator.db"
        let app = try daemon.client()
        // Pipeline 400 announcements, read replies as they come, and kill the daemon a moment after the 150th.
        for n in 1...400 {
            let request: JSONValue = ["id": .number(Double(n)), "cmd": "announce", "text": .string("message \(n)")]
            try app.sendRaw(request.compactText)
        }
        var acknowledged: [Int] = []
        while acknowledged.count < 150 {
            let reply = try app.next()
            if reply["logged"] == true, let id = reply["announcement"]?.numberValue { acknowledged.append(Int(id)) }
        }
        kill(daemon.process.processIdentifier, SIGKILL)
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationReason == .uncaughtSignal)
        #expect(try sqlite(database, "PRAGMA integrity_check") == ["ok"])
        let stored = Set(try sqlite(database, "SELECT announcement FROM utterances WHERE kind = 'announcement'").compactMap(Int.init))
        #expect(Set(acknowledged).isSubset(of: stored))
    }

    @Test func speechGoesOnWhenTheLogCannotBeWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-nolog-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/file", contents: Data("x".utf8))
        let daemon = try DaemonHarness(extraArguments: ["--db", directory + "/file/narrator.db"])
        let app = try daemon.client()
        let reply = try app.request(["cmd": "announce", "text": "Still speaking"])
        #expect(reply["ok"] == true)
        #expect(reply["decision"] == "speaking")
        #expect(reply["logged"] == false)
        #expect(reply["log_error"]?["reason"] == "cannot_open")
        let status = try app.request(["cmd": "status"])
        #expect(status["log"]?["ok"] == false)
        #expect(status["log"]?["reason"] == "cannot_open")
        #expect(daemon.log.contains("the utterance log is unavailable"))
    }

    /// Text that would break SQL built by concatenation goes into the log verbatim and filters match
    /// it literally: every value reaches SQLite as a bound parameter.
    @Test func hostileTextIsStoredAndFilteredLiterally() throws {
        let daemon = try DaemonHarness(extraArguments: ["--policy", "none"])
        let database = daemon.directory + "/state/narrator.db"
        let app = try daemon.client()
        let hostile = "x'); DROP TABLE utterances; --"
        let tree = "t' OR '1'='1"
        _ = try app.request(["cmd": "hello", "client": .string("app\"; DELETE FROM utterances; --")])
        for name in [tree, "plain"] {
            let registered = try app.request(["cmd": "register", "document": ["tree": .string(name), "root": ["id": "r", "label": "R"]]])
            #expect(registered["ok"] == true, "\(registered)")
        }
        #expect(try app.request(["cmd": "announce", "text": .string(hostile), "tree": .string(tree)])["logged"] == true)
        #expect(try app.request(["cmd": "announce", "text": "plain", "tree": "plain"])["logged"] == true)
        #expect(daemon.stop() == 0)

        #expect(try sqlite(database, "SELECT COUNT(*) FROM utterances WHERE kind = 'announcement'") == ["2"])
        #expect(try sqlite(database, "SELECT text FROM utterances WHERE tree = 't'' OR ''1''=''1'") == [hostile])
        #expect(try sqlite(database, "SELECT client_name FROM utterances WHERE text = 'plain'") == ["app\"; DELETE FROM utterances; --"])
        // A filter is a value, not SQL: the hostile tree name matches its own row only.
        let filtered = try daemon.ctl("--json", "log", "--db", database, "--tree", tree)
        #expect(filtered.status == 0, "\(filtered.stderr)")
        #expect(filtered.stdout.contains("DROP TABLE"))
        #expect(!filtered.stdout.contains("plain"))
        let stats = try daemon.ctl("--json", "stats", "--db", database, "--tree", "nothing' OR 'a'='a")
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(try JSONParser().parse(stats.stdout)["rows"] == 0, "\(stats.stdout)")
        let own = try daemon.ctl("--json", "stats", "--db", database, "--tree", tree)
        #expect(try JSONParser().parse(own.stdout)["rows"] == 1, "\(own.stdout)")
    }

    @Test func focusSpeechIsLoggedAndPoliciesAreChosenPerDaemonAndPerTree() throws {
        let daemon = try DaemonHarness(extraArguments: ["--policy", "none", "--tree-policy", "library=strict"])
        let database = daemon.directory + "/state/narrator.db"
        let app = try daemon.client()
        _ = try app.request(["cmd": "register", "document": try loadExample("favorites.json")])
        _ = try app.request(["cmd": "focus", "tree": "library"])
        // Without a tree the daemon's policy (none) decides: no deduplication.
        let a = try app.request(["cmd": "announce", "text": "Same"])
        let b = try app.request(["cmd": "announce", "text": "Same"])
        #expect(a["policy"] == "none")
        #expect(b["decision"] != "deduplicated")
        // The library tree has its own policy, which deduplicates.
        let c = try app.request(["cmd": "announce", "text": "Synced", "tree": "library"])
        let d = try app.request(["cmd": "announce", "text": "Synced", "tree": "library"])
        #expect(c["policy"] == "strict")
        #expect(d["decision"] == "deduplicated")
        #expect(try app.request(["cmd": "status"])["announcements"]?["trees"]?["library"] == "strict")
        #expect(daemon.stop() == 0)
        #expect(try sqlite(database, "SELECT kind, tree FROM utterances WHERE kind = 'focus'") == ["focus|library"])
        #expect(try sqlite(database, "SELECT policy, COUNT(*) FROM utterances WHERE kind = 'announcement' GROUP BY policy ORDER BY policy") == ["none|2", "strict|2"])
    }
}
