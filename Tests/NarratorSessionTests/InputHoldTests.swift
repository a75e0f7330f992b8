import NarratorBase
import NarratorCore
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// What waits behind what, as the session decides it in one place: a client's input waits behind
/// its own `set` being written and its own line or update being prepared off the loop, and is
/// answered after it in the order it was sent; other clients never wait; once stopping nothing
/// more is handed out to be prepared.
@Suite struct InputHoldTests {
    /// `text` as the loop hands a large line over: in the pieces it was read in.
    static func large(_ text: String) -> LargeLine {
        let bytes = Array(text.utf8)
        let half = bytes.count / 2
        return LargeLine(pieces: [Array(bytes[..<half]), Array(bytes[half...])])
    }

    /// What the daemon's worker makes of `line` (``SessionEffect/prepare(_:_:)``).
    static func prepared(_ line: LargeLine, _ harness: Harness) -> PreparedRequest {
        guard let text = String(validating: line.joined(), as: UTF8.self) else { return .refused(.invalidUTF8) }
        return PreparedRequest(line: text, requests: RequestDecoder(), documents: harness.session.workspace.decoder)
    }

    static let stopping = ReplyError(.shuttingDown, "narratord is stopping and takes no new requests")

    @Test func aClientsLinesBehindItsOwnLargeLineAreHeldAndAnsweredAfterItInOrder() throws {
        var h = Harness()
        let (a, b) = (h.client(), h.client())
        // The same lines fed whole to a session that prepares nothing: the replies to expect.
        var whole = Harness()
        let (wa, wb) = (whole.client(), whole.client())
        let register = try PreparedRequestTests.registerLine("player.json", id: 1)
        let show = #"{"id": 2, "cmd": "show", "tree": "player"}"#
        let line = Self.large(register)

        #expect(h.feed(.largeLine(a, line)) == [.prepare(a, line)])
        // Behind it: nothing is answered, and the show does not find the tree missing.
        #expect(h.request(a, show).isEmpty)
        #expect(h.feed(.rejectedLine(a, .tooLong(limit: 10))).isEmpty)
        // Another client does not wait.
        #expect(h.request(b, #"{"id": 3, "cmd": "nope"}"#) == whole.request(wb, #"{"id": 3, "cmd": "nope"}"#))

        let back = h.feed(.prepared(a, Self.prepared(line, h)))
        let expected = whole.request(wa, register) + whole.request(wa, show) + whole.feed(.rejectedLine(wa, .tooLong(limit: 10)))
        #expect(back == expected)
        #expect(back.replies(to: a).map(\.id) == [1, 2, nil])
        // Nothing waits any more.
        #expect(h.request(a, #"{"id": 4, "cmd": "nope"}"#) == whole.request(wa, #"{"id": 4, "cmd": "nope"}"#))
    }

    @Test func aLineBehindASetBeingWrittenAndALargeLineWaitsForBoth() throws {
        var h = Harness()
        let a = h.client()
        let set = h.request(a, .set(key: "rate", value: 300))
        var faster = SpeechSettings()
        faster.rate = 300
        #expect(set == [.saveSettings(faster, Ticket(1)), .setTimer(h.now + Session.settingsWriteBound)])
        let line = Self.large(try PreparedRequestTests.registerLine("player.json", id: 2))
        // Behind the set: not even handed out to be prepared yet.
        #expect(h.feed(.largeLine(a, line)).isEmpty)
        #expect(h.request(a, #"{"id": 3, "cmd": "get", "key": "rate"}"#).isEmpty)

        // The set is answered and the large line goes to be prepared; the get waits on, behind it.
        let saved = h.saveSettings()
        #expect(saved == [.send(a, .reply(Reply(id: 1, .success(.setting(key: "rate", value: "300"))))), .prepare(a, line), .cancelTimer])

        let back = h.feed(.prepared(a, Self.prepared(line, h)))
        #expect(back.replies(to: a).map(\.id) == [2, 3])
        #expect(back.replies(to: a).last == Reply(id: 3, .success(.setting(key: "rate", value: "300"))))
        #expect(h.session.workspace.trees["player"] != nil)
    }

    @Test func aSetAmongTheLinesBehindALargeLineHoldsTheRestAgain() throws {
        var h = Harness()
        let a = h.client()
        let line = Self.large(try PreparedRequestTests.registerLine("player.json", id: 1))
        #expect(h.feed(.largeLine(a, line)) == [.prepare(a, line)])
        #expect(h.request(a, #"{"id": 2, "cmd": "set", "key": "rate", "value": 300}"#).isEmpty)
        #expect(h.request(a, #"{"id": 3, "cmd": "get", "key": "rate"}"#).isEmpty)
        let back = h.feed(.prepared(a, Self.prepared(line, h)))
        // The register is answered and the set's file is being written: the get waits for it.
        #expect(back.replies(to: a).map(\.id) == [1])
        #expect(back.contains { if case .saveSettings = $0 { true } else { false } })
        let saved = h.saveSettings()
        #expect(saved.replies(to: a) == [Reply(id: 2, .success(.setting(key: "rate", value: "300"))), Reply(id: 3, .success(.setting(key: "rate", value: "300")))])
    }

