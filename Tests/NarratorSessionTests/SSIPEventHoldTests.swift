import NarratorBase
import NarratorSSIP
import Testing

/// python3-speechd registers a message's callback only after reading its `225`, on another thread
/// than the one that reads events: events sent with the `225` reach no callback. The session holds
/// a connection's events until its next line or the end of ``SSIPEventHold/grace``.
@Suite struct SSIPEventHoldTests {
    @Test func eventsRightAfterTheNumberWaitForTheClientsNextLine() throws {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        h.ssip(spd, "SET SELF NOTIFICATION ALL on")
        #expect(h.speak(spd, "Hello").wire(to: spd) == "230 OK RECEIVING DATA\r\n225-1\r\n225 OK MESSAGE QUEUED\r\n")
        let utterance = try #require(h.playingID)
        h.advance(by: .milliseconds(1))
        // The audio began at once, but the client may not have its callback yet.
        #expect(h.feed(.speechBegan(utterance)).wire(to: spd) == "")
        #expect(h.timer == Harness.start + SSIPEventHold.grace)
        // Its next line shows it returned from speak(): the event goes first, then the reply.
        #expect(h.ssip(spd, "GET RATE").wire(to: spd) == "701-1\r\n701-\(spd.rawValue)\r\n701 BEGIN\r\n251-0\r\n251 OK GET RETURNED\r\n")
        // Nothing is held any more: the end goes at once.
        #expect(h.finishSpeaking().wire(to: spd) == "702-1\r\n702-\(spd.rawValue)\r\n702 END\r\n")
    }

    @Test func aClientThatSendsNothingGetsItsEventsInOrderWhenTheGraceEnds() throws {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        h.ssip(spd, "SET SELF NOTIFICATION ALL on")
        h.speak(spd, "Hi")
        let utterance = try #require(h.playingID)
        h.feed(.speechBegan(utterance))
        #expect(h.finishSpeaking().wire(to: spd) == "")
        h.advance(by: SSIPEventHold.grace - .milliseconds(1))
        #expect(h.timer != nil && h.timer! > h.now)
        #expect(h.fireTimer().wire(to: spd) == "701-1\r\n701-\(spd.rawValue)\r\n701 BEGIN\r\n702-1\r\n702-\(spd.rawValue)\r\n702 END\r\n")
        #expect(h.timer == nil)
    }

    @Test func oneClientsHoldDelaysNoOtherClientsEvents() throws {
        var h = Harness(policy: .none)
        let reader = h.ssipClient()
        let other = h.ssipClient(pid: 301)
        h.ssip(reader, "SET SELF NOTIFICATION ALL on", "SET SELF PRIORITY message")
        h.ssip(other, "SET SELF NOTIFICATION ALL on", "SET SELF PRIORITY message")
        h.speak(reader, "first")
        let first = try #require(h.playingID)
        h.passEventHold()
        // The reader's message began long after its 225: at once.
        #expect(h.feed(.speechBegan(first)).wire(to: reader) == "701-1\r\n701-\(reader.rawValue)\r\n701 BEGIN\r\n")
        // The other client has just been given a number: its own events wait, the reader's do not.
        h.speak(other, "second")
        let ended = h.finishSpeaking()
        #expect(ended.wire(to: reader) == "702-1\r\n702-\(reader.rawValue)\r\n702 END\r\n")
        let second = try #require(h.playingID)
        #expect(h.feed(.speechBegan(second)).wire(to: other) == "")
        #expect(h.passEventHold().wire(to: other) == "701-2\r\n701-\(other.rawValue)\r\n701 BEGIN\r\n")
    }

    @Test func aClientThatLeavesTakesItsHeldEventsAndItsTimerWithIt() throws {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        h.ssip(spd, "SET SELF NOTIFICATION ALL on")
        h.speak(spd, "Bye")
        h.feed(.speechBegan(try #require(h.playingID)))
        #expect(h.timer != nil)
        let gone = h.feed(.disconnected(spd))
        #expect(gone.wire(to: spd) == "" && gone.contains(.cancelTimer))
    }

    @Test func stoppingSendsWhatIsHeldBeforeTheConnectionsClose() throws {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        h.ssip(spd, "SET SELF NOTIFICATION ALL on")
        h.speak(spd, "Stop me")
        h.feed(.speechBegan(try #require(h.playingID)))
        let stopping = h.feed(.shutdown)
        #expect(stopping.wire(to: spd) == "701-1\r\n701-\(spd.rawValue)\r\n701 BEGIN\r\n703-1\r\n703-\(spd.rawValue)\r\n703 CANCELED\r\n")
    }
}
