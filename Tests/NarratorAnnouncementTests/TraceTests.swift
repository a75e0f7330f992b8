import NarratorBase
import NarratorExperiments
import NarratorModel
import NarratorSpeechPlan
import Testing

/// Traces as `narratorctl log --trace` writes them and `replay` reads them, and the simulation
/// replaying what shared the voice live: SSIP messages through the gate, cancels, shutdowns.
@Suite struct TraceTests {
    func event(_ line: String) throws -> TraceEvent {
        try #require(try AnnouncementTrace.parse(line).first)
    }

    @Test func everyKindReadsBackFromItsLine() throws {
        let events = [
            TraceEvent(at: .milliseconds(250), kind: .announce(text: "3 new", priority: .low, key: "unread"), tree: "chat", element: "badge",
                       client: "mail", connection: 4, duration: .milliseconds(900), logged: .spoken, policy: "strict"),
            TraceEvent(at: .seconds(1), kind: .focus(text: "Send, button"), tree: "chat", element: "send", duration: .seconds(1), logged: .interrupted),
            TraceEvent(at: .seconds(1), kind: .speech(text: "Sends the message", kind: .hint), tree: "chat", element: "send", logged: .cancelled),
            TraceEvent(at: .seconds(2), kind: .ssip(text: "a", priority: .text, command: .key), client: "user:orca:default", connection: 7,
                       duration: .milliseconds(120), logged: .spoken, policy: "default"),
            TraceEvent(at: .seconds(3), kind: .ssipCancel(all: false), client: "user:orca:default", connection: 7),
            TraceEvent(at: .seconds(3), kind: .ssipStop(all: true), connection: 8),
            TraceEvent(at: .seconds(4), kind: .stop),
            TraceEvent(at: .seconds(5), kind: .shutdown),
        ]
        let text = events.map(AnnouncementTrace.line).joined(separator: "\n")
        #expect(try AnnouncementTrace.parse(text) == events)
        // An announcement's default key is implied, not written.
        let plain = AnnouncementTrace.line(TraceEvent(at: .zero, kind: .announce(text: "Saved", priority: .default, key: "saved")))
        #expect(plain == #"{"at":0,"kind":"announce","text":"Saved","priority":"default"}"#)
    }

    @Test func badLinesSayWhatAndWhere() {
        func reason(_ text: String) -> String? {
            do { _ = try AnnouncementTrace.parse(text); return nil } catch { return error.description }
        }
        #expect(reason(#"{"at": 0, "kind": "ssip", "text": "x", "priority": "urgent"}"#)?.hasPrefix("line 1: \"priority\" of an ssip event must be") == true)
        #expect(reason("\n" + #"{"at": 0, "kind": "ssip", "text": "x", "command": "SAY"}"#)?.hasPrefix("line 2: \"command\"") == true)
        #expect(reason(#"{"at": 0, "kind": "ssip-cancel", "scope": "everyone"}"#) == "line 1: \"scope\" must be self or all, not \"everyone\"")
        #expect(reason(#"{"at": 0, "kind": "focus", "tree": "t", "outcome": "spoke"}"#)?.contains("did you mean \"spoken\"") == true)
        #expect(reason(#"{"at": 0, "kind": "focus", "tree": "t", "duration": -1}"#) == "line 1: \"duration\" must be a number of seconds, at least 0")
        #expect(reason(#"{"at": 0, "kind": "focus", "tree": "t", "connection": 1.5}"#) == "line 1: \"connection\" must be a whole number, at least 0")
        #expect(reason(#"{"at": 0, "kind": "annonce", "text": "x"}"#)?.contains("did you mean \"announce\"") == true)
        // The meta line a trace starts with is skipped, whatever it holds.
        #expect(reason(#"{"kind": "meta", "source": "narratorctl log --trace", "anything": 1}"#) == nil)
    }

