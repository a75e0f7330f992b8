import NarratorBase
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// The typed protocol on both sides: what the daemon encodes, narratorctl (or any Swift client)
/// decodes to the same value, and requests likewise; the JSON is what docs/protocol.md shows.
@Suite struct ProtocolTests {
    static let commands: [RequestCommand] = [
        .hello(client: "narratorctl"), .hello(client: nil),
        .register(document: try! RawJSON(#"{"tree": "t", "root": {"id": "r"}}"#), ephemeral: true),
        .update(tree: "t", update: .setProperties(element: "a", properties: ["value": "4"]), announce: true, notify: .layoutChanged(element: "b")),
        .update(tree: "t", update: .replaceChildren(element: "a", children: [["id": "c"]]), announce: false, notify: .screenChanged(element: nil)),
        .update(tree: "t", update: .remove(element: "a"), announce: false, notify: nil),
        .unregister(tree: "t"), .trees, .show(tree: "t"), .export(tree: "t"), .focus(tree: "t", element: "a"), .focus(tree: "t", element: nil),
        .move(.next, tree: nil), .move(.previous, tree: "t"), .move(.first, tree: nil), .move(.last, tree: "t"), .touch(x: 1.5, y: -2, tree: "t"),
        .activate, .adjust(.up), .adjust(.down), .actions, .action(name: "skip"), .magicTap, .escape, .rotors, .rotor(name: "headings", direction: .last), .rotor(name: "buttons", direction: .next, within: "doc"),
        .cell(.left), .cell(.down),
        .announce(text: "Hi", priority: .high, tree: "t", element: "a", key: "k"), .announce(text: "Hi", priority: .default, tree: nil, element: nil, key: nil),
        .speak(text: "Hello\nthere"), .stop, .status, .set(key: "rate", value: 200), .set(key: "voice", value: "auto"), .get(key: "rate"), .voices(VoiceQuery()),
        .voices(VoiceQuery(language: "de", name: "grand", variants: true, offset: 2, limit: 5)), .subscribe,
    ]

    @Test func everyCommandIsNamedOnceAndEncodesToALineThatDecodesBack() throws {
        #expect(Set(Self.commands.map(\.name)) == Set(CommandName.allCases), "the sample covers every command")
        for (index, command) in Self.commands.enumerated() {
            let request = Request(id: .number(Double(index)), command: command)
            #expect(!request.line.contains("\n"))
            #expect(try RequestDecoder().decode(request.line).get() == request, "\(request.line)")
        }
    }

    @Test func aDocumentWrittenForPeopleIsSentOnOneLine() throws {
        let document = try RawJSON("{\n  \"tree\": \"t\",\n  \"root\": {\"id\": \"r\"}\n}")
        let request = Request(id: 1, command: .register(document: document, ephemeral: false))
        #expect(request.line == #"{"id":1,"cmd":"register","document":{"tree":"t","root":{"id":"r"}}}"#)
    }

    static let focus = Focus(tree: "player", element: "rating")
    static let replies: [(CommandName, ReplyBody)] = [
        (.hello, .hello(protocol: 1, daemon: "0.1.0", client: ClientID(rawValue: 7))),
        (.register, .registered(RegisterReport(tree: "player", stops: 6, nodes: 15, replaced: false))),
        (.update, .updated(UpdateReport(tree: "t", element: "a"))),
        (.update, .updated(UpdateReport(tree: "t", element: "a", spokenValue: "4"))),
        (.update, .updated(UpdateReport(tree: "t", element: "a", focus: FocusReport(utterance: "B, button", hint: nil, focus: Focus(tree: "t", element: "b"), boundary: false)))),
        (.unregister, .unregistered(tree: "t")),
        (.trees, .trees([TreeSummary(tree: "player", title: "Now Playing", language: "en", nodes: 15, stops: 6, owner: .init(pid: 42, name: "app"), ephemeral: false, focused: true)])),
        (.show, .stops(tree: "t", [StopSummary(id: "a", utterance: Utterance(text: "A", hint: "Hint"), frame: Rect(x: 1, y: 2, width: 3, height: 4))])),
        (.export, .exported(tree: "t", document: ["tree": "t", "root": ["id": "r"]])),
        (.next, .focus(FocusReport(utterance: "rating, 3, adjustable", hint: "Swipe", focus: focus, boundary: true))),
        (.activate, .delivered(Delivery(action: "activate", element: "play", focus: focus))),
        (.adjust, .delivered(Delivery(action: "increment", element: "vol", focus: nil))),
        (.adjust, .adjusted(AdjustReport(utterance: "4", focus: focus, value: 4, boundary: false))),
        (.actions, .actions(["skip", "repeat"])),
        (.rotor, .rotors([RotorSummary(name: "headings", kind: .headings, items: ["title"])])),
        (.rotor, .selectedAction(action: "skip", focus: focus)),
        (.rotor, .focus(FocusReport(utterance: "Now Playing, heading", hint: nil, focus: focus, boundary: false))),
        (.cell, .focus(FocusReport(utterance: "End of row", hint: nil, focus: focus, boundary: true))),
        (
            .announce,
            .announced(
                AnnounceReport(
                    announcement: AnnouncementID(9), decision: "deduplicated", priority: .low, key: "3 new messages", policy: "default",
                    duplicateOf: AnnouncementID(8), logged: false, logProblem: LogProblem(reason: "locked", message: "database is locked")))
        ),
        (.speak, .spoke(text: "Hello", utterance: UtteranceID(12))),
        (.stop, .stopped),
        (
            .status,
            .status(
                StatusReport(
                    version: "0.1.0", pid: 4242, uptime: 12.5, socket: nil, clients: 2, trees: 1, focus: focus,
                    audio: OutputStatus(spec: .pulse, active: "null", fallback: true, detail: "stalled", stalled: true), voice: "English", speaking: true,
                    queue: 2, announcements: .init(policy: "default", waiting: 1, treePolicies: [("chat", "strict")], deferred: 3),
                    log: LogHealth(path: "/x.db", isOpen: false, rowsWritten: 5, rowsFailed: 2, pending: 1, reopenings: 1, problem: LogProblem(reason: "readonly", message: "read-only"), commitLatencyP50: 0.5, commitLatencyP99: 1)))
        ),
        (.set, .setting(key: "rate", value: "200")),
        (.voices, .voices(VoiceListing(entries: [ListedVoice(name: "German", identifier: "gmw/de", languages: ["de"], gender: .female)], total: 1, offset: 0, variantCount: 0))),
        (.voices, .voices(VoiceListing(
            entries: [ListedVoice(name: "German+grandma", identifier: "gmw/de+grandma", languages: ["de"], gender: .female, variant: "grandma")],
            total: 102, offset: 7, variantCount: 101))),
        (.subscribe, .subscribed),
    ]

    @Test func everyReplyDecodesToWhatWasEncoded() throws {
        for (command, body) in Self.replies {
            let reply = Reply(id: "a", .success(body))
            #expect(try Reply(json: reply.json, answering: command) == reply, "\(reply.json.compactText)")
        }
        let failure = Reply(id: 3, .failure(ReplyError(.invalidDocument, "bad", problems: [DocumentProblem(path: "root.id", message: "missing")])))
        #expect(try Reply(json: failure.json, answering: .register) == failure)
    }

    @Test func repliesAreTheJSONTheDocsShow() {
        let reply = Reply(id: 7, .success(.focus(FocusReport(utterance: "Now Playing, rating, 3, adjustable", hint: nil, focus: Self.focus, boundary: false))))
        #expect(
            ServerMessage.reply(reply).line
                == #"{"id":7,"ok":true,"utterance":"Now Playing, rating, 3, adjustable","hint":null,"focus":{"tree":"player","element":"rating"},"boundary":false}"#)
        let error = Reply(id: 7, .failure(ReplyError(.unknownElement, #"tree "player" has no element "ratng"; did you mean "rating"?"#)))
        #expect(
            ServerMessage.reply(error).line
                == #"{"id":7,"ok":false,"error":{"code":"unknown_element","message":"tree \"player\" has no element \"ratng\"; did you mean \"rating\"?"}}"#)
        #expect(ServerMessage.reply(Reply(id: nil, .success(.stopped))).line == #"{"id":null,"ok":true}"#)
    }

    @Test func eventsDecodeToWhatWasEncoded() throws {
        let events: [Event] = [
            .action(OwnerAction(tree: "player", element: "play", action: "activate", point: Point(x: 195, y: 610))),
            .action(OwnerAction(tree: "player", element: "root", action: "magicTap")),
            .value(ValueChange(tree: "player", element: "rating", value: 4, spoken: "4")),
            .speech(SpeechNotice(utterance: UtteranceID(12), kind: .focus, phase: .started, at: MonotonicInstant(nanoseconds: 8_123_520_000_000), text: "rating, 3, adjustable", tree: "player", element: "rating")),
            .speech(SpeechNotice(utterance: UtteranceID(12), kind: .announcement(.high), phase: .interrupted(by: UtteranceID(13)), at: MonotonicInstant(nanoseconds: 1_000), text: "x", tree: nil, element: nil)),
            .speech(SpeechNotice(utterance: UtteranceID(14), kind: .hint, phase: .dropped(.focusMoved), at: MonotonicInstant(nanoseconds: 2_000), text: "h", tree: "t", element: "e")),
        ]
        for event in events {
            let line = ServerMessage.event(event).line
            #expect(try ServerMessage(line: line, answering: .subscribe) == .event(event), "\(line)")
        }
        #expect(
            ServerMessage.event(events[0]).line == #"{"event":"action","tree":"player","element":"play","action":"activate","point":[195,610]}"#)
    }

    @Test func badNumbersFromTheDaemonAreDecodingErrorsNotCrashes() {
        #expect(throws: ProtocolError.self) { try ServerMessage(line: #"{"id":1,"ok":true,"utterance":"x","speech":-1}"#, answering: .speak) }
        #expect(throws: ProtocolError.self) { try ServerMessage(line: #"{"id":1,"ok":true,"protocol":1,"daemon":"x","client":1e300}"#, answering: .hello) }
        #expect(throws: ProtocolError.self) {
            try ServerMessage(line: #"{"event":"speech","phase":"started","kind":"focus","utterance":1,"at":-5}"#, answering: .subscribe)
        }
        #expect(throws: ProtocolError.self) {
            try ServerMessage(line: #"{"event":"speech","phase":"started","kind":"focus","utterance":1,"at":1e300}"#, answering: .subscribe)
        }
    }

    @Test func undecodableLinesAreAnsweredWithTheirIdAndTheConnectionGoesOn() {
        var h = Harness()
        let client = h.client()
        let bad = h.request(client, #"{"id": 3, "cmd": "fcous"}"#)
        #expect(bad == [.send(client, .reply(Reply(id: 3, .failure(ReplyError(.unknownCommand, #"unknown command "fcous"; did you mean "focus"?"#)))))])
        #expect(h.feed(.rejectedLine(client, .tooLong(limit: 1024))).error(to: client) == ReplyError(.messageTooLong, "request longer than 1024 bytes; it was discarded"))
        #expect(h.feed(.rejectedLine(client, .invalidUTF8)).error(to: client)?.code == .invalidUTF8)
        #expect(h.request(client, #"{"id": 4, "cmd": "trees"}"#).body(to: client) == .trees([]))
    }

    @Test func everyNarratorErrorAndProtocolErrorHasACode() {
        for code in ["malformed_json", "not_an_object", "unknown_command", "missing_field", "invalid_field", "unknown_field"] {
            #expect(ErrorCode(rawValue: code) != nil)
        }
        let errors: [NarratorError] = [
            .unknownTree("t", suggestion: nil), .unknownElement(tree: "t", element: "e", suggestion: nil), .hiddenElement(tree: "t", element: "e"),
            .outsideModal(tree: "t", element: "e", modal: "m"), .notFocusable(tree: "t", element: "e"), .emptyTree("t"), .noFocus,
            .notAdjustable(tree: "t", element: "e"), .noActions(tree: "t", element: "e"), .unknownAction("a", tree: "t", element: "e", available: []),
            .noHandler(action: "escape", tree: "t", element: "e"), .unknownRotor("r", available: []), .noTarget(x: 0, y: 0, tree: "t"),
            .cannotRemoveRoot(tree: "t"), .invalidDocument(.invalid([])),
        ]
        for error in errors { #expect(ReplyError(error).code == error.code) }
    }
}
