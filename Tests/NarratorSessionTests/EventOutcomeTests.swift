import NarratorBase
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// Final speech events carry the outcome word of the log (`outcome`), an additive field.
@Suite struct EventOutcomeTests {
    func notice(_ phase: SpeechEvent.Phase) -> Event {
        .speech(SpeechNotice(utterance: UtteranceID(7), kind: .hint, phase: phase, at: MonotonicInstant(nanoseconds: 0), text: "h", tree: "t", element: "e"))
    }

    @Test func finalPhasesCarryTheLogsWord() throws {
        let expected: [(SpeechEvent.Phase, JSONValue?)] = [
            (.queued, nil), (.started, nil), (.finished, "spoken"), (.interrupted(by: UtteranceID(8)), "interrupted"),
            (.interrupted(by: nil), "cancelled"), (.dropped(.focusMoved), "cancelled"),
        ]
        for (phase, outcome) in expected {
            let event = notice(phase)
            #expect(event.json["outcome"] == outcome, "\(phase)")
            #expect(try ServerMessage(line: ServerMessage.event(event).line, answering: .subscribe) == .event(event))
        }
    }

    @Test func speechNobodyHeardSaysSoAndOnlyAFinishedOneCan() throws {
        guard case .speech(var notice) = notice(.finished) else { return }
        notice.inaudible = true
        let event = Event.speech(notice)
        #expect(event.json["outcome"] == "inaudible")
        #expect(try ServerMessage(line: ServerMessage.event(event).line, answering: .subscribe) == .event(event))
        let interrupted = #"{"event":"speech","phase":"interrupted","kind":"hint","utterance":3,"at":1,"outcome":"inaudible"}"#
        #expect(throws: ProtocolError.self) { try ServerMessage(line: interrupted, answering: .subscribe) }
    }

    @Test func anEventWithoutOutcomeStillDecodesAndAContradictionIsRefused() throws {
        let old = #"{"event":"speech","phase":"dropped","kind":"hint","utterance":3,"at":1,"reason":"focusMoved"}"#
        #expect(try ServerMessage(line: old, answering: .subscribe) == .event(notice(.dropped(.focusMoved)).withUtterance(3, at: 1)))
        let wrong = #"{"event":"speech","phase":"finished","kind":"hint","utterance":3,"at":1,"outcome":"cancelled"}"#
        #expect(throws: ProtocolError.self) { try ServerMessage(line: wrong, answering: .subscribe) }
    }
}

extension Event {
    fileprivate func withUtterance(_ id: UInt64, at seconds: UInt64) -> Event {
        guard case .speech(var notice) = self else { return self }
        notice.utterance = UtteranceID(id)
        notice.at = MonotonicInstant(nanoseconds: seconds * 1_000_000_000)
        notice.text = nil
        notice.tree = nil
        notice.element = nil
        return .speech(notice)
    }
}
