import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// A log file that was not a database and was set aside: said once in the journal, and in `status`.
@Suite struct LogSetAsideTests {
    @Test func theJournalSaysItOnceAndStatusKeepsIt() throws {
        var h = Harness()
        let user = h.client()
        let aside = LogSetAside(path: "/tmp/narrator.db.corrupt-2026-12-01-055300", reason: "file is not a database")
        let health = LogHealth(path: "/tmp/narrator.db", isOpen: true, setAside: aside)
        #expect(
            h.feed(.logHealth(health)) == [
                .journal(
                    .warning,
                    "the log /tmp/narrator.db was not a database (file is not a database); it was set aside as /tmp/narrator.db.corrupt-2026-12-01-055300 and a fresh log started")
            ])
        var later = health
        later.rowsWritten = 3
        #expect(h.feed(.logHealth(later)).isEmpty)
        let status = try #require(h.request(user, .status).body(to: user)?.status)
        #expect(status.log.setAside == aside)
        // The status line carries it.
        let line = Reply(id: 1, .success(.status(status))).json.compactText
        #expect(line.contains(#""set_aside":{"path":"/tmp/narrator.db.corrupt-2026-12-01-055300","reason":"file is not a database"}"#))
    }
}
