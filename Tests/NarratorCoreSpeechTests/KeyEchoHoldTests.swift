import NarratorBase
import NarratorSpeechPlan
import Testing

extension Harness {
    /// Submits `request` numbered next, with `rest` (numbered after it) offered as what goes on
    /// of the playing utterance if `request` holds it; returns both ids.
    @discardableResult
    mutating func submit(
        _ kind: SpeechKind, _ text: String, echo: KeyEcho, client: ClientID? = nil, rest: String? = nil
    ) -> (UtteranceID, UtteranceID?) {
        let id = nextUtterance()
        let request = UtteranceRequest(id: id, kind: kind, text: text, client: client, echo: echo)
        var continuation: UtteranceRequest?
        if let rest, var playing = scheduler.playing {
            playing.id = nextUtterance()
            playing.text = rest
            continuation = playing
        }
        record(scheduler.submit(request, continuation: continuation, at: now))
        // Only what the scheduler took is an utterance.
        return (id, continuation.flatMap { $0.id == scheduler.held?.id ? $0.id : nil })
    }

    mutating func cancel(_ reason: SpeechEvent.DropReason, where matches: (UtteranceRequest) -> Bool) {
        record(scheduler.cancel(reason, at: now, where: matches))
    }

    mutating func stopPlaying(where matches: (UtteranceRequest) -> Bool) {
        record(scheduler.stopPlaying(at: now, where: matches))
    }

    /// The texts of the play commands, in order.
    var playedTexts: [String] {
        commands.compactMap { if case .play(let request) = $0 { request.text } else { nil } }
    }
}

/// A key echo in the middle of long SSIP text is heard at once, and the text goes on after it.
@Suite("Speech scheduler: key echoes hold long text")
struct KeyEchoHoldTests {
    static let reader = ClientID(rawValue: 7)

    @Test("a key echo stops long text, plays, and the rest of the text plays right after it")
    func keyHoldsLongText() throws {
        var h = Harness()
        let (long, _) = h.submit(.ssip(.text), "One. Two. Three.", echo: .longText, client: Self.reader)
        h.advance(.milliseconds(700))
        let (key, rest) = h.submit(.ssip(.text), "a", echo: .key, client: Self.reader, rest: "Two. Three.")
        let restID = try #require(rest)
        #expect(h.phases(long) == [.queued, .started, .interrupted(by: key)])
        #expect(h.phases(restID) == [.queued])
        #expect(h.scheduler.held?.id == restID && h.playingID == key)
        #expect(h.commands.suffix(2) == [.stop(long), .play(UtteranceRequest(id: key, kind: .ssip(.text), text: "a", client: Self.reader, echo: .key))])
        h.finish(key)
        #expect(h.playingID == restID && h.scheduler.held == nil)
        #expect(h.phases(restID) == [.queued, .started])
        #expect(h.playedTexts == ["One. Two. Three.", "a", "Two. Three."])
        h.finish(restID)
        #expect(h.phases(restID).last == .finished && h.scheduler.isIdle)
    }

