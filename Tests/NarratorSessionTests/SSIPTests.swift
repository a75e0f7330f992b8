import NarratorBase
import NarratorCore
import NarratorSSIP
import NarratorSpeechPlan
import Testing

extension Harness {
    /// A new SSIP connection of the daemon's user.
    mutating func ssipClient(pid: Int = 300) -> ClientID {
        let client = client(pid: pid)
        // The client above connected over JSON: reconnect the same id as SSIP for the test.
        feed(.disconnected(client))
        feed(.ssipConnected(client, Credentials(pid: pid, uid: Harness.daemonUID)))
        return client
    }

    /// Sends SSIP lines (without their CRLF) and returns the effects.
    @discardableResult
    mutating func ssip(_ client: ClientID, _ lines: String...) -> [SessionEffect] {
        lines.flatMap { feed(.ssipLine(client, $0)) }
    }

    /// Sends one message with SPEAK, returning the effects.
    @discardableResult
    mutating func speak(_ client: ClientID, _ text: String) -> [SessionEffect] {
        var lines = ["SPEAK"]
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        lines.append(".")
        return lines.flatMap { feed(.ssipLine(client, $0)) }
    }

    /// Lets the time SSIP events are held after a `225` pass (``SSIPEventHold``): what the timer released.
    @discardableResult
    mutating func passEventHold() -> [SessionEffect] {
        advance(by: SSIPEventHold.grace)
        return timer == nil ? [] : fireTimer()
    }

    /// The utterance playing now, by id.
    var playingID: UtteranceID? { playing?.utterance.id }
}

extension Array where Element == SessionEffect {
    /// What `client` received over SSIP, as the bytes on the wire.
    func wire(to client: ClientID) -> String {
        compactMap { if case .sendSSIP(client, let output) = $0 { output.wire } else { nil } }.joined()
    }
}

/// Speech Dispatcher's protocol through the session: replies byte for byte as its clients read
/// them, messages through the shared speech plan, events only to the connection that asked.
@Suite struct SSIPTests {
    @Test func aMessageIsQueuedSpokenAndItsEventsGoToItsClient() throws {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        #expect(h.ssip(spd, "SET SELF CLIENT_NAME \"root:spd-say:main\"").wire(to: spd) == "208 OK CLIENT NAME SET\r\n")
        #expect(h.ssip(spd, "SET SELF NOTIFICATION ALL on").wire(to: spd) == "220 OK NOTIFICATION SET\r\n")
        #expect(h.ssip(spd, "SPEAK").wire(to: spd) == "230 OK RECEIVING DATA\r\n")
        let queued = h.ssip(spd, "Hello world", ".")
        #expect(queued.wire(to: spd) == "225-1\r\n225 OK MESSAGE QUEUED\r\n")
        #expect(queued.played == ["Hello world"])
        let utterance = try #require(h.playingID)
        h.passEventHold()
        // BEGIN when the listener starts hearing it, END when the audio ran out.
        #expect(h.feed(.speechBegan(utterance)).wire(to: spd) == "701-1\r\n701-\(spd.rawValue)\r\n701 BEGIN\r\n")
        h.advance(by: .milliseconds(800))
        let ended = h.finishSpeaking()
        #expect(ended.wire(to: spd) == "702-1\r\n702-\(spd.rawValue)\r\n702 END\r\n")
        // Logged with its client's name, priority (spd-say's default is text) and outcome.
        let row = ended.appendedRows.first
        #expect(row?.kind == .ssip && row?.clientName == "root:spd-say:main" && row?.priority == "text" && row?.outcome == .ended(.spoken))
        #expect(row?.clientPID == 300)
    }