    @Test func aLargeLineThatIsASetHoldsWhatCameAfterItUntilItsFileIsWritten() throws {
        var h = Harness()
        let a = h.client()
        let set = Self.large(#"{"id": 1, "cmd": "set", "key": "rate", "value": 300}"#)
        #expect(h.feed(.largeLine(a, set)) == [.prepare(a, set)])
        #expect(h.request(a, #"{"id": 2, "cmd": "get", "key": "rate"}"#).isEmpty)
        let back = h.feed(.prepared(a, Self.prepared(set, h)))
        // Prepared, the set is being written: the get, sent after it, waits on.
        #expect(back.replies(to: a).isEmpty)
        let saved = h.saveSettings()
        #expect(saved.replies(to: a) == [Reply(id: 1, .success(.setting(key: "rate", value: "300"))), Reply(id: 2, .success(.setting(key: "rate", value: "300")))])
    }

    @Test func aLargeTreesReorderGoesOffTheLoopAndTheClientsNextLineWaitsForIt() throws {
        var h = Harness(updatesPreparedFrom: PreparedUpdate.threshold)
        let (a, b) = (h.client(), h.client())
        var whole = Harness()
        let (wa, _) = (whole.client(), whole.client())
        let document = PreparedUpdateTests.document(groups: 252)
        let registered = try h.register(a, json: document)
        #expect(try whole.register(wa, json: document) == registered)
        let reorder = #"{"id": 10, "cmd": "update", "tree": "big", "element": "g200", "set": {"sortPriority": 5}}"#
        let next = #"{"id": 11, "cmd": "focus", "tree": "big", "element": "g200-0"}"#

        let out = h.request(a, reorder)
        let tree = try #require(h.session.workspace.trees["big"])
        let revision = try #require(h.session.workspace.revision(of: "big"))
        let request = try RequestDecoder().decode(reorder).get()
        #expect(out == [.prepareUpdate(a, UpdateToPrepare(request: request, tree: tree, revision: revision))])
        #expect(h.request(a, next).isEmpty)
        // Another client is answered now.
        #expect(h.request(b, #"{"id": 12, "cmd": "nope"}"#).replies(to: b).map(\.id) == [12])

        let update = PreparedUpdate(request: request, tree: tree, revision: revision, decoder: h.session.workspace.decoder)
        let back = h.feed(.prepared(a, .update(update)))
        #expect(back == whole.request(wa, reorder) + whole.request(wa, next))
        #expect(try h.session.workspace.stops(of: "big") == whole.session.workspace.stops(of: "big"))
    }

    @Test func onceStoppingNothingIsHandedOutAndWhatWaitedIsRefusedInOrder() throws {
        var h = Harness()
        let (a, b) = (h.client(), h.client())
        let first = Self.large(try PreparedRequestTests.registerLine("player.json", id: 1))
        let second = Self.large(try PreparedRequestTests.registerLine("player.json", id: 2))
        #expect(h.feed(.largeLine(a, first)) == [.prepare(a, first)])
        #expect(h.feed(.largeLine(a, second)).isEmpty)
        #expect(h.request(a, #"{"id": 3, "cmd": "nope"}"#).isEmpty)
        let stop = h.feed(.shutdown)
        #expect(stop.last == .shutDown)

        // A large line now is decoded by the session, not handed out, and refused as stopping.
        let late = Self.large(try PreparedRequestTests.registerLine("player.json", id: 5))
        #expect(h.feed(.largeLine(b, late)) == [.send(b, .reply(Reply(id: 5, .failure(Self.stopping))))])
        // One that is not UTF-8 is refused as such.
        #expect(
            h.feed(.largeLine(b, LargeLine(pieces: [[0x7b, 0xff], [0xfe, 0x7d]])))
                == [.send(b, .reply(Reply(id: nil, .failure(ReplyError(.invalidUTF8, "request is not valid UTF-8; it was discarded")))))])

        // The line handed out before comes back: it and what waited behind it (the second large
        // line among them, decoded here) are refused in order, and nothing more is handed out.
        let back = h.feed(.prepared(a, Self.prepared(first, h)))
        #expect(back == [1, 2, 3].map { SessionEffect.send(a, .reply(Reply(id: .number(Double($0)), .failure(Self.stopping)))) })
    }
}
