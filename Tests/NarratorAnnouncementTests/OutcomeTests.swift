import NarratorBase
import NarratorSpeechPlan
import Testing

@Suite("Announcement queue: every outcome on a virtual clock")
struct OutcomeTests {
    @Test("spoken: an announcement into silence starts at once and ends when its speech ends")
    func spoken() {
        var s = Session()
        let a = s.announce("Download complete")
        #expect(s.firstDecision(a) == "speaking")
        s.drain()
        let record = s.record(a)
        #expect(record?.outcome == .spoken)
        #expect(s.seconds(record?.startedAt) == 0)
        #expect(s.seconds(record?.endedAt) == 1)
        #expect(record?.policy == "default")
    }

    @Test("interrupted: focus speech cuts a default announcement that is playing")
    func interruptedByFocus() {
        var s = Session()
        let a = s.announce("Saved")
        s.wait(0.5)
        s.focus("main")
        s.drain()
        #expect(s.outcome(a) == .interrupted)
        #expect(s.seconds(s.record(a)?.endedAt) == 0.5)
        #expect(s.simulation.speech.map(\.outcome) == [.spoken])
    }

    @Test("interrupted: a high announcement cuts a default one; nothing cuts a high one")
    func highPreempts() {
        var s = Session()
        let a = s.announce("Uploading")
        s.wait(0.2)
        let b = s.announce("Battery critical", .high)
        #expect(s.firstDecision(b) == "speaking")
        s.wait(0.2)
        let c = s.announce("Connection lost", .high)
        #expect(s.firstDecision(c) == "queued")
        s.focus("main")
        s.drain()
        #expect(s.outcome(a) == .interrupted)
        #expect(s.outcome(b) == .spoken)
        #expect(s.outcome(c) == .spoken)
        // The focus speech waited for the high announcement that played, and the waiting one
        // let the newer focus speech go first instead of cutting it.
        #expect(s.simulation.speech.first?.outcome == .spoken)
        #expect(s.seconds(s.simulation.speech.first?.startedAt) == 1.2)
        #expect(s.seconds(s.record(c)?.startedAt) == 2.2)
    }

    @Test("announcements are polite to each other: a default waits for the default that plays")
    func politeDefaults() {
        var s = Session()
        let a = s.announce("First message")
        let b = s.announce("Second message")
        #expect(s.firstDecision(b) == "queued")
        s.drain()
        #expect(s.spokenTexts == ["First message", "Second message"])
        #expect(s.seconds(s.record(b)?.startedAt) == 1)
        #expect(s.outcome(a) == .spoken)
    }

    @Test("low waits for focus speech and default announcements, and then is spoken")
    func lowWaits() {
        var s = Session()
        s.focus("main")
        let low = s.announce("Tip: swipe up", .low)
        #expect(s.firstDecision(low) == "queued")
        let urgent = s.announce("New message")
        s.drain()
        #expect(s.spokenTexts == ["New message", "Tip: swipe up"])
        #expect(s.outcome(urgent) == .spoken)
        // The default announcement interrupted the focus speech, as in iOS.
        #expect(s.simulation.speech.first?.outcome == .interrupted)
        #expect(s.simulation.speech.first?.interruptedBy == .announcement(.default))
    }

    @Test("deduplicated: the same text while queued, while speaking, and just after it was spoken")
    func deduplicated() {
        var s = Session()
        let a = s.announce("3 new messages")
        let whileSpeaking = s.announce("3  New Messages")
        let b = s.announce("Sync done")
        let whileQueued = s.announce("sync done")
        s.wait(2.5)  // a: 0-1 s, b: 1-2 s
        let afterSpoken = s.announce("Sync done")
        s.wait(1.5)
        let outsideWindow = s.announce("Sync done")
        s.drain()
        #expect(s.outcome(whileSpeaking) == .deduplicated)
        #expect(s.record(whileSpeaking)?.duplicateOf == a)
        #expect(s.record(whileQueued)?.duplicateOf == b)
        #expect(s.firstDecision(whileQueued) == "deduplicated")
        #expect(s.record(afterSpoken)?.duplicateOf == b)
        #expect(s.outcome(outsideWindow) == .spoken)
    }

    @Test("an explicit key makes different texts one message")
    func explicitKey() {
        var s = Session()
        let a = s.announce("Connected to Wi-Fi", key: "network")
        let b = s.announce("Wi-Fi connected", key: "network")
        s.drain()
        #expect(s.record(b)?.duplicateOf == a)
    }

