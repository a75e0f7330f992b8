import NarratorBase
import NarratorCore
import NarratorEngines
import NarratorSpeechPlan
import Testing

/// Which engine speaks what: the user's engine and per-kind settings, an SSIP client's output
/// module, and the text's language, over the engines narratord found.
@Suite struct EngineRoutingTests {
    static let flite = EngineVoices(name: .flite, voices: [
        InstalledVoice(name: "kal", identifier: "kal", languages: ["en-us", "en"], gender: .male),
        InstalledVoice(name: "slt", identifier: "slt", languages: ["en-us", "en"], gender: .female),
    ])
    static let piper = EngineVoices(name: .piper, voices: [
        InstalledVoice(name: "joe", identifier: "joe", languages: ["en-us", "en"], gender: .unspecified),
    ])

    func harness(_ configure: (inout SpeechSettings) -> Void = { _ in }) -> Harness {
        var settings = SpeechSettings()
        configure(&settings)
        return Harness(policy: .none, settings: settings, engines: [Self.flite, Self.piper])
    }

    func spoken(_ h: inout Harness, _ client: ClientID, _ text: String, language: String? = nil) -> PlayRequest? {
        h.request(client, .speak(text: text, language: language)).playRequests.first
    }

    @Test func withoutSettingsEverythingIsESpeak() {
        var h = harness()
        let user = h.client()
        #expect(spoken(&h, user, "Hello")?.engine == .espeak)
        var only = Harness(policy: .none)
        let other = only.client()
        #expect(only.request(other, .speak(text: "Hello")).playRequests.first?.engine == .espeak)
    }

    @Test func longTextGoesToItsOwnEngineAndShortTextStays() {
        var h = harness {
            $0.routes[.long] = .piper
            $0.longTextWords = 5
        }
        let user = h.client()
        #expect(spoken(&h, user, "one two three four five")?.engine == .espeak)
        let long = spoken(&h, user, "one two three four five six")
        #expect(long?.engine == .piper)
        #expect(long?.voice == .named("joe"))
    }

    @Test func aVoiceOfAnotherEngineBringsItsEngineAndTheRouteStillWins() {
        var h = harness {
            $0.voice = "slt"
            $0.routes[.focus] = .espeak
        }
        let user = h.client()
        #expect(spoken(&h, user, "Hello")?.engine == .flite)
        #expect(spoken(&h, user, "Hello")?.voice == .named("slt"))
        #expect(throws: Never.self) { try h.register(user, example: "player.json") }
        let focus = h.request(user, .focus(tree: "player", element: "rating")).playRequests.first
        #expect(focus?.engine == .espeak)
    }

    @Test func aLanguageTheEngineLacksIsReadByESpeak() {
        var h = harness { $0.engine = .piper }
        let user = h.client()
        #expect(spoken(&h, user, "Hello", language: "en-GB")?.engine == .piper)
        let german = spoken(&h, user, "Guten Tag", language: "de")
        #expect(german?.engine == .espeak)
        #expect(german?.voice == .language("de"))
    }

    @Test func setEngineChecksTheNameAndGetShowsIt() {
        var h = harness()
        let user = h.client()
        let refused = h.request(user, .set(key: "engine.long", value: "festival"))
        #expect(refused.error(to: user)?.message.contains("no engine is named 'festival': installed are espeak-ng, flite, piper") == true)
        h.request(user, .set(key: "engine.long", value: "piper"))
        h.saveSettings()
        #expect(h.request(user, .get(key: "engine.long")).body(to: user) == .setting(key: "engine.long", value: "piper"))
        #expect(h.request(user, .get(key: "engine")).body(to: user) == .setting(key: "engine", value: "auto"))
        h.request(user, .set(key: "voice", value: "flite/kal"))
        h.saveSettings()
        #expect(spoken(&h, user, "Hi")?.voice == .named("kal"))
    }

    /// An engine a setting or a client chooses is started then, not at its first utterance (Piper
    /// loads its model for a second or two); one chosen already, and eSpeak NG, are not asked again.
    @Test func aChosenEngineIsWarmedUpOnceWhenItIsChosen() {
        func warmUps(_ effects: [SessionEffect]) -> [String] {
            effects.compactMap { if case .warmUp(let engine) = $0 { engine.rawValue } else { nil } }
        }
        var h = harness()
        let user = h.client()
        #expect(warmUps(h.request(user, .set(key: "engine.long", value: "piper"))) == [], "not before the setting is saved")
        #expect(warmUps(h.saveSettings()) == ["piper"])
        h.request(user, .set(key: "engine", value: "piper"))
        #expect(warmUps(h.saveSettings()) == [], "piper was chosen already")
        h.request(user, .set(key: "voice", value: "flite/slt"))
        #expect(warmUps(h.saveSettings()) == ["flite"])
        h.request(user, .set(key: "engine.keys", value: "espeak-ng"))
        #expect(warmUps(h.saveSettings()) == [])
        // A refused write chooses nothing.
        var refused = harness()
        let other = refused.client()
        refused.request(other, .set(key: "engine", value: "flite"))
        #expect(warmUps(refused.saveSettings(.failure(.unreadable(path: "/s", reason: "disk full")))) == [])

        let client = h.ssipClient()
        #expect(warmUps(h.ssip(client, "SET SELF OUTPUT_MODULE piper")) == ["piper"])
        #expect(warmUps(h.ssip(client, "SET SELF OUTPUT_MODULE espeak-ng")) == [])
        #expect(warmUps(h.ssip(client, "SET SELF OUTPUT_MODULE festival")) == [], "not installed")
        #expect(SpeechSettings().chosenEngines(among: SpeechEngines(espeakVoices: [], others: [Self.flite, Self.piper])) == [])
    }

