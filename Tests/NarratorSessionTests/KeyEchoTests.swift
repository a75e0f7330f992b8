import NarratorBase
import NarratorSSIP
import NarratorSpeechPlan
import Testing

/// A key echo in the middle of long SSIP text: heard at once, then the text goes on from the
/// sentence the listener was hearing, its client told of one BEGIN and one END.
@Suite struct KeyEchoTests {
    /// Three sentences, 46 words: long text under the default `long-text-words` (40).
    static let long =
        "The first sentence tells you that the build has started on the main branch today. "
        + "The second sentence says that seventeen tests are running on two cores of the shared machine. "
        + "The third sentence reports that every one of them passed without a single warning anywhere."
    static var second: String.Index { long.firstRange(of: "The second")!.lowerBound }
    /// Where the second sentence starts, in UTF-8 bytes: what the player reports.
    static var secondOffset: Int { long.utf8.distance(from: long.utf8.startIndex, to: second) }

    /// A reader that asked for every event, with the long text playing and heard from its second sentence.
    func readingLongText(_ h: inout Harness, text: String = Self.long, sentence: Int = Self.secondOffset) throws -> (ClientID, UtteranceID) {
        let orca = h.ssipClient()
        h.ssip(orca, "SET SELF NOTIFICATION ALL on")
        h.speak(orca, text)
        let long = try #require(h.playingID)
        h.passEventHold()
        #expect(h.feed(.speechBegan(long)).wire(to: orca) == "701-1\r\n701-\(orca.rawValue)\r\n701 BEGIN\r\n")
        h.feed(.speechReached(long, offset: 0))
        #expect(h.feed(.speechReached(long, offset: sentence)).isEmpty, "where the listener is is no event")
        return (orca, long)
    }

    /// How many events of `kind` about message `message` `client` received on `wire`.
    func events(_ kind: SSIPEventKind, of message: Int, _ client: ClientID, in wire: String) -> Int {
        let line = switch kind {
        case .begin: "701 BEGIN"
        case .end: "702 END"
        case .cancel: "703 CANCELED"
        default: "?"
        }
        return wire.components(separatedBy: "\(line.prefix(3))-\(message)\r\n\(line.prefix(3))-\(client.rawValue)\r\n\(line)\r\n").count - 1
    }

    @Test func aKeyEchoIsHeardAtOnceAndTheLongTextGoesOnFromTheSentenceItCut() throws {
        var h = Harness(policy: .none)
        let (orca, long) = try readingLongText(&h)
        let key = h.ssip(orca, "KEY a")
        #expect(key.stopped == [long])
        #expect(key.played == ["a"])
        // No 703 for the text: it is held, not cancelled.
        #expect(key.wire(to: orca) == "225-2\r\n225 OK MESSAGE QUEUED\r\n")
        let echo = try #require(h.playingID)
        // `status` counts the held text as waiting.
        let user = h.client()
        let status = try #require(h.request(user, .status).body(to: user)?.status)
        #expect(status.speaking && status.queue == 1)
        h.passEventHold()
        #expect(h.feed(.speechBegan(echo)).wire(to: orca) == "701-2\r\n701-\(orca.rawValue)\r\n701 BEGIN\r\n")
        let keyEnded = h.finishSpeaking()
        #expect(keyEnded.wire(to: orca) == "702-2\r\n702-\(orca.rawValue)\r\n702 END\r\n")
        // Right after the key: the text from its second sentence, in the same message.
        #expect(keyEnded.played == [String(Self.long[Self.second...])])
        let rest = try #require(h.playingID)
        #expect(rest != long)
        #expect(h.feed(.speechBegan(rest)).wire(to: orca).isEmpty, "no second BEGIN")
        let ended = h.finishSpeaking()
        #expect(ended.wire(to: orca) == "702-1\r\n702-\(orca.rawValue)\r\n702 END\r\n")
        let wire = h.history.wire(to: orca)
        #expect(events(.begin, of: 1, orca, in: wire) == 1 && events(.end, of: 1, orca, in: wire) == 1)
        #expect(!wire.contains("703") && !wire.contains("704") && !wire.contains("705"))
        // The log: the part the key cut, the key, the rest.
        let rows = h.history.appendedRows.filter { $0.kind == .ssip }
        #expect(rows.map(\.outcome) == [.ended(.interrupted), .ended(.spoken), .ended(.spoken)])
        #expect(rows.map(\.command) == ["SPEAK", "KEY", "SPEAK"])
        #expect(rows.first?.interruptedBy == .key)
    }

    @Test func withoutASentenceReachedTheWholeTextGoesOn() throws {
        var h = Harness(policy: .none)
        let orca = h.ssipClient()
        h.speak(orca, Self.long)
        h.ssip(orca, "CHAR x")
        #expect(h.finishSpeaking().played == [Self.long])
    }