    @Test("throttled: a screen's bucket allows a burst, then drops until it refills")
    func throttled() {
        let policy = AnnouncementPolicy.default.with {
            $0.coalesce = false
            $0.rateLimit = .init(burst: 2, refillPerSecond: 1)
        }
        var s = Session(policy, speechLength: .milliseconds(100))
        let ids = (1...4).map { s.announce("Item \($0)", tree: "list") }
        let otherScreen = s.announce("Item 4", tree: "mail")
        s.wait(1.0)
        let refilled = s.announce("Item 5", tree: "list")
        s.drain()
        #expect(ids.map { s.outcome($0) } == [.spoken, .spoken, .throttled, .throttled])
        #expect(s.firstDecision(ids[2]) == "throttled")
        #expect(s.outcome(otherScreen) == .spoken)
        #expect(s.outcome(refilled) == .spoken)
    }

    @Test("high announcements are never throttled")
    func highNotThrottled() {
        var s = Session(AnnouncementPolicy.default.with { $0.rateLimit = .init(burst: 1, refillPerSecond: 0.1) }, speechLength: .milliseconds(10))
        let ids = ["a", "b", "c"].map { s.announce("Alarm \($0)", .high, tree: "t") }
        s.drain()
        #expect(ids.map { s.outcome($0) } == [.spoken, .spoken, .spoken])
    }

    @Test("coalescing: a slider's throttled frames collapse to its newest value, spoken when the bucket refills")
    func coalesced() {
        var s = Session(
            AnnouncementPolicy.default.with { $0.rateLimit = .init(burst: 1, refillPerSecond: 2) }, speechLength: .milliseconds(200))
        var frames: [AnnouncementID] = []
        for value in 40...45 {
            frames.append(s.announce("\(value)%", tree: "settings", element: "volume"))
            s.wait(0.05)
        }
        #expect(s.firstDecision(frames[1]) == "deferred")
        s.drain()
        #expect(s.spokenTexts == ["40%", "45%"])
        #expect(s.outcome(frames[1]) == .throttled)
        #expect(s.record(frames[1])?.duplicateOf == frames[2])
        // 45% arrived at 0.25 s and was admitted when the bucket refilled at 0.5 s.
        #expect(s.seconds(s.record(frames[5])?.startedAt) == 0.5)
    }

    @Test("expired: an announcement that waits longer than its time to live is never spoken")
    func expired() {
        var s = Session(AnnouncementPolicy.default.with { $0.timeToLive = .seconds(3) }, speechLength: .seconds(5))
        let a = s.announce("Long report")
        let b = s.announce("Short note")
        s.drain()
        #expect(s.outcome(a) == .spoken)
        #expect(s.outcome(b) == .expired)
        #expect(s.seconds(s.record(b)?.endedAt) == 3)
    }

    @Test("dropped: a full queue drops the lowest priority, oldest first")
    func dropped() {
        var s = Session(AnnouncementPolicy.none.with { $0.queueLimit = 2 })
        let playing = s.announce("Playing")
        let low1 = s.announce("Low one", .low)
        let low2 = s.announce("Low two", .low)
        let def = s.announce("Default")
        #expect(s.outcome(low1) == .dropped)
        let def2 = s.announce("Default two")
        #expect(s.outcome(low2) == .dropped)
        let low3 = s.announce("Low three", .low)
        #expect(s.firstDecision(low3) == "dropped")
        s.drain()
        #expect(s.spokenTexts == ["Playing", "Default", "Default two"])
        #expect([playing, def, def2].map { s.outcome($0) } == [.spoken, .spoken, .spoken])
    }

    @Test("cancelled: stop cancels every waiting announcement and the one playing")
    func cancelledByStop() {
        var s = Session()
        let a = s.announce("One")
        let b = s.announce("Two")
        s.simulation.stop()
        s.drain()
        #expect(s.outcome(a) == .cancelled)
        #expect(s.outcome(b) == .cancelled)
    }

