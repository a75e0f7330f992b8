import NarratorBase
import NarratorEngines
import NarratorSSIP
import NarratorSpeechPlan
import Testing

/// The SSIP server on its own, with a speech plan the test carries out as the session would:
/// exact effects on a virtual clock.
@Suite struct SSIPServerTests {
    static let start = MonotonicInstant(nanoseconds: 5_000_000_000)
    static let spd = ClientID(rawValue: 7)

    /// A server with one connection of the daemon's user that asked for every event, and a plan.
    struct Rig {
        var server = SSIPServer(
            configuration: SSIPServer.Configuration(
                uid: 1000, messageBytes: 4096, policy: .none, engines: SpeechEngines(espeakVoices: []),
                catalog: VoiceCatalog(voices: [], variants: []), wallClockOffset: 0))
        var plan = SpeechPlan<SSIPMessage>(policy: .none)
        var now = SSIPServerTests.start

        init() {
            _ = server.connect(SSIPServerTests.spd, Credentials(pid: 300, uid: 1000))
            _ = take("SET SELF NOTIFICATION ALL on")
        }

        mutating func take(_ line: String) -> [SSIPServer.Effect] {
            server.take(line, from: SSIPServerTests.spd, plan: &plan, at: now, stopping: false, settings: SpeechSettings())
        }

        /// SPEAK with one line of text; the message it asks to be spoken is handed to the plan.
        mutating func speak(_ text: String) -> (effects: [SSIPServer.Effect], utterance: UtteranceID?) {
            let effects = take("SPEAK") + take(text) + take(".")
            var utterance: UtteranceID?
            for case .speak(let message, let priority, let echo) in effects {
                utterance = plan.say(message, .ssip(priority), language: nil, echo: echo, at: now).0
            }
            return (effects, utterance)
        }
    }