    @Test("key echoes that come while the text is held play first, then its rest, then what waited")
    func keysQueueInFrontOfTheHeldText() throws {
        var h = Harness()
        h.submit(.ssip(.text), "One. Two.", echo: .longText)
        let (first, rest) = h.submit(.ssip(.text), "a", echo: .key, rest: "Two.")
        // A key of message priority cuts the text-priority key; nothing long plays, so nothing more is held.
        let (second, unused) = h.submit(.ssip(.message), "b", echo: .key, rest: "never")
        #expect(unused == nil)
        #expect(h.phases(first).last == .interrupted(by: second))
        #expect(h.scheduler.held?.id == rest)
        // A low announcement waits (behind the text's rest, as it waited behind the text)...
        let low = h.say(.announcement(.low), "low")
        // ...and a key of message priority waits behind the key playing, and goes before the rest.
        let (third, _) = h.submit(.ssip(.message), "c", echo: .key)
        #expect(h.phases(third) == [.queued])
        h.finish(second)
        #expect(h.playingID == third)
        h.finish(third)
        #expect(h.playingID == rest)
        h.finish(try #require(rest))
        #expect(h.playingID == low)
        #expect(h.playedTexts == ["One. Two.", "a", "b", "c", "Two.", "low"])
    }

    @Test("short text is still cut by a key echo: nothing goes on after it")
    func shortTextIsCut() {
        var h = Harness()
        let (short, _) = h.submit(.ssip(.text), "Save changes?", echo: .none)
        let (key, rest) = h.submit(.ssip(.text), "y", echo: .key, rest: "Save changes?")
        #expect(rest == nil && h.scheduler.held == nil, "offered, but not taken")
        #expect(h.phases(short).last == .interrupted(by: key))
        h.finish(key)
        #expect(h.playingID == nil && h.scheduler.isIdle)
        #expect(h.playedTexts == ["Save changes?", "y"])
    }

    @Test("a key echo that would wait for the text (an important message) holds nothing")
    func aKeyThatWaitsHoldsNothing() {
        var h = Harness()
        let (long, _) = h.submit(.ssip(.important), "Battery low. Plug in now.", echo: .longText)
        h.submit(.ssip(.text), "a", echo: .key, rest: "Plug in now.")
        #expect(h.scheduler.held == nil && h.playingID == long)
    }

    @Test("a key echo while the rest plays holds it again")
    func holdsAgain() throws {
        var h = Harness()
        h.submit(.ssip(.text), "One. Two. Three.", echo: .longText)
        let (key, rest) = h.submit(.ssip(.text), "a", echo: .key, rest: "Two. Three.")
        h.finish(key)
        let (again, last) = h.submit(.ssip(.text), "b", echo: .key, rest: "Three.")
        #expect(h.phases(try #require(rest)).last == .interrupted(by: again))
        h.finish(again)
        #expect(h.playingID == last)
        #expect(h.playedTexts == ["One. Two. Three.", "a", "Two. Three.", "b", "Three."])
    }

    @Test("speech that would have cut the text cuts it while held: a newer text, focus")
    func otherSpeechCutsTheHeldText() throws {
        var h = Harness()
        h.submit(.ssip(.text), "One. Two.", echo: .longText)
        let (_, rest) = h.submit(.ssip(.text), "a", echo: .key, rest: "Two.")
        let (newer, _) = h.submit(.ssip(.text), "Another text.", echo: .none)
        #expect(h.phases(try #require(rest)) == [.queued, .dropped(.cutWhileHeld)])
        #expect(h.playingID == newer && h.scheduler.held == nil)

        var g = Harness()
        g.submit(.ssip(.text), "One. Two.", echo: .longText)
        let (_, held) = g.submit(.ssip(.text), "a", echo: .key, rest: "Two.")
        let focus = g.say(.focus, "OK, button")
        #expect(g.phases(try #require(held)).last == .dropped(.cutWhileHeld))
        g.finish(focus)
        #expect(g.playedTexts == ["One. Two.", "a", "OK, button"])
    }

    @Test("speech that would have waited for the text waits for its rest")
    func waitingSpeechWaitsForTheRest() throws {
        var h = Harness()
        h.submit(.ssip(.text), "One. Two.", echo: .longText)
        let (key, rest) = h.submit(.ssip(.text), "a", echo: .key, rest: "Two.")
        let progress = h.say(.ssip(.progress), "50%")
        h.finish(key)
        #expect(h.playingID == rest)
        h.finish(try #require(rest))
        #expect(h.playingID == progress)
    }

    @Test("CANCEL of its client drops the held rest once; STOP of its client too; another client's STOP does not")
    func cancelAndStopWhileHeld() throws {
        let other = ClientID(rawValue: 8)
        var h = Harness()
        h.submit(.ssip(.text), "One. Two.", echo: .longText, client: Self.reader)
        let (key, rest) = h.submit(.ssip(.text), "a", echo: .key, client: Self.reader, rest: "Two.")
        h.cancel(.cancelled) { $0.client == Self.reader }
        #expect(h.phases(try #require(rest)) == [.queued, .dropped(.cancelled)])
        #expect(h.phases(key).last == .interrupted(by: nil))
        #expect(h.scheduler.isIdle)

        var s = Harness()
        s.submit(.ssip(.text), "One. Two.", echo: .longText, client: Self.reader)
        let (otherKey, kept) = s.submit(.ssip(.text), "a", echo: .key, client: other, rest: "Two.")
        s.stopPlaying { $0.client == other }
        #expect(s.phases(otherKey).last == .interrupted(by: nil))
        #expect(s.playingID == kept, "the key's client stopped its key; the text goes on")
        let (key2, again) = s.submit(.ssip(.text), "b", echo: .key, client: other, rest: "Two.")
        s.stopPlaying { $0.client == Self.reader }
        #expect(s.phases(try #require(again)) == [.queued, .dropped(.stopped)])
        #expect(s.playingID == key2, "the text's client stopped the text, not the other's key")
    }

    @Test("stop drops the held rest")
    func stopAllDropsIt() throws {
        var h = Harness()
        h.submit(.ssip(.text), "One. Two.", echo: .longText)
        let (_, rest) = h.submit(.ssip(.text), "a", echo: .key, rest: "Two.")
        h.stopAll()
        #expect(h.phases(try #require(rest)) == [.queued, .dropped(.stopped)])
        #expect(h.scheduler.isIdle)
    }
}