    @Test func eventsGoOnlyToTheConnectionThatAskedForThem() throws {
        var h = Harness(policy: .none)
        let quiet = h.ssipClient()
        let listener = h.ssipClient(pid: 301)
        h.ssip(listener, "SET SELF NOTIFICATION ALL on")
        h.speak(quiet, "from the quiet one")
        let utterance = try #require(h.playingID)
        let began = h.feed(.speechBegan(utterance))
        // Neither the sender (it did not ask) nor a stranger (not its message) hears of it.
        #expect(began.wire(to: quiet).isEmpty && began.wire(to: listener).isEmpty)
        let ended = h.finishSpeaking()
        #expect(ended.wire(to: quiet).isEmpty && ended.wire(to: listener).isEmpty)
    }

    @Test func aMessageOfAClientThatLeftIsStillSpokenButAnUnfinishedOneIsNot() {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        h.speak(spd, "queued before leaving")
        h.ssip(spd, "SPEAK", "half a message")
        let gone = h.feed(.disconnected(spd))
        // spd-say closes right after 225: what it queued goes on; the unfinished SPEAK says nothing.
        #expect(gone.stopped.isEmpty)
        let ended = h.finishSpeaking()
        #expect(ended.played.isEmpty)
        #expect(ended.appendedRows.map(\.outcome) == [.ended(.spoken)])
    }

    @Test func dotStuffingAndBareLFsInData() {
        var h = Harness(policy: .none)
        let spd = h.ssipClient()
        let effects = h.ssip(spd, "SPEAK", "..leading dot", "<speak>a\nb</speak>", ".")
        #expect(effects.played == [".leading dot\n<speak>a\nb</speak>"])
        // An empty message is cancelled, as Speech Dispatcher answers it.
        #expect(h.ssip(spd, "SPEAK", ".").wire(to: spd) == "230 OK RECEIVING DATA\r\n227 OK MESSAGE CANCELED\r\n")
    }

    @Test func priorities() {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        h.ssip(a, "SET SELF PRIORITY text")
        h.speak(a, "first text")
        // A newer text cuts the text being spoken.
        let second = h.speak(a, "second text")
        #expect(second.stopped.count == 1 && second.played == ["second text"])
        // A message cuts text too; a later message waits behind it.
        h.ssip(a, "SET SELF PRIORITY message")
        #expect(h.speak(a, "message one").played == ["message one"])
        #expect(h.speak(a, "message two").played.isEmpty)
        // A notification while anything speaks is dropped at once.
        h.ssip(a, "SET SELF NOTIFICATION cancel on", "SET SELF PRIORITY notification")
        let note = h.speak(a, "a notification")
        #expect(note.played.isEmpty)
        #expect(note.wire(to: a).hasSuffix("225 OK MESSAGE QUEUED\r\n"))
        #expect(h.passEventHold().wire(to: a) == "703-5\r\n703-\(a.rawValue)\r\n703 CANCELED\r\n")
        // Important cuts the message and is never dropped.
        h.ssip(a, "SET SELF PRIORITY important")
        let important = h.speak(a, "important")
        #expect(important.played == ["important"] && important.stopped.count == 1)
        // It plays; message two, still waiting, comes next.
        #expect(h.finishSpeaking().played == ["message two"])
    }

