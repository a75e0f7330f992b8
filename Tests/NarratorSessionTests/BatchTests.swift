import NarratorBase
import NarratorCore
import NarratorSpeechPlan
import Testing

/// The daemon's loop feeds the session everything that was ready when it woke, then
/// `batchEnded`: the speech a batch started goes to the player only then, less what the same
/// batch stopped, so a burst that cuts itself (a screen reader's key echo, focus racing down a
/// list) is never synthesized but for its last word.
@Suite struct BatchTests {
    /// What an SSIP client's message is played as under the default SSIP settings.
    func ssipPlay(_ id: UInt64, _ text: String, client: ClientID, priority: MessagePriority = .text, echo: KeyEcho = .none) -> SessionEffect {
        .play(
            PlayRequest(
                utterance: UtteranceRequest(id: UtteranceID(id), kind: .ssip(priority), text: text, language: "en-US", client: client, echo: echo),
                voice: .language("en-US"), parameters: standardParameters))
    }

    @Test func aBurstOfSSIPTextsEachCuttingTheLastPlaysOnlyTheLast() {
        var h = Harness(policy: .none)
        let orca = h.ssipClient()
        h.ssip(orca, "SET SELF NOTIFICATION ALL on")
        let burst = h.batch { h in
            for text in ["N", "Ne", "New"] { h.speak(orca, text) }
        }
        // Only the last goes to the player, as the batch ends; nothing handed out needed stopping.
        #expect(burst.plays == [ssipPlay(3, "New", client: orca)])
        #expect(burst.last == ssipPlay(3, "New", client: orca))
        #expect(burst.stopped.isEmpty)
        // The client hears the cut ones cancelled, as it would had they been cut playing...
        let data = "230 OK RECEIVING DATA\r\n"
        #expect(
            burst.wire(to: orca)
                == data + "225-1\r\n225 OK MESSAGE QUEUED\r\n" + data + "225-2\r\n225 OK MESSAGE QUEUED\r\n703-1\r\n703-\(orca.rawValue)\r\n703 CANCELED\r\n"
                + data + "225-3\r\n225 OK MESSAGE QUEUED\r\n")
        // (each 703 held until the client's next line, or the hold's end: ``SSIPEventHold``)
        #expect(h.passEventHold().wire(to: orca) == "703-2\r\n703-\(orca.rawValue)\r\n703 CANCELED\r\n")
        // ...and the log, which a replay of it checks against the same plan without batches.
        #expect(burst.appendedRows.map { "\($0.text): \($0.outcome)" } == ["N: interrupted", "Ne: interrupted"])
        // The one played begins and ends for its client like any other.
        #expect(h.feed(.speechBegan(UtteranceID(3))).wire(to: orca) == "701-3\r\n701-\(orca.rawValue)\r\n701 BEGIN\r\n")
        let ended = h.finishSpeaking()
        #expect(ended.wire(to: orca) == "702-3\r\n702-\(orca.rawValue)\r\n702 END\r\n")
        #expect(ended.appendedRows.map { "\($0.text): \($0.outcome)" } == ["New: spoken"])
    }

    @Test func aStopInALaterBatchStillStopsWhatWasHandedOut() {
        var h = Harness(policy: .none)
        let orca = h.ssipClient()
        let typed = h.batch { h in h.ssip(orca, "CHAR a") }
        #expect(typed.plays == [ssipPlay(1, "a", client: orca, echo: .key)])
        // The next keys come together: the player is told to stop the one it has, and given the last.
        let more = h.batch { h in
            h.ssip(orca, "CHAR b")
            h.ssip(orca, "CHAR c")
        }
        #expect(more.stopped == [UtteranceID(1)])
        #expect(more.plays == [ssipPlay(3, "c", client: orca, echo: .key)])
        #expect(more.last == ssipPlay(3, "c", client: orca, echo: .key))
        #expect(more.appendedRows.map { "\($0.text): \($0.outcome)" } == ["a: interrupted", "b: interrupted"])
        // And a cancel on its own (a batch of one) stops the one now playing.
        let cancel = h.ssip(orca, "CANCEL self")
        #expect(cancel.stopped == [UtteranceID(3)])
        #expect(cancel.plays.isEmpty)
    }

    @Test func focusRacingDownAListInOneBatchSpeaksOnlyWhereItLands() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        let first = h.request(user, .focus(tree: "player", element: "previous"))
        #expect(first.plays == [play(1, .focus, "Now Playing, Previous track, button", language: "en")])
        let moves = h.batch { h in
            for _ in 0..<3 { h.request(user, .move(.next, tree: nil)) }
        }
        // The focus speech handed out before is stopped; of the three moves only the last is heard.
        #expect(moves.stopped == [UtteranceID(1)])
        #expect(moves.plays == [play(4, .focus, "Next track, button", language: "en")])
        #expect(moves.last == play(4, .focus, "Next track, button", language: "en"))
        // Every move is still answered, with what it would have said.
        #expect(moves.replies(to: user).count == 3)
        #expect(h.playing?.utterance.id == UtteranceID(4))
    }

    @Test func speechStartedAndStoppedInOneBatchIsNeverHandedOut() {
        var h = Harness()
        let app = h.client()
        let effects = h.batch { h in
            h.request(app, .speak(text: "Hello"))
            h.request(app, .stop)
        }
        #expect(effects.plays.isEmpty)
        #expect(effects.stopped.isEmpty)
        #expect(effects.replies(to: app).map(\.id) == [1, 2])
        #expect(effects.appendedRows.map { "\($0.kind) \($0.text): \($0.outcome)" } == ["command stop: done", "speak Hello: cancelled"])
        #expect(h.playing == nil)
    }

    @Test func stoppingTheDaemonInTheBatchThatStartedSpeechHandsNothingOut() {
        var h = Harness()
        let app = h.client()
        let effects = h.batch { h in
            h.request(app, .speak(text: "Goodbye"))
            h.feed(.shutdown)
        }
        #expect(effects.plays.isEmpty)
        #expect(effects.stopped.isEmpty)
        #expect(effects.last == .shutDown)
    }
}
