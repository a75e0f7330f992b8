import NarratorBase
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// Focus, navigation and hints, through the session on a virtual clock: the same scenarios the
/// end-to-end tests drive through a daemon process, asserting every effect.
@Suite struct FocusTests {
    @Test func registeringATreeRepliesAndJournals() throws {
        var h = Harness()
        let app = h.client(pid: 321)
        let effects = try h.register(app, example: "player.json")
        #expect(
            effects == [
                .journal(.info, #"registered tree "player" (15 nodes, 6 stops) for client (pid 321)"#),
                .send(app, .reply(Reply(id: 1, .success(.registered(RegisterReport(tree: "player", stops: 6, nodes: 15, replaced: false)))))),
            ])
    }

    @Test func focusSpeaksTheTitleOnEnteringATreeThenOnlyTheElement() throws {
        var h = Harness()
        let app = h.client()
        // Registered asking for focus events, as a mirror of another application does.
        try h.register(app, example: "player.json", focusEvents: true)
        let user = h.client()
        let focus = h.request(user, .focus(tree: "player", element: "rating"))
        let spoken = "Now Playing, rating, 3, adjustable"
        #expect(
            focus == [
                // The tree's owner hears where a user moved the focus (a mirror moves its application's).
                .send(app, .event(.focus(Focus(tree: "player", element: "rating")))),
                .send(
                    user,
                    .reply(
                        Reply(
                            id: 2,
                            .success(.focus(FocusReport(utterance: spoken, hint: nil, focus: Focus(tree: "player", element: "rating"), boundary: false)))))),
                // The speech goes to the player as the batch ends, after the replies are queued.
                play(1, .focus, spoken, language: "en"),
            ])
        // Within the tree, the title is not said again; the move interrupts what plays.
        let next = h.request(user, .move(.next, tree: nil))
        #expect(next.stopped == [UtteranceID(1)])
        #expect(next.played == ["Previous track, button"])
        #expect(next.body(to: user) == .focus(FocusReport(utterance: "Previous track, button", hint: nil, focus: Focus(tree: "player", element: "previous"), boundary: false)))
        #expect(next.contains(.send(app, .event(.focus(Focus(tree: "player", element: "previous"))))))
        // The owner's own focus requests are not echoed back to it.
        let own = h.request(app, .focus(tree: "player", element: "rating"))
        #expect(!own.contains { if case .send(app, .event) = $0 { true } else { false } })
        // An owner that did not ask hears nothing of focus moves.
        var plain = Harness()
        let owner = plain.client()
        try plain.register(owner, example: "player.json")
        let mover = plain.client()
        #expect(!plain.request(mover, .focus(tree: "player", element: "rating")).contains { if case .send(owner, .event) = $0 { true } else { false } })
    }

    @Test("A focus request saying words of its own (browse mode's line) says them, not the element, and they are the utterance")
    func aFocusSayingItsOwnWords() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json", focusEvents: true)
        let user = h.client()
        _ = h.request(user, .focus(tree: "player", element: "rating"))
        let line = h.request(user, .focus(tree: "player", element: "previous", saying: "Previous track Play Next track"))
        #expect(line.played == ["Previous track Play Next track"])
        #expect(line.body(to: user) == .focus(FocusReport(utterance: "Previous track Play Next track", hint: nil, focus: Focus(tree: "player", element: "previous"), boundary: false)))
        #expect(line.contains(.send(app, .event(.focus(Focus(tree: "player", element: "previous"))))))
    }

    @Test func aBoundaryLeavesFocusWhereItWasAndSpeaksNothing() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        h.request(user, .move(.last, tree: "player"))
        let past = h.request(user, .move(.next, tree: nil))
        #expect(past.played.isEmpty && past.stopped.isEmpty)
        let report = try #require(past.body(to: user)?.focus)
        #expect(report.boundary && report.focus.element == "next")
        #expect(report.utterance == "Next track, button")
    }

    @Test func theHintFollowsItsFocusUtteranceAfterThePause() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        let touch = h.request(user, .touch(x: 195, y: 610, tree: "player"))
        #expect(touch.played == ["Now Playing, Play, button"])
        let report = try #require(touch.body(to: user)?.focus)
        #expect(report.hint == "actions available")
        // No timer while the focus utterance plays: the hint waits for its end, then 400 ms.
        #expect(h.timer == nil)
        h.advance(by: .milliseconds(900))
        let ended = h.finishSpeaking()
        #expect(ended.played.isEmpty)
        #expect(ended.contains(.setTimer(h.now + .milliseconds(400))))
        let hint = h.fireTimer()
        #expect(hint == [play(2, .hint, "actions available", language: "en")])
        #expect(h.timer == nil)
    }

    @Test func aFocusMoveDropsThePendingHintOfTheLastOne() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        h.request(user, .focus(tree: "player", element: "play"))
        h.finishSpeaking()
        #expect(h.timer != nil)
        // The session owns the timer: a request that leaves its deadline as it was says nothing of it.
        #expect(!h.request(user, .status).contains { if case .setTimer = $0 { true } else { $0 == .cancelTimer } })
        let move = h.request(user, .move(.next, tree: nil))
        #expect(move.played == ["Next track, button"])
        #expect(move.contains(.cancelTimer))
    }

    @Test func subscribersHearEveryStepOfEveryUtterance() throws {
        var h = Harness()
        let monitor = h.client()
        #expect(h.request(monitor, .subscribe).body(to: monitor) == .subscribed)
        let user = h.client()
        try h.register(user, example: "player.json")
        let at = h.now
        let focus = h.request(user, .focus(tree: "player", element: "previous"))
        let text = "Now Playing, Previous track, button"
        let events = focus.events(to: monitor)
        #expect(
            events == [
                .speech(SpeechNotice(utterance: UtteranceID(1), kind: .focus, phase: .queued, at: at, text: text, tree: "player", element: "previous")),
                .speech(SpeechNotice(utterance: UtteranceID(1), kind: .focus, phase: .started, at: at, text: text, tree: "player", element: "previous")),
            ])
        #expect(focus.events(to: user).isEmpty)
        h.advance(by: .seconds(1))
        let next = h.request(user, .move(.next, tree: nil))
        let play = "Play, button"
        #expect(
            next.events(to: monitor) == [
                .speech(SpeechNotice(utterance: UtteranceID(2), kind: .focus, phase: .queued, at: h.now, text: play, tree: "player", element: "play")),
                .speech(SpeechNotice(utterance: UtteranceID(1), kind: .focus, phase: .interrupted(by: UtteranceID(2)), at: h.now, text: text, tree: "player", element: "previous")),
                .speech(SpeechNotice(utterance: UtteranceID(2), kind: .focus, phase: .started, at: h.now, text: play, tree: "player", element: "play")),
                .speech(SpeechNotice(utterance: UtteranceID(3), kind: .hint, phase: .queued, at: h.now, text: "actions available", tree: "player", element: "play")),
            ])
    }

    @Test func focusSpeechIsLoggedWhenItEnds() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        h.request(user, .focus(tree: "player", element: "previous"))
        h.advance(by: .milliseconds(1500))
        let next = h.request(user, .move(.next, tree: nil))
        #expect(
            next.appendedRows == [
                LogRow(
                    utterance: 1, kind: .focus, text: "Now Playing, Previous track, button", tree: "player", element: "previous", queuedAt: 1_700_000_005,
                    startedAt: 1_700_000_005, endedAt: 1_700_000_006.5, outcome: .ended(.interrupted), interruptedBy: .speech(.focus))
            ])
    }

    @Test func errorsNameTheTreeAndElementAndNothingIsSpoken() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        let typo = h.request(user, .focus(tree: "player", element: "ratng"))
        #expect(typo.error(to: user) == ReplyError(.unknownElement, #"tree "player" has no element "ratng"; did you mean "rating"?"#))
        #expect(typo.played.isEmpty)
        #expect(h.request(user, .focus(tree: "playr", element: nil)).error(to: user)?.code == .unknownTree)
        #expect(h.request(user, .activate).error(to: user)?.code == .noFocus)
        #expect(h.request(user, .focus(tree: "player", element: "artwork")).error(to: user)?.code == .hiddenElement)
    }

    @Test func rotorsMoveByHeadingAndPickActions() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        h.request(user, .focus(tree: "player", element: "play"))
        let rotors = try #require(h.request(user, .rotors).body(to: user)?.rotors)
        #expect(rotors.map(\.name) == ["headings", "buttons", "actions"])
        let pick = h.request(user, .rotor(name: "actions", direction: .next))
        #expect(pick.body(to: user) == .selectedAction(action: "skip", focus: Focus(tree: "player", element: "play")))
        #expect(pick.played == ["skip"])
        let heading = h.request(user, .rotor(name: "headings", direction: .previous))
        let report = try #require(heading.body(to: user)?.focus)
        #expect(report.focus.element == "title")
    }

    /// The cell command moves by cell and says it; at the table's edge it says the edge (a key
    /// met by silence tells the user nothing); off a table it is refused as not in one.
    @Test func cellMovesSayTheCellOrTheEdge() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, json: #"""
            {"tree": "page", "root": {"id": "root", "children": [
              {"id": "intro", "label": "Schedule"},
              {"id": "t", "table": [1, 2], "children": [{"id": "row", "children": [
                {"id": "a", "label": "Race", "cell": [0, 0], "cellHeader": "column"},
                {"id": "b", "label": "Start", "cell": [0, 1], "cellHeader": "column"}]}]}
            ]}}
            """#)
        h.request(user, .focus(tree: "page", element: "intro"))
        #expect(h.request(user, .cell(.right)).error(to: user)?.code == .notInTable)
        h.request(user, .focus(tree: "page", element: "a"))
        let right = h.request(user, .cell(.right))
        #expect(right.body(to: user)?.focus?.focus.element == "b")
        #expect(right.played == ["Start, column header, row 1, column 2"])
        let edge = h.request(user, .cell(.right))
        #expect(edge.body(to: user)?.focus?.boundary == true && edge.body(to: user)?.focus?.focus.element == "b")
        #expect(edge.played == ["End of row"])
    }
}
