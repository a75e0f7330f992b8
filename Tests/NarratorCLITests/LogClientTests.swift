import Foundation
import NarratorSpeechPlan
import NarratorStore
import Testing

/// `narratorctl log --client` and `stats --client` through the real binary, on a real SQLite log
/// holding what narratord writes for Speech Dispatcher (SSIP) clients and a JSON client.
@Suite struct LogClientTests {
    let database: String

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-log-client-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        database = directory + "/narrator.db"
        func ssip(_ at: Double, _ name: String, _ priority: String, _ outcome: LogRow.Outcome = .ended(.spoken)) -> LogRow {
            LogRow(
                kind: .ssip, text: "\(name) says \(priority)", priority: priority, policy: "default", clientPID: 40, clientUID: 1000,
                clientName: name, queuedAt: 1_700_000_000 + at, startedAt: 1_700_000_000 + at, endedAt: 1_700_000_000 + at + 1, outcome: outcome)
        }
        let mail = LogRow(
            announcement: 1, kind: .announcement, text: "3 new messages", priority: "default", tree: "mail", policy: "default", clientPID: 41,
            clientUID: 1000, clientName: "mail", queuedAt: 1_700_000_003, startedAt: 1_700_000_003, endedAt: 1_700_000_004, outcome: .ended(.spoken))
        let db = try UtteranceLog.openForWriting(database)
        try UtteranceLog.insert(
            [
                ssip(1, "user:orca:default", "important"), ssip(2, "orca", "message", .ended(.interrupted)), mail,
                ssip(4, "root:spd-say:main", "text"), ssip(5, "user:orcax:main", "notification", .ended(.throttled)),
            ], into: db)
    }

    func narratorctl(_ arguments: String...) throws -> String {
        let result = try Binaries.run("narratorctl", arguments + ["--db", database])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func logShowsWhoSpokeAndFiltersByClient() throws {
        let all = try narratorctl("log").split(separator: "\n").map(String.init)
        #expect(all.first?.split(separator: " ").map(String.init) == ["QUEUED", "ID", "KIND", "PRIORITY", "TREE", "CLIENT", "POLICY", "OUTCOME", "WAIT", "TEXT"])
        for (line, client) in zip(all.dropFirst(), ["orca", "orca", "mail", "spd-say", "orcax"]) {
            #expect(line.split(separator: " ").contains(Substring(client)), "\(line)")
        }
        let orca = try narratorctl("log", "--client", "orca").split(separator: "\n").dropFirst()
        #expect(orca.count == 2)
        #expect(orca.first?.hasSuffix("user:orca:default says important") == true && orca.last?.hasSuffix("  orca says message") == true, "\(orca)")
        #expect(try narratorctl("log", "--client=Orca").split(separator: "\n").count == 3)
        #expect(try narratorctl("log", "--client", "user:orca:default").split(separator: "\n").count == 2)
        #expect(try narratorctl("log", "--client", "mail").contains("3 new messages"))
        #expect(try narratorctl("log", "--client", "nobody").contains("(no rows)"))

        let csv = try narratorctl("log", "--csv", "--client", "spd-say").split(separator: "\n")
        #expect(csv.first?.hasSuffix(",experiment,client") == true)
        #expect(csv.last?.hasSuffix(",spd-say") == true && csv.last?.contains(",root:spd-say:main,") == true)
    }

    @Test func statsCountPerClient() throws {
        let text = try narratorctl("stats")
        #expect(text.contains("client: orca 2, mail 1, orcax 1, spd-say 1\n"), "\(text)")
        #expect(text.contains("priority/kind: default 1, ssip-important 1, ssip-message 1, ssip-notification 1, ssip-text 1"), "\(text)")
        let orca = try narratorctl("stats", "--client", "orca")
        #expect(orca.contains("rows: 2\n") && orca.contains("client: orca 2\n") && orca.contains("interruptions of ongoing speech: 1"), "\(orca)")
        let json = try JSONSerialization.jsonObject(with: Data(try narratorctl("stats", "--json").utf8)) as? [String: Any]
        #expect(json?["clients"] as? [String: Int] == ["orca": 2, "mail": 1, "orcax": 1, "spd-say": 1])
    }
}
