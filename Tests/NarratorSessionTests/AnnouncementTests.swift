import NarratorBase
import NarratorCore
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// Announcements through the session: the row appended with the first decision, the reply sent
/// only once that row is committed, and every outcome reaching the log.
@Suite struct AnnouncementTests {
    /// A client that announces (with a name) and an announcement request.
    func announce(_ h: inout Harness, _ client: ClientID, _ text: String, priority: AnnouncementPriority = .default, tree: String? = nil, key: String? = nil) -> [SessionEffect] {
        h.request(client, .announce(text: text, priority: priority, tree: tree, element: nil, key: key))
    }

    @Test func theReplyWaitsForTheRowAndSaysWhetherItWasLogged() throws {
        var h = Harness()
        let app = h.client(pid: 77)
        h.request(app, .hello(client: "mail"))
        let effects = announce(&h, app, "3 new messages")
        // Speech starts at once; the reply does not come until the row is committed.
        #expect(effects.played == ["3 new messages"])
        #expect(effects.replies(to: app).isEmpty)
        let row = LogRow(
            announcement: 1, kind: .announcement, text: "3 new messages", priority: "default", dedupKey: "3 new messages", policy: "default",
            clientPID: 77, clientUID: Int64(Harness.daemonUID), clientName: "mail", queuedAt: 1_700_000_005, outcome: .speaking, connection: Int64(app.rawValue))
        #expect(effects.contains(.appendLog(row, Ticket(1))))
        let committed = h.feed(.logWritten(Ticket(1), .success(())))
        #expect(
            committed == [
                .send(
                    app,
                    .reply(
                        Reply(
                            id: 2,
                            .success(
                                .announced(
                                    AnnounceReport(
                                        announcement: AnnouncementID(1), decision: "speaking", priority: .default, key: "3 new messages", policy: "default",
                                        duplicateOf: nil, logged: true, logProblem: nil))))))
            ])
        // A row that could not be written is still answered, saying why.
        _ = announce(&h, app, "Sent")
        let problem = LogProblem(reason: "readonly", message: "attempt to write a readonly database")
        let report = try #require(h.feed(.logWritten(Ticket(2), .failure(problem))).body(to: app)?.announced)
        #expect(!report.logged && report.logProblem == problem && report.decision == "queued")
    }

    @Test func spokenToItsEndTheRowGetsItsOutcomeAndTheUtterance() throws {
        var h = Harness()
        let app = h.client()
        _ = announce(&h, app, "Saved")
        h.commitLog()
        h.advance(by: .milliseconds(700))
        let ended = h.finishSpeaking()
        #expect(
            ended.updatedRows == [
                LogRow(
                    announcement: 1, utterance: 1, kind: .announcement, text: "Saved", priority: "default", dedupKey: "saved", policy: "default",
                    queuedAt: 1_700_000_005, startedAt: 1_700_000_005, endedAt: 1_700_000_005.7, outcome: .ended(.spoken))
            ])
    }

    @Test func repeatsAreDeduplicatedAndTheirRowIsFinalAtOnce() throws {
        var h = Harness()
        let app = h.client()
        _ = announce(&h, app, "3 new messages")
        let again = announce(&h, app, "3 New  messages")
        #expect(again.played.isEmpty && again.updatedRows.isEmpty)
        #expect(again.appendedRows.map(\.outcome) == [.ended(.deduplicated)])
        #expect(again.appendedRows.first?.duplicateOf == 1)
        h.commitLog()
        let replies = h.history.replies(to: app).compactMap { reply -> AnnounceReport? in
            if case .success(.announced(let report)) = reply.outcome { report } else { nil }
        }
        #expect(replies.map(\.decision) == ["speaking", "deduplicated"])
        #expect(replies.last?.duplicateOf == AnnouncementID(1))
    }

    @Test func aBurstIsThrottledAndCoalescedAndTheRestIsSpokenInTurn() throws {
        var h = Harness(limits: { var l = DaemonLimits(); l.queuedPerClient = 100; return l }())
        let app = h.client()
        let texts = (1...6).map { "Message \($0)" }
        var decisions: [LogRow.Outcome] = []
        for text in texts {
            for effect in announce(&h, app, text) { if case .appendLog(let row, _) = effect, row.kind == .announcement { decisions.append(row.outcome) } }
        }
        // Three tokens: the first plays, two queue; the rest wait for a token (deferred).
        #expect(decisions == [.speaking, .queued, .queued, .deferred, .deferred, .deferred])
        #expect(h.timer != nil, "a refill is due")
        h.advance(by: .milliseconds(800))
        #expect(h.finishSpeaking().played == ["Message 2"])
    }

    @Test func overTheRateLimitWithoutCoalescingAnAnnouncementIsThrottledAtOnce() throws {
        var policy = AnnouncementPolicy.default
        policy.coalesce = false
        policy.rateLimit = AnnouncementPolicy.RateLimit(burst: 1, refillPerSecond: 0.1)
        var h = Harness(policy: policy)
        let app = h.client()
        _ = announce(&h, app, "First")
        let second = announce(&h, app, "Second")
        #expect(second.appendedRows.map(\.outcome) == [.ended(.throttled)])
        h.commitLog()
        let reply = try #require(h.history.replies(to: app).last)
        let report = try #require(try reply.outcome.get().announced)
        #expect(report.decision == "throttled")
    }

    @Test func aNewerValueOfTheSameControlReplacesTheOneThatWaits() throws {
        var h = Harness(limits: { var l = DaemonLimits(); l.queuedPerClient = 100; return l }())
        let app = h.client()
        try h.register(app, json: #"{"tree": "player", "root": {"id": "vol", "label": "Volume", "traits": ["adjustable"]}}"#)
        for text in ["playing", "a", "b"] { h.request(app, .announce(text: text, priority: .default, tree: "player", element: nil, key: nil)) }
        // The bucket is empty: the slider's values are held, and each newer one replaces the last.
        h.request(app, .announce(text: "Volume 10", priority: .default, tree: "player", element: "vol", key: nil))
        let newer = h.request(app, .announce(text: "Volume 20", priority: .default, tree: "player", element: "vol", key: nil))
        #expect(newer.updatedRows.map { "\($0.text): \($0.outcome) (for \($0.duplicateOf ?? 0))" } == ["Volume 10: throttled (for 5)"])
        #expect(newer.appendedRows.map(\.outcome) == [.deferred])
    }

    @Test func anAnnouncementWaitingBehindFocusSpeechStartsWhenItEnds() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        h.request(app, .focus(tree: "player", element: "rating"))
        // Low never cuts focus speech: it waits...
        #expect(announce(&h, app, "Download finished", priority: .low).played.isEmpty)
        h.advance(by: .seconds(1))
        // ...and starts as soon as the focus speech has been heard, not when its time to live runs out.
        #expect(h.finishSpeaking().played == ["Download finished"])
    }

    @Test func aDefaultAnnouncementWaitingBehindAnotherStartsAfterAFocusMoveHasBeenSpoken() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        _ = announce(&h, app, "First")
        _ = announce(&h, app, "Second")
        // The user moves: focus speech cuts "First"; "Second" waits for it, and for its hint.
        #expect(h.request(app, .focus(tree: "player", element: "play")).played == ["Now Playing, Play, button"])
        h.advance(by: .seconds(1))
        #expect(h.finishSpeaking().played.isEmpty, "the hint is due first")
        #expect(h.fireTimer().played == ["actions available"])
        h.advance(by: .seconds(1))
        #expect(h.finishSpeaking().played == ["Second"])
    }

    @Test func aHighAnnouncementInterruptsAndTheInterruptedRowSaysSo() throws {
        var h = Harness()
        let app = h.client()
        _ = announce(&h, app, "Downloading", priority: .low)
        h.advance(by: .milliseconds(300))
        let high = announce(&h, app, "Battery low", priority: .high)
        #expect(high.stopped == [UtteranceID(1)])
        #expect(high.played == ["Battery low"])
        #expect(high.updatedRows.map(\.outcome) == [.ended(.interrupted)])
        #expect(high.updatedRows.first?.utterance == 1)
    }

    @Test func waitingAnnouncementsExpireAfterTheirTimeToLive() throws {
        var h = Harness()
        let app = h.client()
        let other = h.client()
        _ = announce(&h, app, "Long report", priority: .high)
        _ = announce(&h, other, "Later")
        // Nothing finishes the high one for 46 s: the waiting one's 45 s run out first.
        let deadline = try #require(h.timer)
        #expect(deadline == h.now + .seconds(45))
        let expired = h.fireTimer()
        #expect(expired.updatedRows.map(\.outcome) == [.ended(.expired)])
        #expect(expired.updatedRows.first?.text == "Later")
    }

    @Test func stopCancelsWhatWaitsAndWhatPlays() throws {
        var h = Harness()
        let app = h.client()
        _ = announce(&h, app, "One")
        _ = announce(&h, app, "Two")
        let stop = h.request(app, .stop)
        #expect(stop.stopped == [UtteranceID(1)])
        #expect(Set(stop.updatedRows.map(\.text)) == ["One", "Two"])
        #expect(stop.updatedRows.allSatisfy { $0.outcome == .ended(.cancelled) })
        #expect(stop.body(to: app) == .stopped)
    }

    @Test func focusLeavingATreeCancelsItsWaitingAnnouncements() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        try h.register(app, json: #"{"tree": "mail", "root": {"id": "inbox", "label": "Inbox", "traits": ["button"]}}"#)
        h.request(app, .focus(tree: "player", element: "play"))
        _ = announce(&h, app, "High one", priority: .high, tree: "player")
        _ = announce(&h, app, "Track changed", tree: "player")
        let move = h.request(app, .focus(tree: "mail", element: nil))
        #expect(move.updatedRows.map(\.text) == ["Track changed"])
        #expect(move.updatedRows.map(\.outcome) == [.ended(.cancelled)])
    }

    @Test func aFullQueueDropsTheLowestOldest() throws {
        var policy = AnnouncementPolicy.none
        policy.queueLimit = 2
        var h = Harness(limits: { var l = DaemonLimits(); l.queuedPerClient = 100; return l }(), policy: policy)
        let app = h.client()
        _ = announce(&h, app, "Playing", priority: .high)
        _ = announce(&h, app, "low one", priority: .low)
        _ = announce(&h, app, "default one")
        let third = announce(&h, app, "another")
        #expect(third.updatedRows.map(\.text) == ["low one"])
        #expect(third.updatedRows.map(\.outcome) == [.ended(.dropped)])
    }

    @Test func treesMayHaveTheirOwnPolicy() throws {
        var h = Harness(treePolicies: ["logs": .none])
        let app = h.client()
        try h.register(app, json: #"{"tree": "logs", "root": {"id": "r", "label": "Logs"}}"#)
        _ = announce(&h, app, "Build started", tree: "logs")
        let again = announce(&h, app, "Build started", tree: "logs")
        // `none` does not deduplicate.
        #expect(again.appendedRows.map(\.outcome) == [.queued])
        #expect(again.appendedRows.first?.policy == "none")
    }
}