    /// A flood from one SSIP connection: the gate judges it as narratord's session does.
    @Test func ssipFloodIsJudgedPerConnection() {
        var simulation = AnnouncementSimulation(policy: .default) { _ in .seconds(2) }
        var trace: [TraceEvent] = []
        for i in 0..<8 {
            trace.append(TraceEvent(at: .milliseconds(Int64(100 * i)), kind: .ssip(text: "line \(i)", priority: .message, command: .speak), client: "user:chat:main", connection: 1))
        }
        // A second connection's first message is not piling up: never judged.
        trace.append(TraceEvent(at: .milliseconds(850), kind: .ssip(text: "line 1", priority: .message, command: .speak), client: "user:chat:main", connection: 2))
        // A repeat of one still waiting, from the flooding connection: deduplicated.
        trace.append(TraceEvent(at: .milliseconds(900), kind: .ssip(text: "LINE 3", priority: .message, command: .speak), client: "user:chat:main", connection: 1))
        simulation.run(trace)
        // Message 0 piles on nothing; 1, 2, 3 take the bucket's three tokens; 4 to 7 find it empty
        // (the connection never cancelled its own speech: it is not a screen reader).
        #expect((0..<8).map { simulation.outcomes[$0] } == [.spoken, .spoken, .spoken, .spoken, .throttled, .throttled, .throttled, .throttled])
        #expect(simulation.outcomes[8] == .spoken)
        #expect(simulation.outcomes[9] == .deduplicated)
    }

    @Test func aCancelMakesItsConnectionAScreenReaderAndSilencesItOnly() {
        var simulation = AnnouncementSimulation(policy: .default) { _ in .seconds(5) }
        let orca = "user:orca:default"
        var trace = (0..<4).map { i in
            TraceEvent(at: .milliseconds(Int64(10 * i)), kind: .ssip(text: "item \(i)", priority: .message, command: .speak), client: orca, connection: 3)
        }
        trace.append(TraceEvent(at: .milliseconds(60), kind: .ssip(text: "other", priority: .message, command: .speak), client: "user:other:x", connection: 4))
        trace.append(TraceEvent(at: .milliseconds(100), kind: .ssipCancel(all: false), client: orca, connection: 3))
        trace.append(TraceEvent(at: .milliseconds(110), kind: .ssip(text: "tab", priority: .text, command: .key), client: orca, connection: 3))
        trace.append(TraceEvent(at: .milliseconds(120), kind: .ssip(text: "Send, button", priority: .message, command: .speak), client: orca, connection: 3))
        trace.append(TraceEvent(at: .milliseconds(130), kind: .ssip(text: "Bold, toggle", priority: .message, command: .speak), client: orca, connection: 3))
        // A page's worth more, repeats among them, at once.
        for i in 0..<8 {
            trace.append(TraceEvent(at: .milliseconds(Int64(140 + i)), kind: .ssip(text: i % 2 == 0 ? "link" : "Page \(i)", priority: .message, command: .speak), client: orca, connection: 3))
        }
        simulation.run(trace)
        // Orca's own messages end: the one playing and those waiting.
        #expect((0...3).map { simulation.outcomes[$0] } == [.cancelled, .cancelled, .cancelled, .cancelled])
        #expect(simulation.speech.first { $0.text == "item 0" }?.startedAt != nil)
        // The other client's message was waiting behind Orca's, and is spoken.
        #expect(simulation.outcomes[4] == .spoken)
        // A KEY is never judged, and after its own cancel nothing the connection says is: the
        // bucket items 1 to 3 emptied and the repeated "link" change nothing, all are spoken.
        #expect((6..<17).map { simulation.outcomes[$0] } == Array(repeating: .spoken, count: 11))
    }

