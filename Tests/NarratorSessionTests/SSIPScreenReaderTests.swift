import NarratorBase
import NarratorSSIP
import NarratorSpeechPlan
import Testing

/// A screen reader's burst is not a flood (issue 38): what Orca 43 sends on a page load, as it
/// sent it through narratord (Tests/Helpers/traces/regatta_page.html: the frame, the summary,
/// then Say All's first items, twelve messages in 0.4 s with "link" and "navigation" repeated),
/// is heard whole under the default policy, while a client beside it that floods and never
/// cancels its own speech is still throttled.
@Suite struct SSIPScreenReaderTests {
    static let pageLoad = [
        "Harbour rowing: autumn regatta — Mozilla Firefox frame.", "Finished loading Harbour rowing: autumn regatta.",
        "Page has 4 landmarks, 4 headings, 1 form, 1 table, 3 unvisited links.", "Harbour Rowing Club", "navigation", "Races",
        "link", "navigation", "Register", "link", "navigation", "Contact", "link",
    ]

    /// Sends the page load's messages 30 ms apart from `orca` and returns the outcomes logged
    /// when they were sent (a message admitted is logged only when it ends); what started
    /// playing meanwhile is added to `played`.
    static func load(_ h: inout Harness, _ orca: ClientID, played: inout [String]) -> [String] {
        var judged: [String] = []
        for text in pageLoad {
            let effects = h.speak(orca, text)
            played += effects.played
            judged += effects.appendedRows.filter { $0.kind == .ssip }.map { "\($0.text): \($0.outcome)" }
            h.advance(by: .milliseconds(30))
        }
        return judged
    }

    static func load(_ h: inout Harness, _ orca: ClientID) -> [String] {
        var played: [String] = []
        return load(&h, orca, played: &played)
    }

    static func orca(_ h: inout Harness) -> ClientID {
        let orca = h.ssipClient(pid: 401)
        h.ssip(orca, "SET self CLIENT_NAME unknown:Orca:default", "SET self PRIORITY message", "SET self NOTIFICATION all on", "SET self SSML_MODE on")
        return orca
    }

    /// Plays everything to its end and returns what played.
    static func playAll(_ h: inout Harness) -> [String] {
        var played: [String] = []
        while h.playing != nil { played += h.finishSpeaking().played }
        return played
    }

    @Test func aScreenReadersPageLoadIsHeardWholeAndAFloodBesideItIsThrottled() {
        var h = Harness(policy: .default)
        let orca = Self.orca(&h)
        // Orca cancels its own speech on a key or a new window, before it reads the page.
        h.ssip(orca, "CANCEL self")
        let flooder = h.ssipClient(pid: 402)
        h.ssip(flooder, "SET self CLIENT_NAME user:flood:main", "SET self PRIORITY message")
        var flooded: [LogRow.Outcome] = []
        var played: [String] = []
        for n in 1...20 {
            let effects = h.speak(flooder, "Flood message number \(n)")
            played += effects.played
            flooded += effects.appendedRows.map(\.outcome)
        }
        #expect(Self.load(&h, orca, played: &played) == [])
        // The flood beside it: the first and three more (the bucket), the other sixteen throttled.
        #expect(flooded == Array(repeating: .ended(.throttled), count: 16))
        played += Self.playAll(&h)
        #expect(played.filter { !$0.hasPrefix("Flood") } == Self.pageLoad)
        // F5: Orca cancels and says it all again, the same texts just after they were heard.
        h.ssip(orca, "CANCEL self")
        played = []
        #expect(Self.load(&h, orca, played: &played) == [])
        played += Self.playAll(&h)
        #expect(played == Self.pageLoad)
    }

    /// Before a screen reader has cancelled anything, or when only someone else cancelled its
    /// speech (`spd-say -C` sends `CANCEL all` on a connection of its own), a pile-up is judged:
    /// only cancelling one's own speech tells a screen reader from a flood.
    @Test func aClientThatNeverCancelledItsOwnSpeechIsJudged() {
        var h = Harness(policy: .default)
        let orca = Self.orca(&h)
        let other = h.ssipClient(pid: 403)
        h.ssip(other, "CANCEL all")
        h.ssip(other, "CANCEL \(orca.rawValue)")
        // The frame, then three from the bucket; the other nine are throttled (as Orca's were, issue 38).
        let judged = Self.load(&h, orca)
        #expect(judged.count == 9 && judged.allSatisfy { $0.hasSuffix(": throttled") }, "\(judged)")
        // Its own CANCEL: from now on what it says is heard whole.
        _ = Self.playAll(&h)
        h.ssip(orca, "CANCEL self")
        #expect(Self.load(&h, orca) == [])
        // So is a STOP of its own, on a connection of its own, or `CANCEL all` sent by itself.
        for (n, command) in ["STOP self", "CANCEL all"].enumerated() {
            let reader = h.ssipClient(pid: 404 + n)
            h.ssip(reader, "SET self CLIENT_NAME user:reader:r\(n)", "SET self PRIORITY message")
            h.ssip(reader, command)
            #expect(Self.load(&h, reader) == [], "after \(command)")
        }
    }

    /// A connection that cancelled once and then floods is caught when its backlog passes
    /// ``SSIPGate/runawayBacklog``: then it is judged as any flood (its bucket, untouched until
    /// then, admits three more).
    @Test func aRunawayBacklogIsJudged() {
        var h = Harness(policy: .default)
        let orca = Self.orca(&h)
        h.ssip(orca, "CANCEL self")
        var outcomes: [String] = []
        for n in 0..<(SSIPGate.runawayBacklog + 5) {
            outcomes += h.speak(orca, "Line \(n)").appendedRows.filter { $0.kind == .ssip }.map { "\($0.text): \($0.outcome)" }
        }
        let runaway = SSIPGate.runawayBacklog
        #expect(outcomes == ["Line \(runaway + 3): throttled", "Line \(runaway + 4): throttled"])
    }

    /// Under `none` nothing is judged, screen reader or not.
    @Test func noneJudgesNothing() {
        var h = Harness(policy: .none)
        let orca = Self.orca(&h)
        #expect(Self.load(&h, orca) == [])
    }
}