    @Test func aConnectionOfAnotherUserIsRefusedAndClosed() {
        var server = Rig().server
        let stranger = ClientID(rawValue: 9)
        let effects = server.connect(stranger, Credentials(pid: 42, uid: 1001))
        #expect(
            effects == [
                .journal(.warning, "refused SSIP client #9: uid 1001 (pid 42) is not the daemon's user (uid 1000)"),
                .send(stranger, .reply(SSIPReply(530, "ERR PERMISSION DENIED: narratord serves only its own user (uid 1000) and root"))),
                .close(stranger),
            ])
        #expect(!server.serves(stranger))
    }

    @Test func aMessageIsAcknowledgedAndAskedToBeSpokenAsTheClientsPriority() throws {
        var rig = Rig()
        #expect(rig.take("SET SELF PRIORITY important").wire == "202 OK PRIORITY SET\r\n")
        let (effects, utterance) = rig.speak("Hello")
        #expect(effects.wire == "230 OK RECEIVING DATA\r\n225-1\r\n225 OK MESSAGE QUEUED\r\n")
        let asked = effects.compactMap { if case .speak(let message, let priority, let echo) = $0 { (message.text, priority, echo) } else { nil } }
        #expect(asked.count == 1 && asked.first?.0 == "Hello" && asked.first?.1 == .important && asked.first?.2 == KeyEcho.none)
        #expect(rig.plan.message(try #require(utterance))?.text == "Hello")
    }

    @Test func eventsRightAfterTheNumberWaitUntilTheHoldsOneDeadline() throws {
        var rig = Rig()
        let utterance = try #require(rig.speak("Hi").utterance)
        rig.now = rig.now + .milliseconds(1)
        // The audio began at once; the client may not have its callback yet.
        #expect(rig.server.began(utterance, plan: &rig.plan, at: rig.now) == [])
        let deadline = Self.start + SSIPEventHold.grace
        #expect(rig.server.nextDeadline == deadline)
        #expect(rig.server.releaseEvents(dueBy: MonotonicInstant(nanoseconds: deadline.nanoseconds - 1)) == [])
        #expect(rig.server.releaseEvents(dueBy: deadline) == [.send(Self.spd, .event(.begin(message: 1, client: 7)))])
        #expect(rig.server.nextDeadline == nil)
        // The hold is over: the next event goes at once.
        let mark = rig.server.reached(utterance, mark: "m1", plan: &rig.plan, at: deadline)
        #expect(mark == [.send(Self.spd, .event(.indexMark(message: 1, client: 7, mark: "m1")))])
    }

    @Test func aHoldWhoseGracePassedWithNothingInItArmsNoTimer() throws {
        var rig = Rig()
        let utterance = try #require(rig.speak("Late").utterance)
        #expect(rig.server.nextDeadline == nil)
        rig.now = Self.start + SSIPEventHold.grace
        #expect(rig.server.began(utterance, plan: &rig.plan, at: rig.now) == [.send(Self.spd, .event(.begin(message: 1, client: 7)))])
        #expect(rig.server.nextDeadline == nil)
    }

    @Test func theClientsNextLineSendsWhatIsHeldBeforeItsReply() throws {
        var rig = Rig()
        let utterance = try #require(rig.speak("Hi").utterance)
        _ = rig.server.began(utterance, plan: &rig.plan, at: rig.now)
        #expect(rig.take("GET RATE").wire == "701-1\r\n701-7\r\n701 BEGIN\r\n251-0\r\n251 OK GET RETURNED\r\n")
        #expect(rig.server.nextDeadline == nil)
    }

    @Test func cancelAsksTheSessionToEndTheClientsSpeechAndLogsTheCommand() {
        var rig = Rig()
        #expect(rig.take("CANCEL SELF") == [.command("CANCEL self", Self.spd), .cancel(Self.spd), .send(Self.spd, .reply(.canceled))])
        #expect(rig.take("STOP ALL") == [.command("STOP all", Self.spd), .stopAll, .send(Self.spd, .reply(.stopped))])
    }

    @Test func aPausedMessageIsHeldAndResumedFromWhereTheListenerWas() throws {
        var rig = Rig()
        let utterance = try #require(rig.speak("One. Two.").utterance)
        _ = rig.take("GET RATE")  // ends the hold: events go at once
        _ = rig.server.began(utterance, plan: &rig.plan, at: rig.now)
        rig.server.reached(utterance, offset: 5, plan: &rig.plan)
        #expect(rig.take("PAUSE SELF") == [.pause(Self.spd), .send(Self.spd, .reply(.paused))])
        // The session withdraws the client's speech as paused; the server holds what was cut.
        let step = rig.plan.cancel(.paused, at: rig.now) { $0.client == Self.spd }
        var events: [SSIPServer.Effect] = []
        for planned in step.notices {
            if let message = planned.message { events += rig.server.notice(planned.notice, message, at: rig.now) }
        }
        #expect(events == [.send(Self.spd, .event(.paused(message: 1, client: 7)))])
        let resumed = rig.take("RESUME SELF")
        #expect(resumed.first == .send(Self.spd, .reply(.resumed)))
        let texts = resumed.compactMap { if case .speak(let message, _, _) = $0 { message.text } else { nil } }
        #expect(texts == ["Two."])
    }

    @Test func aClientThatLeavesTakesItsHoldAndLogsWhatItHeldPausedAsCancelled() throws {
        var rig = Rig()
        _ = rig.take("PAUSE SELF")
        _ = rig.speak("Held")
        #expect(rig.plan.messages.isEmpty)
        let gone = rig.server.disconnect(Self.spd, at: rig.now)
        #expect(gone.count == 2)
        guard case .log(let row) = gone.first else {
            Issue.record("expected a log row, got \(gone)")
            return
        }
        #expect(row.text == "Held" && row.outcome == .ended(.cancelled) && row.interruptedBy == .disconnect && row.kind == .ssip)
        #expect(gone.last == .journal(.debug, "client #7 disconnected"))
        #expect(!rig.server.serves(Self.spd) && rig.server.nextDeadline == nil)
    }
}

extension Array where Element == SSIPServer.Effect {
    /// What the connection received, as the bytes on the wire.
    var wire: String {
        compactMap { if case .send(_, let output) = $0 { output.wire } else { nil } }.joined()
    }
}
