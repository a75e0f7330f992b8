import NarratorBase
import NarratorCore
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// The settings file is written off the daemon's loop; a write that does not come back within
/// `Session.settingsWriteBound` refuses its `set`, and nothing waits on a stuck disk for longer.
@Suite struct SettingsWriteTests {
    static let bound = Session.settingsWriteBound

    @Test func aSetWhoseWriteNeverComesBackIsRefusedAfterTheBound() throws {
        var h = Harness()
        let user = h.client()
        let other = h.client()
        let set = h.request(user, .set(key: "rate", value: 300))
        #expect(set.contains(.setTimer(h.now + Self.bound)))
        #expect(set.replies(to: user).isEmpty)
        // Nothing is answered until the bound has passed.
        h.advance(by: .seconds(4))
        #expect(h.request(other, .get(key: "rate")).body(to: other) == .setting(key: "rate", value: "175"))
        let expired = h.fireTimer()
        #expect(
            expired.error(to: user)
                == ReplyError(.invalidSetting, "rate: the settings file was not written within 5 s (its disk does not answer); the setting was not changed"))
        #expect(h.session.settings.rate == 175)
        #expect(h.request(other, .get(key: "rate")).body(to: other) == .setting(key: "rate", value: "175"))
    }

    @Test func aConnectionsRequestsAfterItsSetWaitForItsAnswerAndOthersDoNot() throws {
        var h = Harness()
        let user = h.client()
        let other = h.client()
        h.request(user, .set(key: "rate", value: 300))
        // Sent before the set was answered: answered after it, and with the setting in force.
        #expect(h.request(user, .get(key: "rate")).replies(to: user).isEmpty)
        #expect(h.request(user, .speak(text: "faster")).played.isEmpty)
        #expect(h.request(other, .get(key: "rate")).body(to: other) == .setting(key: "rate", value: "175"))
        let saved = h.saveSettings()
        #expect(saved.replies(to: user).map(\.id) == [1, 2, 3])
        #expect(saved.replies(to: user).dropFirst().first?.outcome == .success(.setting(key: "rate", value: "300")))
        let play = try #require(saved.compactMap { if case .play(let request) = $0 { request } else { nil } }.first)
        #expect(play.utterance.text == "faster" && play.parameters.rate == 300)
        // Nothing waits any more.
        #expect(h.request(user, .get(key: "rate")).body(to: user) == .setting(key: "rate", value: "300"))
    }

    @Test func aSecondSetWaitsBehindTheFirstAndBuildsOnIt() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "rate", value: 300))
        h.request(user, .set(key: "pitch", value: 70))
        #expect(h.history.filter { if case .saveSettings = $0 { true } else { false } }.count == 1)
        // The first answered, the second is written with both.
        let first = h.saveSettings()
        var both = SpeechSettings()
        both.rate = 300
        both.pitch = 70
        #expect(first.contains(.saveSettings(both, Ticket(2))))
        #expect(first.replies(to: user).map(\.id) == [1])
        #expect(h.saveSettings().replies(to: user).map(\.id) == [2])
        #expect(h.session.settings == both)
    }

    @Test func aWriteThatComesBackAfterItWasRefusedHasTheSettingsInForceWrittenAgain() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "rate", value: 300))
        h.advance(by: Self.bound)
        #expect(h.fireTimer().error(to: user)?.code == .invalidSetting)
        // The disk answers after all: the file holds 300, which is not in force.
        let late = h.feed(.settingsSaved(Ticket(1), .success(())))
        #expect(late.journal == ["the settings file was written late, after its change was refused; the settings in force are written again"])
        #expect(late.contains(.saveSettings(SpeechSettings(), Ticket(2))))
        #expect(late.replies(to: user).isEmpty)
        let rewritten = h.feed(.settingsSaved(Ticket(2), .success(())))
        #expect(rewritten.journal == ["the settings file holds the settings in force again"])
        #expect(h.session.settings.rate == 175)
    }

    @Test func aLateWriteThatFailedChangesNothing() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "rate", value: 300))
        h.advance(by: Self.bound)
        h.fireTimer()
        let late = h.feed(.settingsSaved(Ticket(1), .failure(.unwritable(path: "/s/settings.json", reason: "I/O error"))))
        #expect(late.filter { if case .saveSettings = $0 { true } else { false } }.isEmpty)
        #expect(late.replies(to: user).isEmpty)
    }

    @Test func shutdownWaitsForASetBeingWrittenAndNoLongerThanTheBound() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "rate", value: 300))
        h.request(user, .get(key: "rate"))
        let stopping = h.feed(.shutdown)
        #expect(!stopping.contains(.shutDown))
        // The disk never answers: the set is refused at the bound, what came after it is
        // refused as the daemon is stopping, and then the session has stopped.
        let expired = h.fireTimer()
        #expect(expired.replies(to: user).map(\.id) == [1, 2])
        #expect(expired.replies(to: user).last?.outcome == .failure(ReplyError(.shuttingDown, "narratord is stopping and takes no new requests")))
        #expect(expired.last == .shutDown)
    }

    @Test func shutdownGoesOnOnceTheWriteComesBack() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "rate", value: 300))
        #expect(!h.feed(.shutdown).contains(.shutDown))
        let saved = h.saveSettings()
        #expect(saved.body(to: user) == .setting(key: "rate", value: "300"))
        #expect(saved.contains(.shutDown))
        #expect(h.session.settings.rate == 300)
    }

    @Test func aConnectionThatLeavesBehindItsSetLeavesAfterItsLaterRequests() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "rate", value: 300))
        try h.register(user, json: #"{"tree": "t", "root": {"id": "r", "label": "After the set"}}"#, ephemeral: true)
        h.feed(.disconnected(user))
        #expect(h.session.workspace.trees.isEmpty)
        let saved = h.saveSettings()
        // Registered, then unregistered as its owner left: in the order it happened.
        #expect(saved.journal.contains { $0.hasPrefix("registered tree \"t\"") })
        #expect(saved.journal.contains { $0.hasPrefix("unregistered ephemeral tree \"t\"") })
        #expect(h.session.workspace.trees.isEmpty)
    }
}