    /// `engine-idle` reaches the engine processes once saved, and only when it changed; the
    /// journal says when an engine was stopped for it, and `status` shows it idle.
    @Test func engineIdleIsHandedToTheEnginesAndTheirStopIsSaid() throws {
        func limits(_ effects: [SessionEffect]) -> [Duration?] {
            effects.compactMap { if case .engineIdle(let limit) = $0 { limit } else { nil } }
        }
        var h = harness()
        let user = h.client()
        #expect(SpeechSettings().engineIdle == .seconds(300), "a few minutes by default")
        #expect(limits(h.request(user, .set(key: "engine-idle", value: "20"))) == [], "not before the setting is saved")
        #expect(limits(h.saveSettings()) == [.seconds(20)])
        h.request(user, .set(key: "engine-idle", value: "20"))
        #expect(limits(h.saveSettings()) == [], "unchanged")
        h.request(user, .set(key: "engine-idle", value: "0"))
        #expect(limits(h.saveSettings()) == [nil], "0: never stopped")
        #expect(h.request(user, .set(key: "engine-idle", value: "-1")).error(to: user)?.code == .invalidSetting)
        #expect(try h.session.settings.get("engine-idle") == "0")

        h.request(user, .set(key: "engine-idle", value: "20"))
        h.saveSettings()
        h.feed(.engineChanged(.piper, .ready))
        let stopped = h.feed(.engineChanged(.piper, .idle))
        #expect(stopped.journal.contains { $0.contains("engine piper stopped, unused for 20 s (engine-idle): its next speech starts it again") })
        #expect(h.session.engineHealth[.piper] == .idle)
    }

    /// Subscribers hear which engine was asked to say each utterance as it starts (and nothing of
    /// engines while eSpeak NG is the only one).
    @Test func aStartedEventNamesItsEngine() {
        func engines(_ effects: [SessionEffect], to monitor: ClientID) -> [String?] {
            effects.events(to: monitor).compactMap { event in
                if case .speech(let notice) = event, case .started = notice.phase { notice.engine } else { nil }
            }
        }
        var h = harness {
            $0.routes[.long] = .piper
            $0.longTextWords = 3
        }
        let monitor = h.client()
        h.request(monitor, .subscribe)
        let user = h.client()
        #expect(engines(h.request(user, .speak(text: "Short.")), to: monitor) == ["espeak-ng"])
        #expect(engines(h.request(user, .speak(text: "This one is long enough.")), to: monitor) == ["piper"])
        var alone = Harness(policy: .none)
        let other = alone.client()
        alone.request(other, .subscribe)
        #expect(engines(alone.request(alone.client(), .speak(text: "Short.")), to: other) == [nil])
    }

    @Test func ssipListsEveryModuleAndEachModulesVoices() {
        var h = harness()
        let client = h.ssipClient()
        #expect(h.ssip(client, "LIST OUTPUT_MODULES").wire(to: client) == "250-espeak-ng\r\n250-flite\r\n250-piper\r\n250 OK MODULE LIST SENT\r\n")
        #expect(h.ssip(client, "SET SELF OUTPUT_MODULE flite").wire(to: client) == "216 OK OUTPUT MODULE SET\r\n")
        #expect(h.ssip(client, "GET OUTPUT_MODULE").wire(to: client) == "251-flite\r\n251 OK GET RETURNED\r\n")
        #expect(h.ssip(client, "LIST SYNTHESIS_VOICES").wire(to: client)
            == "249-kal\ten-US\tnone\r\n249-slt\ten-US\tnone\r\n249 OK VOICE LIST SENT\r\n")
        h.ssip(client, "SET SELF SYNTHESIS_VOICE slt")
        let play = h.speak(client, "Hello").playRequests.first
        #expect(play?.engine == .flite)
        #expect(play?.voice == .named("slt"))
    }

    @Test func ssipKeysFollowTheKeysRouteAndTextTheSSIPOne() {
        var h = harness {
            $0.routes[.ssip] = .piper
            $0.routes[.keys] = .espeak
        }
        let client = h.ssipClient()
        #expect(h.speak(client, "Hello there").playRequests.first?.engine == .piper)
        #expect(h.ssip(client, "CHAR a").playRequests.first?.engine == .espeak)
    }

    @Test func statusAndTheJournalSayAnEngineFailedOnceAndCameBack() throws {
        var h = harness()
        let user = h.client()
        let status = try #require(h.request(user, .status).body(to: user)?.status)
        #expect(status.engines.map(\.summary) == ["espeak-ng: ready", "flite: not started", "piper: not started"])
        h.feed(.engineChanged(.piper, .ready))
        let crashed = h.feed(.engineChanged(.piper, .restarting(reason: "crashed (killed by signal 9)", attempt: 1)))
        #expect(crashed.journal.count == 1)
        #expect(crashed.journal.first?.contains("engine piper crashed (killed by signal 9)") == true)
        // The attempts of one outage are not each said.
        #expect(h.feed(.engineChanged(.piper, .restarting(reason: "did not start", attempt: 2))).journal.isEmpty)
        let after = try #require(h.request(user, .status).body(to: user)?.status)
        #expect(after.engines.last?.summary == "piper: restarting (did not start), attempt 2")
        #expect(h.feed(.engineChanged(.piper, .ready)).journal == ["engine piper is back"])
    }
}