    @Test func aShutdownEndsEverythingAndTheNextRunStartsAfresh() {
        var simulation = AnnouncementSimulation(policy: .default) { _ in .seconds(3) }
        simulation.run([
            TraceEvent(at: .zero, kind: .announce(text: "Saved", priority: .default, key: nil)),
            TraceEvent(at: .milliseconds(100), kind: .announce(text: "Uploaded", priority: .default, key: nil)),
            TraceEvent(at: .seconds(1), kind: .shutdown),
            // The same text again, long before the dedup window after "Saved" would end: a new
            // daemon has no memory of it.
            TraceEvent(at: .milliseconds(1100), kind: .announce(text: "Saved", priority: .default, key: nil)),
        ])
        #expect(simulation.outcomes[0] == .cancelled)
        #expect(simulation.outcomes[1] == .cancelled)
        #expect(simulation.outcomes[3] == .spoken)
    }

    /// An utterance lasts as long as it played live when it was spoken whole; when it was cut, at
    /// least that long, so a replay under the same policy cuts it at the same instant.
    @Test func recordedLengthsWin() {
        var simulation = AnnouncementSimulation(policy: .none) { _ in .seconds(10) }
        simulation.run([
            TraceEvent(at: .zero, kind: .focus(text: "Inbox, list"), tree: "mail", duration: .milliseconds(700), logged: .spoken),
            TraceEvent(at: .milliseconds(800), kind: .focus(text: "Outbox, list"), tree: "mail", duration: .milliseconds(300), logged: .interrupted),
            TraceEvent(at: .seconds(1), kind: .focus(text: "Drafts, list"), tree: "mail", duration: .milliseconds(500), logged: .spoken),
        ])
        #expect(simulation.speech.map(\.outcome) == [.spoken, .interrupted, .spoken])
        #expect(simulation.speech.map { ($0.endedAt - $0.startedAt!) } == [.milliseconds(700), .milliseconds(200), .milliseconds(500)])
    }

