import NarratorBase
import NarratorCore
import NarratorSpeechPlan
import Testing

/// The log says what the listener heard: speech that went to null because the sound server was
/// gone is `inaudible`, a message PAUSE cut is `interrupted`, and pipe-mode lines lose their newline.
@Suite struct LogTruthTests {
    static let gone = OutputStatus(spec: .pulse, active: "null", fallback: true, detail: "could not open the audio stream: Connection refused (code -1)")
    static let stalled = OutputStatus(spec: .pulse, active: "null", fallback: false, detail: "the sound server stopped taking audio", stalled: true)
    static let back = OutputStatus(spec: .pulse, active: "pulse", fallback: false)

    @Test func speechPlayedWithNoSoundServerIsInaudibleAndSpokenAgainOnceItIsBack() {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        h.feed(.outputChanged(Self.gone))
        h.speak(spd, "Nobody hears this")
        #expect(h.finishSpeaking().appendedRows.map(\.outcome) == [.ended(.inaudible)])
        h.feed(.outputChanged(Self.back))
        h.speak(spd, "Heard again")
        #expect(h.finishSpeaking().appendedRows.map(\.outcome) == [.ended(.spoken)])
    }

    @Test func speechTheOutputGaveUpOnPartWayIsInaudible() {
        var h = Harness(policy: .none)
        let app = h.client()
        h.request(app, .speak(text: "A long paragraph"))
        // The sound server stops taking audio while it plays: the rest goes to null.
        h.feed(.outputChanged(Self.stalled))
        #expect(h.finishSpeaking().appendedRows.map(\.outcome) == [.ended(.inaudible)])
        // A server that comes back in the middle of the next one does not make the first heard.
        h.request(app, .speak(text: "Next"))
        #expect(h.finishSpeaking().appendedRows.map(\.outcome) == [.ended(.inaudible)])
    }

    @Test func anAnnouncementWithNoSoundServerIsInaudible() {
        var h = Harness(policy: .none)
        let app = h.client()
        h.feed(.outputChanged(Self.gone))
        #expect(h.request(app, .announce(text: "Saved", priority: .default, tree: nil, element: nil, key: nil)).played == ["Saved"])
        #expect(h.finishSpeaking().updatedRows.map(\.outcome) == [.ended(.inaudible)])
    }

    /// `narratorctl monitor` and `narratorctl log` use one word for the same utterance.
    @Test func theFinishedEventSaysInaudibleWhereTheLogDoes() throws {
        func outcomes(_ effects: [SessionEffect], to monitor: ClientID) -> [String] {
            effects.events(to: monitor).compactMap { event in
                if case .speech(let notice) = event, case .finished = notice.phase { notice.outcome?.rawValue } else { nil }
            }
        }
        var h = Harness(policy: .none)
        let monitor = h.client()
        h.request(monitor, .subscribe)
        let app = h.client()
        h.feed(.outputChanged(Self.gone))
        h.request(app, .speak(text: "Nobody hears this"))
        let unheard = h.finishSpeaking()
        #expect(unheard.appendedRows.map(\.outcome) == [.ended(.inaudible)])
        #expect(outcomes(unheard, to: monitor) == ["inaudible"])
        let line = try #require(unheard.events(to: monitor).last).json
        #expect(line["outcome"] == "inaudible")
        h.feed(.outputChanged(Self.back))
        h.request(app, .speak(text: "Heard again"))
        let heard = h.finishSpeaking()
        #expect(heard.appendedRows.map(\.outcome) == [.ended(.spoken)])
        #expect(outcomes(heard, to: monitor) == ["spoken"])
    }

    @Test func aMessagePauseCutIsInterruptedAndOneStillWaitingIsCancelled() throws {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        h.ssip(a, "SET SELF PRIORITY message")
        h.speak(a, "playing")
        h.feed(.speechBegan(try #require(h.playingID)))
        h.speak(a, "waiting")
        let paused = h.ssip(a, "PAUSE self")
        let rows = paused.appendedRows.map { "\($0.text): \($0.outcome) by \($0.interruptedBy?.rawValue ?? "-")" }
        #expect(rows.sorted() == ["playing: interrupted by pause", "waiting: cancelled by pause"])
    }

    @Test func pipeModeLinesAreLoggedWithoutTheirNewline() {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        // spd-say -e sends each line it reads with its newline (a bare LF is part of the data line).
        h.ssip(spd, "SPEAK", "first line\n", ".")
        #expect(h.finishSpeaking().appendedRows.map(\.text) == ["first line"])
        // Newlines inside a message stay.
        h.ssip(spd, "SPEAK", "one\ntwo\n\n", ".")
        #expect(h.finishSpeaking().appendedRows.map(\.text) == ["one\ntwo"])
    }
}