    @Test("cancelled: shutting down ends every announcement, the playing one too, so the log holds no open row")
    func cancelledByShutDown() {
        var plan = SpeechPlan<Never>()
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        let playing = plan.announce(Announcement(id: AnnouncementID(1), text: "Playing"), at: start)
        guard case .play(let request, _)? = playing.commands.first else {
            Issue.record("the first announcement should start at once: \(playing.commands)")
            return
        }
        _ = plan.announce(Announcement(id: AnnouncementID(2), text: "Waiting"), at: start)
        #expect(plan.queue.waiting.map(\.id) == [AnnouncementID(2)])

        let later = MonotonicInstant(nanoseconds: 1_500_000_000)
        let step = plan.shutDown(at: later)
        #expect(step.announcements.map(\.announcement.id).sorted() == [AnnouncementID(1), AnnouncementID(2)])
        #expect(step.announcements.allSatisfy { $0.outcome == .cancelled && $0.endedAt == later })
        #expect(step.announcements.first { $0.announcement.id == AnnouncementID(1) }?.startedAt == start)
        #expect(step.announcements.first { $0.announcement.id == AnnouncementID(1) }?.utterance == request.id)
        #expect(step.commands == [.stop(request.id)])
        #expect(plan.isIdle)
        // Subscribers hear the end of what played: its final event comes with the stop.
        #expect(step.notices.map(\.notice.phase) == [.interrupted(by: nil)])
        // Speech reporting the end afterwards changes nothing: the outcome was already given.
        let late = plan.finished(request.id, at: later)
        #expect(late.announcements.isEmpty && late.notices.isEmpty)
    }

    @Test("cancelled: focus leaving a tree cancels its waiting low and default announcements, not high ones")
    func cancelledByFocus() {
        var s = Session(speechLength: .seconds(2))
        s.focus("chat")
        s.wait(0.1)
        let high = s.announce("Call from Ana", .high, tree: "chat")
        let chatDefault = s.announce("Typing", tree: "chat")
        let chatLow = s.announce("Read", .low, tree: "chat")
        let mail = s.announce("New mail", tree: "mail")
        s.focus("mail", "Inbox")
        s.drain()
        #expect(s.outcome(high) == .spoken)
        #expect(s.outcome(chatDefault) == .cancelled)
        #expect(s.outcome(chatLow) == .cancelled)
        #expect(s.outcome(mail) == .spoken)
    }

    @Test("the none policy speaks everything, in order")
    func noneSpeaksAll() {
        var s = Session(.none, speechLength: .milliseconds(500))
        let ids = (0..<20).map { _ in s.announce("Same text", tree: "t") }
        s.drain()
        #expect(ids.allSatisfy { s.outcome($0) == .spoken })
    }
}

@Suite("Announcement queue: coalescing waiting announcements")
struct CoalescingTests {
    @Test("a newer announcement about the same control replaces one still waiting; other controls keep theirs")
    func replacesWaiting() {
        var s = Session(.default, speechLength: .seconds(2))
        let playing = s.announce("Uploading", tree: "files", element: "status")
        let first = s.announce("10 percent", tree: "files", element: "progress")
        let other = s.announce("2 files selected", tree: "files", element: "selection")
        let newer = s.announce("20 percent", tree: "files", element: "progress")
        s.drain()
        #expect(s.outcome(first) == .throttled)
        #expect(s.record(first)?.duplicateOf == newer)
        #expect(s.spokenTexts == ["Uploading", "2 files selected", "20 percent"])
        #expect([playing, other, newer].allSatisfy { s.outcome($0) == .spoken })
    }

    @Test("without coalescing every waiting value is kept")
    func keepsAllWithoutCoalescing() {
        var s = Session(AnnouncementPolicy.default.with { $0.coalesce = false }, speechLength: .seconds(2))
        s.announce("Uploading", tree: "files", element: "status")
        s.announce("10 percent", tree: "files", element: "progress")
        s.announce("20 percent", tree: "files", element: "progress")
        s.drain()
        #expect(s.spokenTexts == ["Uploading", "10 percent", "20 percent"])
    }
}

@Suite("Announcement queue: the bound covers deferred announcements")
struct BoundTests {
    @Test("deferred announcements count against the queue limit, so a flood of distinct ones stays bounded")
    func deferredAreBounded() {
        let policy = AnnouncementPolicy.default.with {
            $0.queueLimit = 3
            $0.rateLimit = .init(burst: 1, refillPerSecond: 0.01)
        }
        var s = Session(policy, speechLength: .seconds(1))
        let ids = (1...10).map { s.announce("Distinct \($0)", tree: "feed") }
        #expect(s.simulation.queue.waiting.count + s.simulation.queue.deferred.count == 3)
        #expect(s.outcome(ids[1]) == .dropped)
        #expect(s.firstDecision(ids[9]) == "deferred")
        // The first one speaks; of the nine deferred, the six oldest are dropped.
        #expect(ids.filter { s.outcome($0) == .dropped }.count == 6)
    }
}