    @Test func logRowsBecomeATraceInTheOrderTheyWereAsked() throws {
        let orca = "user:orca:default"
        let rows = [
            // Rows are written as lives end: the hint's row may come before its focus's.
            LogRow(utterance: 2, kind: .hint, text: "Double-tap to play", tree: "player", element: "play", queuedAt: 100.5, startedAt: 101.5,
                   endedAt: 102, outcome: .ended(.spoken)),
            LogRow(utterance: 1, kind: .focus, text: "Play, button", tree: "player", element: "play", queuedAt: 100.5, startedAt: 100.5,
                   endedAt: 101, outcome: .ended(.spoken)),
            LogRow(kind: .command, text: "CANCEL self", policy: "default", clientName: orca, queuedAt: 100, endedAt: 100, outcome: .done,
                   connection: 3, command: "CANCEL self"),
            LogRow(kind: .ssip, text: "Play", priority: "message", dedupKey: "play", policy: "default", clientName: orca, queuedAt: 100.25,
                   startedAt: 100.25, endedAt: 100.5, outcome: .ended(.interrupted), interruptedBy: .speech(.focus), connection: 3, command: "SPEAK"),
            LogRow(kind: .command, text: "CANCEL 9", clientName: orca, queuedAt: 103, endedAt: 103, outcome: .done, connection: 3, command: "CANCEL 9"),
            LogRow(announcement: 4, kind: .announcement, text: "Now playing", priority: "default", tree: "player", dedupKey: "now playing",
                   policy: "default", queuedAt: 104, outcome: .queued),
            LogRow(kind: .command, text: "PAUSE self", queuedAt: 105, endedAt: 105, outcome: .done, command: "PAUSE self"),
            LogRow(kind: .command, text: "shutdown", queuedAt: 106, endedAt: 106, outcome: .done, command: "shutdown"),
        ]
        let trace = LogTrace(rows: rows)
        #expect(trace.origin == 100)
        #expect(trace.events == [
            TraceEvent(at: .zero, kind: .ssipCancel(all: false), client: orca, connection: 3),
            TraceEvent(at: .milliseconds(250), kind: .ssip(text: "Play", priority: .message, command: .speak), client: orca, connection: 3,
                       duration: .milliseconds(250), logged: .interrupted, policy: "default"),
            TraceEvent(at: .milliseconds(500), kind: .focus(text: "Play, button"), tree: "player", element: "play", duration: .milliseconds(500), logged: .spoken),
            TraceEvent(at: .milliseconds(500), kind: .speech(text: "Double-tap to play", kind: .hint), tree: "player", element: "play",
                       duration: .milliseconds(500), logged: .spoken),
            TraceEvent(at: .seconds(3), kind: .ssipCancel(all: false), client: orca, connection: 9),
            TraceEvent(at: .seconds(4), kind: .announce(text: "Now playing", priority: .default, key: nil), tree: "player", policy: "default"),
            TraceEvent(at: .seconds(6), kind: .shutdown),
        ])
        #expect(trace.notCarried.map(\.what) == ["announcements still waiting (no outcome to check)", "commands that are not CANCEL, STOP, stop or shutdown"])
        // The text starts with a meta line saying where it came from and what it left out, and reads back.
        let text = trace.text(source: "test")
        let meta = try JSONParser().parse(String(text.split(separator: "\n")[0]))
        #expect(meta["kind"] == "meta" && meta["origin"] == 100 && meta["notCarried"]?["commands that are not CANCEL, STOP, stop or shutdown"] == 1)
        #expect(try AnnouncementTrace.parse(text) == trace.events)
    }

    /// Among rows of one instant, the focus and its hint swap into utterance order around an
    /// announcement that keeps its place.
    @Test func oneInstantKeepsAnnouncementsInPlaceAndSpeechInUtteranceOrder() {
        let rows = [
            LogRow(utterance: 2, kind: .hint, text: "h", tree: "t", queuedAt: 5, outcome: .ended(.spoken)),
            LogRow(announcement: 1, kind: .announcement, text: "a", priority: "default", queuedAt: 5, outcome: .ended(.spoken)),
            LogRow(utterance: 1, kind: .focus, text: "f", tree: "t", queuedAt: 5, outcome: .ended(.spoken)),
            LogRow(utterance: 0, kind: .focus, text: "earlier", tree: "t", queuedAt: 4, outcome: .ended(.spoken)),
        ]
        #expect(LogTrace(rows: rows).events.compactMap(\.text) == ["earlier", "f", "a", "h"])
    }

    @Test func checkFindsThePoliciesTheRowsName() throws {
        let events = [
            TraceEvent(at: .zero, kind: .announce(text: "a", priority: .default, key: nil), tree: "chat", logged: .spoken, policy: "chatty"),
            TraceEvent(at: .zero, kind: .announce(text: "b", priority: .default, key: nil), tree: "mail", logged: .spoken, policy: "strict"),
            TraceEvent(at: .zero, kind: .ssip(text: "c", priority: .text, command: .speak), logged: .spoken, policy: "strict"),
        ]
        #expect(ReplayCheck.policies(of: events) == ReplayCheck.Policies(daemon: "strict", trees: ["chat": "chatty"]))
        #expect(ReplayCheck.policies(of: []) == ReplayCheck.Policies(daemon: "default", trees: [:]))
        // A check reports every event replayed otherwise than logged.
        let wrong = [
            (line: 1, event: TraceEvent(at: .zero, kind: .announce(text: "Saved", priority: .default, key: nil), duration: .seconds(1), logged: .spoken, policy: "default")),
            (line: 2, event: TraceEvent(at: .milliseconds(10), kind: .announce(text: "Saved", priority: .default, key: nil), logged: .spoken, policy: "default")),
        ]
        let check = try ReplayCheck(wrong, policies: ["default": .default]) { _ in .seconds(1) }
        #expect(check.compared == 2)
        #expect(check.mismatches.map(\.line) == [2] && check.mismatches.first?.replayed == .deduplicated)
        #expect(throws: AnnouncementPolicyError.self) { try ReplayCheck(wrong, policies: [:]) { _ in .seconds(1) } }
    }
}