    @Test func progressSpeaksTheFirstAndTheLastOfABurst() {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        h.ssip(a, "SET SELF PRIORITY progress")
        #expect(h.speak(a, "10%").played == ["10%"])
        for step in ["20%", "30%", "40%"] { #expect(h.speak(a, step).played.isEmpty) }
        #expect(h.finishSpeaking().played == ["40%"])
    }

    @Test func cancelSelfEndsOnlyThisClientsSpeech() {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        let b = h.ssipClient(pid: 301)
        h.ssip(a, "SET SELF PRIORITY message", "SET SELF NOTIFICATION ALL on")
        h.ssip(b, "SET SELF PRIORITY message")
        h.speak(a, "a one")
        h.speak(b, "b one")
        h.speak(a, "a two")
        let cancelled = h.ssip(a, "CANCEL self")
        // a's playing message stops and its waiting one is dropped, each with 703; b's goes on.
        #expect(cancelled.stopped.count == 1)
        #expect(cancelled.played == ["b one"])
        #expect(cancelled.wire(to: a) == "703-1\r\n703-\(a.rawValue)\r\n703 CANCELED\r\n703-3\r\n703-\(a.rawValue)\r\n703 CANCELED\r\n213 OK CANCELED\r\n")
    }

    @Test func pauseHoldsAndResumeSpeaksFromTheLastMarkHeard() throws {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        h.ssip(a, "SET SELF NOTIFICATION ALL on", "SET SELF SSML_MODE on", "SET SELF PRIORITY message")
        h.speak(a, "<speak><mark name=\"0:3\"/>One <mark name=\"4:7\"/>two <mark name=\"8:13\"/>three</speak>")
        let first = try #require(h.playingID)
        h.passEventHold()
        h.feed(.speechBegan(first))
        #expect(h.feed(.speechReachedMark(first, "4:7")).wire(to: a) == "700-1\r\n700-\(a.rawValue)\r\n700-4:7\r\n700 INDEX MARK\r\n")
        let paused = h.ssip(a, "PAUSE self")
        #expect(paused.stopped == [first])
        #expect(paused.wire(to: a) == "704-1\r\n704-\(a.rawValue)\r\n704 PAUSED\r\n211 OK PAUSED\r\n")
        // What it sends while paused is acknowledged and held.
        #expect(h.speak(a, "later").played.isEmpty)
        let resumed = h.ssip(a, "RESUME self")
        #expect(resumed.played == ["<speak><mark name=\"4:7\"/>two <mark name=\"8:13\"/>three</speak>"])
        let again = try #require(h.playingID)
        h.passEventHold()
        #expect(h.feed(.speechBegan(again)).wire(to: a) == "705-1\r\n705-\(a.rawValue)\r\n705 RESUMED\r\n701-1\r\n701-\(a.rawValue)\r\n701 BEGIN\r\n")
        #expect(h.finishSpeaking().played == ["later"])
    }

    @Test func aClientThatPilesUpRepeatsIsDeduplicatedAndThrottledButOneThatWaitsIsNot() {
        var h = Harness(policy: .default)
        let chatty = h.ssipClient()
        h.ssip(chatty, "SET SELF CLIENT_NAME user:chatty:main", "SET SELF PRIORITY message", "SET SELF NOTIFICATION cancel on")
        h.speak(chatty, "build started")
        // The same text again while the first still plays: deduplicated (703, logged).
        let repeated = h.speak(chatty, "build started")
        #expect(repeated.played.isEmpty)
        #expect(repeated.wire(to: chatty) == "230 OK RECEIVING DATA\r\n225-2\r\n225 OK MESSAGE QUEUED\r\n")
        #expect(h.passEventHold().wire(to: chatty) == "703-2\r\n703-\(chatty.rawValue)\r\n703 CANCELED\r\n")
        #expect(repeated.appendedRows.map(\.outcome) == [.ended(.deduplicated)])
        // Distinct messages piling up: the bucket (3, refilled every 2 s) throttles the fourth.
        var outcomes: [LogRow.Outcome] = []
        for n in 1...4 { outcomes += h.speak(chatty, "step \(n)").appendedRows.map(\.outcome) }
        #expect(outcomes == [.ended(.throttled)])
        // A screen reader echoing each key and then saying the new focus, cancelling on each key
        // (Orca 43 on Tab): nothing it says is dropped, however fast the keys come.
        let orca = h.ssipClient(pid: 303)
        h.ssip(orca, "SET SELF CLIENT_NAME user:orca:keys", "SET SELF PRIORITY message")
        var dropped: [LogRow.Outcome] = []
        for n in 1...8 {
            h.ssip(orca, "CANCEL self")
            dropped += h.speak(orca, "tab ").appendedRows.map(\.outcome)
            dropped += h.speak(orca, "Control \(n) push button").appendedRows.map(\.outcome)
        }
        #expect(dropped.filter { $0 != .ended(.cancelled) && $0 != .ended(.interrupted) } == [], "\(dropped)")
        // A client that speaks one thing at a time (Say All) is never judged, repeats included.
        let reader = h.ssipClient(pid: 302)
        h.ssip(reader, "SET SELF CLIENT_NAME user:orca:main", "SET SELF PRIORITY important")
        h.speak(reader, "Line")
        h.finishSpeaking()
        #expect(h.speak(reader, "Line").played == ["Line"])
    }

    @Test func settingsApplyToTheClientsOwnMessagesOnly() throws {
        var h = Harness(policy: .none)
        let fast = h.ssipClient()
        let plain = h.ssipClient(pid: 301)
        #expect(h.ssip(fast, "SET SELF RATE 100").wire(to: fast) == "203 OK RATE SET\r\n")
        #expect(h.ssip(fast, "GET RATE").wire(to: fast) == "251-100\r\n251 OK GET RETURNED\r\n")
        #expect(h.ssip(plain, "GET RATE").wire(to: plain) == "251-0\r\n251 OK GET RETURNED\r\n")
        h.ssip(fast, "SET SELF PRIORITY message")
        h.ssip(plain, "SET SELF PRIORITY message")
        let quick = try #require(h.speak(fast, "quick").playRequests.first)
        #expect(quick.parameters.rate == 450)
        h.speak(plain, "plain")
        let normal = try #require(h.finishSpeaking().playRequests.first)
        #expect(normal.parameters.rate == standardParameters.rate)
        // SET on another client's id, and on one that does not exist.
        #expect(h.ssip(fast, "SET \(plain.rawValue) RATE -50").wire(to: fast) == "203 OK RATE SET\r\n")
        #expect(h.ssip(plain, "GET RATE").wire(to: plain) == "251--50\r\n251 OK GET RETURNED\r\n")
        #expect(h.ssip(fast, "SET 99999 RATE 0").wire(to: fast).hasPrefix("3"))
    }

    @Test func clientIDHelpQuitAndErrors() {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        #expect(h.ssip(a, "HISTORY GET CLIENT_ID").wire(to: a) == "245-\(a.rawValue)\r\n245 OK CLIENT ID SENT\r\n")
        #expect(h.ssip(a, "FOO BAR").wire(to: a) == "500 ERR INVALID COMMAND\r\n")
        #expect(h.ssip(a, "SET SELF RATE 500").wire(to: a) == "409 ERR RATE TOO HIGH\r\n")
        #expect(h.ssip(a, "LIST OUTPUT_MODULES").wire(to: a) == "250-espeak-ng\r\n250 OK MODULE LIST SENT\r\n")
        let quit = h.ssip(a, "QUIT")
        #expect(quit.wire(to: a) == "231 HAPPY HACKING\r\n")
        #expect(quit.contains(.close(a)))
    }

    @Test func jsonFocusSpeechCutsAnSSIPMessageButNotAnImportantOne() throws {
        var h = Harness(policy: .none)
        let app = h.client()
        try h.register(app, example: "profile.json")
        h.request(app, .focus(tree: "profile", element: nil))
        let orca = h.ssipClient()
        h.ssip(orca, "SET SELF PRIORITY message", "SET SELF NOTIFICATION ALL on")
        h.speak(orca, "from orca")
        // The tree's own focus speech plays first (a message waits behind the user's focus).
        while let playing = h.playing, playing.utterance.kind != .ssip(.message) { h.finishSpeaking() }
        #expect(h.playing?.utterance.text == "from orca")
        h.passEventHold()
        let focus = h.request(app, .move(.next, tree: nil))
        #expect(focus.stopped.count == 1)
        #expect(focus.wire(to: orca).contains("703 CANCELED"))
        h.ssip(orca, "SET SELF PRIORITY important")
        h.speak(orca, "urgent")
        #expect(h.request(app, .move(.next, tree: nil)).stopped.isEmpty)
    }

    @Test func aBlockIsHeardWholeAndRefusesQueueControl() {
        var h = Harness(policy: .none)
        let a = h.ssipClient()
        #expect(h.ssip(a, "BLOCK BEGIN").wire(to: a) == "260 OK INSIDE BLOCK\r\n")
        // Texts inside a block do not replace each other.
        #expect(h.speak(a, "first part").played == ["first part"])
        #expect(h.speak(a, "second part").played.isEmpty)
        #expect(h.ssip(a, "CANCEL self").wire(to: a).hasPrefix("332 "))
        #expect(h.ssip(a, "BLOCK BEGIN").wire(to: a).hasPrefix("3"))
        #expect(h.ssip(a, "BLOCK END").wire(to: a) == "261 OK OUTSIDE BLOCK\r\n")
        #expect(h.finishSpeaking().played == ["second part"])
        #expect(h.ssip(a, "BLOCK END").wire(to: a).hasPrefix("3"))
    }

    @Test func anotherUsersConnectionIsRefused() {
        var h = Harness(policy: .none)
        let stranger = ClientID(rawValue: 90)
        let effects = h.feed(.ssipConnected(stranger, Credentials(pid: 5, uid: 4321)))
        #expect(effects.wire(to: stranger).hasPrefix("530 ERR PERMISSION DENIED"))
        #expect(effects.contains(.close(stranger)))
        #expect(h.ssip(stranger, "SPEAK", "hello", ".").isEmpty)
    }

    /// What a trace of the log needs to replay SSIP traffic: each message's connection and
    /// command, and a row for each cancel, stop and `stop` (no reply waits for it).
    @Test func rowsSayWhichConnectionAndCommandAskedAndCancelsHaveRowsOfTheirOwn() {
        var h = Harness(policy: .none)
        let orca = h.ssipClient(pid: 444)
        h.ssip(orca, "SET SELF CLIENT_NAME user:orca:default")
        let cancelled = h.speak(orca, "Inbox, list") + h.ssip(orca, "CHAR x") + h.ssip(orca, "CANCEL SELF")
        // The character (a text, as the message was) cut the message; the cancel cut the character.
        #expect(cancelled.appendedRows.map { "\($0.kind) \($0.text) \($0.command ?? "-"): \($0.outcome)" } == [
            "ssip Inbox, list SPEAK: interrupted", "command CANCEL self CANCEL self: done", "ssip x CHAR: cancelled",
        ])
        #expect(cancelled.appendedRows.allSatisfy { $0.connection == Int64(orca.rawValue) && $0.clientName == "user:orca:default" })
        #expect(h.ssip(orca, "STOP ALL").appendedRows.map(\.text) == ["STOP all"])
        let app = h.client(pid: 90)
        let stop = h.request(app, .stop)
        #expect(stop.appendedRows.map { "\($0.kind) \($0.text): \($0.outcome)" } == ["command stop: done"])
        #expect(stop.appendedRows.first?.connection == Int64(app.rawValue))
    }

    @Test func cancelAllSilencesAClientThatAlreadyLeft() {
        var h = Harness(policy: .none)
        let first = h.ssipClient()
        h.speak(first, "a long announcement from an earlier spd-say")
        h.feed(.disconnected(first))
        let second = h.ssipClient(pid: 301)
        let cancelled = h.ssip(second, "CANCEL ALL")
        #expect(cancelled.stopped.count == 1)
        #expect(cancelled.wire(to: second) == "213 OK CANCELED\r\n")
        // The cancel's own row first (what a trace of the log replays), then the life it ended.
        #expect(cancelled.appendedRows.map { "\($0.kind) \($0.text): \($0.outcome)" } == ["command CANCEL all: done", "ssip a long announcement from an earlier spd-say: cancelled"])
        #expect(cancelled.appendedRows.first?.connection == Int64(second.rawValue) && cancelled.appendedRows.first?.clientPID == 301)
    }
}
