import NarratorSpeechPlan
import NarratorStore
import Testing

/// The row's kind, outcome and interruption are typed in the core and names in the file: the
/// names must stay the ones every earlier daemon wrote, and a name this version does not know
/// (a file an older daemon wrote) must survive a read rather than fail the whole query.
@Suite("Log row names in the file")
struct LogRowNamesTests {
    /// Every value the core writes, stored and read back, with the text each column holds.
    @Test("every kind, outcome and interruption is stored under the name it always had, and reads back as itself")
    func storedNames() throws {
        let db = try UtteranceLog.openForWriting(try temporaryDirectory() + "/log.db")
        let kinds: [(LogRow.Kind, String)] = [
            (.announcement, "announcement"), (.focus, "focus"), (.hint, "hint"), (.value, "value"), (.speak, "speak"), (.ssip, "ssip"),
            (.command, "command"),
        ]
        let outcomes: [(LogRow.Outcome, String)] =
            AnnouncementOutcome.allCases.map { (.ended($0), $0.rawValue) }
            + [(.queued, "queued"), (.deferred, "deferred"), (.speaking, "speaking"), (.started, "started"), (.done, "done")]
        let interruptions: [(LogRow.Interruption, String)] = [
            (.speech(.focus), "focus"), (.speech(.hint), "hint"), (.speech(.value), "value"), (.speech(.speak), "speak"),
            (.speech(.announcement(.high)), "announcement-high"), (.speech(.ssip(.important)), "ssip-important"),
            (.disconnect, "disconnect"), (.key, "key"), (.pause, "pause"),
        ]
        var rows: [LogRow] = []
        for (n, (kind, _)) in kinds.enumerated() { rows.append(LogRow(kind: kind, text: "k\(n)", queuedAt: Double(n), outcome: .done)) }
        for (n, (outcome, _)) in outcomes.enumerated() { rows.append(LogRow(kind: .speak, text: "o\(n)", queuedAt: Double(n), outcome: outcome)) }
        for (n, (by, _)) in interruptions.enumerated() {
            rows.append(LogRow(kind: .speak, text: "i\(n)", queuedAt: Double(n), outcome: .ended(.interrupted), interruptedBy: by))
        }
        try UtteranceLog.insert(rows, into: db)

        let stored = try db.query("SELECT text, kind, outcome, interrupted_by FROM utterances ORDER BY id") {
            ($0.string(0) ?? "", $0.string(1) ?? "", $0.string(2) ?? "", $0.string(3))
        }
        #expect(stored.filter { $0.0.hasPrefix("k") }.map(\.1) == kinds.map(\.1))
        #expect(stored.filter { $0.0.hasPrefix("o") }.map(\.2) == outcomes.map(\.1))
        #expect(stored.filter { $0.0.hasPrefix("i") }.map(\.3) == interruptions.map(\.1))

        let read = try UtteranceLog.rows(LogFilter(commands: true), in: db).map(\.row)
        #expect(read.filter { $0.text.hasPrefix("k") }.map(\.kind) == kinds.map(\.0))
        #expect(read.filter { $0.text.hasPrefix("o") }.map(\.outcome) == outcomes.map(\.0))
        #expect(read.filter { $0.text.hasPrefix("i") }.map(\.interruptedBy) == interruptions.map(\.0))
    }

    /// Before the `ssip` kind an SSIP message's row said `ssip-message`; the columns have no
    /// check, so any text can be there. Such a row is read as `unknown` and written back unchanged.
    @Test("names this version does not know read back as unknown, and are written back unchanged")
    func unknownNames() throws {
        let db = try UtteranceLog.openForWriting(try temporaryDirectory() + "/log.db")
        try db.execute(
            "INSERT INTO utterances (kind, text, queued_at, outcome, interrupted_by) VALUES ('ssip-message', 'old', 1, 'released', 'announcement')")
        let rows = try UtteranceLog.rows(LogFilter(), in: db)
        let old = try #require(rows.first?.row)
        #expect(old.kind == .unknown("ssip-message"))
        #expect(old.outcome == .unknown("released"))
        // `announcement` alone would read as announcement-default and be stored under another name.
        #expect(old.interruptedBy == .unknown("announcement"))
        #expect(old.outcome.ended == nil)

        try UtteranceLog.insert([old], into: db)
        let copies = try db.query("SELECT kind, outcome, interrupted_by FROM utterances ORDER BY id") {
            "\($0.string(0) ?? "-") \($0.string(1) ?? "-") \($0.string(2) ?? "-")"
        }
        #expect(copies == ["ssip-message released announcement", "ssip-message released announcement"])
    }
}
