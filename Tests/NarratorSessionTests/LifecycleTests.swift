import NarratorBase
import NarratorCore
import NarratorEngines
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import Testing

/// Connections coming and going, the daemon stopping, the sound output and the log changing
/// under it, and the speech settings.
@Suite struct LifecycleTests {
    @Test func anEphemeralTreeGoesWithItsOwnerAndAnotherStays() throws {
        var h = Harness()
        let app = h.client(pid: 31)
        h.request(app, .hello(client: "player-app"))
        try h.register(app, example: "player.json", ephemeral: true)
        try h.register(app, json: #"{"tree": "kept", "root": {"id": "r", "label": "Kept"}}"#)
        let gone = h.feed(.disconnected(app))
        #expect(
            gone == [
                .journal(.debug, "client #1 disconnected"),
                .journal(.info, #"unregistered ephemeral tree "player": its owner player-app (pid 31) disconnected"#),
            ])
        let user = h.client()
        #expect(
            h.request(user, .trees).body(to: user)
                == .trees([TreeSummary(tree: "kept", title: nil, language: nil, nodes: 1, stops: 1, owner: nil, ephemeral: false, focused: false)]))
    }

    /// What the daemon frees off its loop: the trees an unregister or an owner's disconnection
    /// removes, and nothing for any other input.
    @Test func theTreesAnInputRemovesAreNamedBeforeItIsHandled() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json", ephemeral: true)
        try h.register(app, json: #"{"tree": "kept", "root": {"id": "r", "label": "Kept"}}"#)
        try h.register(app, json: #"{"tree": "gone", "root": {"id": "r", "label": "Gone"}}"#)
        let user = h.client()
        let unregister = Request(id: .number(1), command: .unregister(tree: "gone"))
        #expect(h.session.treesRemoved(by: .request(user, .success(unregister))).map(\.name) == ["gone"])
        #expect(h.session.treesRemoved(by: .request(user, .success(Request(id: nil, command: .unregister(tree: "nowhere"))))).isEmpty)
        #expect(h.session.treesRemoved(by: .request(user, .success(Request(id: nil, command: .trees)))).isEmpty)
        #expect(h.session.treesRemoved(by: .disconnected(app)).map(\.name) == ["player"])
        #expect(h.session.treesRemoved(by: .disconnected(user)).isEmpty)
        h.request(user, .unregister(tree: "gone"))
        #expect(h.session.treesRemoved(by: .request(user, .success(unregister))).isEmpty)
    }

    @Test func stoppingGivesEveryOpenUtteranceItsFinalOutcomeAndAnswersWhatWaits() throws {
        var h = Harness()
        let app = h.client()
        try h.register(app, example: "player.json")
        h.request(app, .announce(text: "Playing", priority: .high, tree: nil, element: nil, key: nil))
        h.request(app, .focus(tree: "player", element: "play"))
        h.request(app, .announce(text: "Waiting", priority: .default, tree: nil, element: nil, key: nil))
        h.advance(by: .milliseconds(200))
        let stop = h.feed(.shutdown)
        #expect(stop.stopped == [UtteranceID(1)])
        #expect(Set(stop.updatedRows.map { "\($0.text): \($0.outcome)" }) == ["Playing: cancelled", "Waiting: cancelled"])
        #expect(stop.appendedRows.map { "\($0.kind) \($0.text): \($0.outcome)" } == ["command shutdown: done", "focus Now Playing, Play, button: cancelled", "hint actions available: cancelled"])
        #expect(stop.last == .shutDown)
        // The replies that waited for their rows are still sent as the rows commit.
        let answers = h.commitLog()
        #expect(answers.replies(to: app).count == 2)
        // Speech that reports afterwards changes nothing: every outcome is already final.
        #expect(h.feed(.speechEnded(UtteranceID(1), problem: nil)).isEmpty)
        #expect(h.feed(.timerFired).isEmpty)
    }

    @Test func theOutputsChangesAreJournaledAndShownInStatus() throws {
        var h = Harness()
        let user = h.client()
        let stalled = OutputStatus(
            spec: .pulse, active: "null", fallback: true, detail: "the sound server stopped taking audio for 4.0 s (no answer to a write); speech goes to null until it answers", stalled: true)
        #expect(h.feed(.outputChanged(stalled)) == [.journal(.warning, "audio: the sound server stopped taking audio for 4.0 s (no answer to a write); speech goes to null until it answers")])
        let status = try #require(h.request(user, .status).body(to: user)?.status)
        #expect(status.audio == stalled)
        let back = OutputStatus(spec: .pulse, active: "pulse", fallback: false)
        #expect(h.feed(.outputChanged(back)) == [.journal(.notice, "audio: using pulse")])
        #expect(h.feed(.outputChanged(back)).isEmpty, "an unchanged status is not journaled again")
    }

    @Test func statusReportsTheSessionAndWhatItsShellsLastSaid() throws {
        var h = Harness(treePolicies: ["chat": .strict])
        let app = h.client(pid: 5)
        try h.register(app, example: "player.json")
        h.request(app, .focus(tree: "player", element: "rating"))
        h.feed(.logHealth(LogHealth(path: "/tmp/narrator.db", isOpen: true, rowsWritten: 12, commitLatencyP50: 0.0004, commitLatencyP99: 0.002)))
        h.advance(by: .milliseconds(2500))
        let status = try #require(h.request(app, .status).body(to: app)?.status)
        var expected = StatusReport(
            version: NarratorVersion.daemon, pid: 4242, uptime: 2.5, socket: "/run/user/1000/narrator/narratord.sock", clients: 1, trees: 1,
            focus: Focus(tree: "player", element: "rating"), audio: OutputStatus(spec: .null, active: "null", fallback: false),
            voice: "English (Great Britain)", speaking: true, queue: 0,
            announcements: StatusReport.Announcements(policy: "default", waiting: 0, treePolicies: [("chat", "strict")], deferred: 0),
            log: LogHealth(path: "/tmp/narrator.db", isOpen: true, rowsWritten: 12, commitLatencyP50: 0.0004, commitLatencyP99: 0.002),
            // Who owns the trees (an application, the AT-SPI bridge), so status can show it.
            owners: [StatusReport.Owner(name: nil, pid: 5, trees: ["player"])])
        // eSpeak NG alone: no engine process was found.
        expected.engines = [EngineStatus(name: "espeak-ng", health: .ready)]
        #expect(status == expected)
    }

    @Test func statusNamesEachOwnerWithItsOwnTreesAsTheyChangeHands() throws {
        var h = Harness()
        let bridge = h.client(pid: 7)
        h.request(bridge, .hello(client: "narrator-atspi"))
        let app = h.client(pid: 5)
        try h.register(bridge, json: #"{"tree": "zenity", "root": {"id": "r", "label": "Z"}}"#)
        try h.register(app, example: "player.json")
        try h.register(bridge, json: #"{"tree": "gedit", "root": {"id": "r", "label": "G"}}"#)
        let status = try #require(h.request(app, .status).body(to: app)?.status)
        #expect(
            status.owners == [
                StatusReport.Owner(name: nil, pid: 5, trees: ["player"]), StatusReport.Owner(name: "narrator-atspi", pid: 7, trees: ["gedit", "zenity"]),
            ])
        // The bridge lets one go, and its other tree passes to the app when the bridge leaves.
        h.request(bridge, .unregister(tree: "gedit"))
        h.feed(.disconnected(bridge))
        try h.register(app, json: #"{"tree": "zenity", "root": {"id": "r", "label": "Z again"}}"#)
        let after = try #require(h.request(app, .status).body(to: app)?.status)
        #expect(after.owners == [StatusReport.Owner(name: nil, pid: 5, trees: ["player", "zenity"])])
    }

    @Test func aLogOpenedLateNumbersAnnouncementsAfterItsRows() {
        var h = Harness()
        let app = h.client()
        h.feed(.logHealth(LogHealth(path: "/tmp/narrator.db", isOpen: true, lastAnnouncementID: 41)))
        let effects = h.request(app, .announce(text: "Hello", priority: .default, tree: nil, element: nil, key: nil))
        #expect(effects.appendedRows.first?.announcement == 42)
    }

    @Test func aSettingTakesEffectOnceItIsSaved() throws {
        var h = Harness()
        let user = h.client()
        let set = h.request(user, .set(key: "rate", value: 260))
        var expected = SpeechSettings()
        expected.rate = 260
        // The write is given up on if it has not come back in time (SettingsWriteTests).
        #expect(set == [.saveSettings(expected, Ticket(1)), .setTimer(h.now + Session.settingsWriteBound)])
        #expect(h.saveSettings() == [.send(user, .reply(Reply(id: 1, .success(.setting(key: "rate", value: "260"))))), .cancelTimer])
        // The next utterance is spoken at the new rate.
        let speak = h.request(user, .speak(text: "faster"))
        let request = try #require(speak.playRequests.first)
        #expect(request.parameters.rate == 260)
        #expect(h.request(user, .get(key: "rate")).body(to: user) == .setting(key: "rate", value: "260"))
    }

    @Test func aSettingThatCannotBeSavedIsRefusedAndNotApplied() {
        var h = Harness()
        let user = h.client()
        h.request(user, .set(key: "pitch", value: "70"))
        let failed = h.saveSettings(.failure(.unwritable(path: "/ro/settings.json", reason: "read-only file system")))
        #expect(failed.error(to: user) == ReplyError(.invalidSetting, "cannot save speech settings to '/ro/settings.json': read-only file system"))
        #expect(h.session.settings.pitch == 50)
    }

    @Test func badSettingsAreRefusedWithWhatIsAllowed() throws {
        var h = Harness()
        let user = h.client()
        #expect(h.request(user, .set(key: "rate", value: 9000)).error(to: user) == ReplyError(.invalidSetting, "'9000' is not a valid rate: expected 80...450"))
        #expect(h.request(user, .set(key: "voice", value: "nobody")).error(to: user)?.code == .invalidSetting)
        #expect(h.request(user, .set(key: "rate", value: [1])).error(to: user) == ReplyError(.invalidField, "set.value: expected a string, number or boolean"))
        #expect(h.request(user, .get(key: "speed")).error(to: user)?.message.hasPrefix("unknown speech setting 'speed'") == true)
        // A voice may be named by its identifier too.
        h.request(user, .set(key: "voice", value: "gmw/de"))
        #expect(h.saveSettings().body(to: user) == .setting(key: "voice", value: "gmw/de"))
        let request = try #require(h.request(user, .speak(text: "Hallo")).playRequests.first)
        #expect(request.voice == .named("gmw/de"))
    }

    @Test func switchingHintsOffDropsTheHintThatWaits() throws {
        var h = Harness()
        let user = h.client()
        try h.register(user, example: "player.json")
        h.request(user, .focus(tree: "player", element: "play"))
        h.finishSpeaking()
        #expect(h.timer != nil)
        h.request(user, .set(key: "hints", value: false))
        let saved = h.saveSettings()
        #expect(saved.contains(.cancelTimer))
        #expect(saved.appendedRows.map { "\($0.kind): \($0.outcome)" } == ["hint: cancelled"])
    }

    @Test func theDaemonsOwnSettingChangesAreJournaled() {
        var h = Harness()
        #expect(h.feed(.changeSetting(key: "rate", value: "fast")) == [.journal(.error, "rate: '\("fast")' is not a valid rate: expected 80...450")])
        h.feed(.changeSetting(key: "rate", value: "200"))
        #expect(h.saveSettings() == [.journal(.notice, "rate = 200"), .cancelTimer])
        #expect(h.session.settings.rate == 200)
    }

    @Test func speechThatCouldNotBePlayedIsJournaledAndTheQueueMovesOn() throws {
        var h = Harness()
        let user = h.client()
        h.request(user, .announce(text: "First", priority: .default, tree: nil, element: nil, key: nil))
        h.request(user, .announce(text: "Second", priority: .default, tree: nil, element: nil, key: nil))
        let failed = h.feed(.speechEnded(UtteranceID(1), problem: "could not write '/x/000001-announcement-default.wav'"))
        #expect(failed.journal.first == "speech #1 could not be played to its end: could not write '/x/000001-announcement-default.wav'")
        #expect(failed.played == ["Second"])
        // Its row does not claim it was spoken.
        #expect(failed.updatedRows.map { "\($0.text): \($0.outcome)" } == ["First: cancelled"])
    }

    @Test func twoSettingsBeingSavedAtOnceKeepBoth() throws {
        var h = Harness()
        let user = h.client()
        let other = h.client()
        h.request(user, .set(key: "rate", value: 260))
        // Another connection's set while the first is being written: its save carries both.
        let second = h.request(other, .set(key: "pitch", value: 70))
        let saved = try #require(second.savedSettings.first)
        #expect(saved.rate == 260 && saved.pitch == 70, "the second save carries the first change too")
        h.saveSettings()
        #expect(h.session.settings.rate == 260 && h.session.settings.pitch == 70)
        // The same connection's second set waits for its first to be written, then carries both.
        let third = h.request(user, .set(key: "volume", value: 80))
        let fourth = h.request(user, .set(key: "rate", value: 300))
        #expect(try #require(third.savedSettings.first).volume == 80)
        #expect(fourth.savedSettings.isEmpty, "written before the first came back")
        let afterFirst = h.saveSettings()
        let both = try #require(afterFirst.savedSettings.first)
        #expect(both.volume == 80 && both.rate == 300)
    }

    @Test func afterShutdownNewRequestsAreRefusedAndSettingsLeftAlone() {
        var h = Harness()
        let user = h.client()
        h.feed(.shutdown)
        let late = h.request(user, .speak(text: "too late"))
        #expect(late == [.send(user, .reply(Reply(id: 1, .failure(ReplyError(.shuttingDown, "narratord is stopping and takes no new requests")))))])
        #expect(h.feed(.changeSetting(key: "rate", value: "200")).isEmpty)
    }
}