    @Test func theOffsetIsInUTF8BytesOfTheText() throws {
        // "Ça" and "é" take two bytes each, "→" three: a character count would land mid-word.
        let text =
            "Ça commence très bien, même si la météo → change vite sur la côte ce matin. "
            + "Élise écrit le deuxième paragraphe à la main, lentement et avec un très grand soin. "
            + "Ensuite arrive la troisième phrase, qui termine cet exemple assez long."
        let second = text.firstRange(of: "Élise")!.lowerBound
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: second)
        #expect(offset > text.distance(from: text.startIndex, to: second), "bytes, not characters")
        var h = Harness(policy: .none)
        let (orca, _) = try readingLongText(&h, text: text, sentence: offset)
        h.ssip(orca, "KEY space")
        #expect(h.finishSpeaking().played == [String(text[second...])])
    }

    @Test func anOffsetInsideACharacterIsNoSentenceStartAndTheWholeTextGoesOn() throws {
        let text = Self.long.replacingOccurrences(of: "The second", with: "Ésecond")
        let inside = text.utf8.distance(from: text.utf8.startIndex, to: text.firstRange(of: "Ésecond")!.lowerBound) + 1
        var h = Harness(policy: .none)
        let (orca, _) = try readingLongText(&h, text: text, sentence: inside)
        h.ssip(orca, "KEY a")
        #expect(h.finishSpeaking().played == [text])
    }

    @Test func shortTextIsStillCutByAKey() throws {
        var h = Harness(policy: .none)
        let orca = h.ssipClient()
        h.ssip(orca, "SET SELF NOTIFICATION ALL on")
        h.speak(orca, "Save changes to the document?")
        let short = try #require(h.playingID)
        h.passEventHold()
        h.feed(.speechBegan(short))
        let key = h.ssip(orca, "KEY y")
        #expect(key.stopped == [short])
        h.passEventHold()
        #expect(h.history.wire(to: orca).contains("703-1\r\n703-\(orca.rawValue)\r\n703 CANCELED\r\n"))
        let ended = h.finishSpeaking()
        #expect(ended.played.isEmpty, "nothing goes on after the key")
        #expect(h.history.appendedRows.first?.outcome == .ended(.interrupted))
    }

    @Test func cancelWhileTheTextIsHeldCancelsItOnce() throws {
        var h = Harness(policy: .none)
        let (orca, _) = try readingLongText(&h)
        h.ssip(orca, "KEY a")
        let cancelled = h.ssip(orca, "CANCEL self")
        // The key and the held text each end with 703, the text once; nothing plays after.
        #expect(cancelled.wire(to: orca) == "703-2\r\n703-\(orca.rawValue)\r\n703 CANCELED\r\n703-1\r\n703-\(orca.rawValue)\r\n703 CANCELED\r\n213 OK CANCELED\r\n")
        #expect(cancelled.played.isEmpty && h.playingID == nil)
        let wire = h.history.wire(to: orca)
        #expect(events(.cancel, of: 1, orca, in: wire) == 1 && events(.end, of: 1, orca, in: wire) == 0)
        #expect(cancelled.appendedRows.filter { $0.kind == .ssip }.map(\.outcome) == [.ended(.cancelled), .ended(.cancelled)])
    }

    @Test func newerTextWhileTheTextIsHeldCutsIt() throws {
        var h = Harness(policy: .none)
        let (orca, _) = try readingLongText(&h)
        h.ssip(orca, "KEY a")
        let newer = h.speak(orca, "Something else entirely.")
        #expect(newer.played == ["Something else entirely."])
        h.passEventHold()
        #expect(h.history.wire(to: orca).contains("703-1\r\n703-\(orca.rawValue)\r\n703 CANCELED\r\n"))
        #expect(h.finishSpeaking().played.isEmpty)
    }

    @Test func aKeyWhileTheRestPlaysHoldsItAgainFromItsOwnSentence() throws {
        var h = Harness(policy: .none)
        let (orca, _) = try readingLongText(&h)
        h.ssip(orca, "KEY a")
        h.finishSpeaking()
        let rest = try #require(h.playingID)
        let restText = String(Self.long[Self.second...])
        let third = restText.firstRange(of: "The third")!.lowerBound
        h.feed(.speechReached(rest, offset: restText.utf8.distance(from: restText.utf8.startIndex, to: third)))
        #expect(h.ssip(orca, "KEY b").stopped == [rest])
        #expect(h.finishSpeaking().played == [String(restText[third...])])
        h.finishSpeaking()
        h.passEventHold()
        let wire = h.history.wire(to: orca)
        #expect(events(.begin, of: 1, orca, in: wire) == 1 && events(.end, of: 1, orca, in: wire) == 1)
        #expect(!wire.contains("703"))
        #expect(h.history.appendedRows.map(\.outcome) == [.ended(.interrupted), .ended(.spoken), .ended(.interrupted), .ended(.spoken), .ended(.spoken)])
    }

    @Test func theRestStaysWithTheLongTextsEngineAndTheKeyWithItsOwn() throws {
        var settings = SpeechSettings()
        settings.routes[.long] = .piper
        settings.routes[.keys] = .espeak
        var h = Harness(policy: .none, settings: settings, engines: [EngineRoutingTests.piper])
        let orca = h.ssipClient()
        #expect(h.speak(orca, Self.long).playRequests.map(\.engine) == [.piper])
        let long = try #require(h.playingID)
        // Heard up to the last sentence: what is left is short, and still the long text's.
        let third = Self.long.firstRange(of: "The third")!.lowerBound
        h.feed(.speechReached(long, offset: Self.long.utf8.distance(from: Self.long.utf8.startIndex, to: third)))
        #expect(h.ssip(orca, "KEY a").playRequests.map(\.engine) == [.espeak])
        #expect(h.finishSpeaking().playRequests.map(\.engine) == [.piper])
    }

    @Test func pauseOfPlainTextResumesFromTheSentenceHeard() throws {
        var h = Harness(policy: .none)
        let (orca, _) = try readingLongText(&h)
        h.ssip(orca, "PAUSE self")
        #expect(h.ssip(orca, "RESUME self").played == [String(Self.long[Self.second...])])
    }
}
