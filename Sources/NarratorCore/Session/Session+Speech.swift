/// Speech: asking the plan to say something, and carrying its steps out (the user's settings are
/// in `Session+Settings`).
extension Session {
    /// Asks for speech that is not an announcement, in `language`, else the tree's.
    @discardableResult
    mutating func say(_ text: String, _ kind: SpeechKind, tree: String?, element: String?, language: String? = nil) -> UtteranceID {
        let language = language ?? tree.flatMap { workspace.trees[$0]?.language }
        let (id, step) = plan.say(text, kind, tree: tree, element: element, language: language, at: now)
        follow(step)
        return id
    }

    /// The language of the tree that has focus: what `announce` (without a tree) and `speak` are
    /// read in when the request names no language, since they most likely speak about what the
    /// user is in.
    var focusedLanguage: String? {
        workspace.focus.flatMap { workspace.trees[$0.tree]?.language }
    }

    /// Turns a plan step into effects: speech commands first, events to subscribers, and a log
    /// row for each life that ended. What starts waits for the batch's end (``unplayed``); a stop
    /// of what has not been handed out yet takes it back instead. `appended` is an announcement
    /// whose row is being appended with its outcome already, so it gets no update.
    mutating func follow(_ step: PlanStep<SSIPMessage>, appended: AnnouncementID? = nil) {
        for command in step.commands {
            switch command {
            case .play(let request):
                // In the voice and prosody of the moment it starts, as the plan's events say it did.
                unplayed.append(playRequest(for: request, ssip: step.message(request.id, in: plan)))
            case .stop(let id):
                if let index = unplayed.firstIndex(where: { $0.utterance.id == id }) {
                    unplayed.remove(at: index)
                } else {
                    effects.append(.stopSpeech(id))
                }
            }
        }
        if !step.notices.isEmpty {
            let subscribers = self.subscribers
            for var notice in step.notices {
                if case .started = notice.phase, !configuration.otherEngines.isEmpty {
                    notice.engine = unplayed.last { $0.utterance.id == notice.utterance }?.engine
                }
                if case .finished = notice.phase, inaudible.contains(notice.utterance) { notice.inaudible = true }
                for subscriber in subscribers { send(subscriber, .speech(notice)) }
                if case .ssip = notice.kind, let message = step.message(notice.utterance, in: plan) { carryOut(ssip.notice(notice, message, at: now)) }
            }
        }
        for var record in step.announcements where record.announcement.id != appended {
            if let utterance = record.utterance, inaudible.remove(utterance) != nil, record.outcome == .spoken { record.outcome = .inaudible }
            effects.append(.updateLog(LogRow(record, seconds: seconds)))
        }
        for var record in step.speech {
            if inaudible.remove(record.utterance) != nil, record.outcome == .spoken { record.outcome = .inaudible }
            effects.append(.appendLog(step.endedMessages[record.utterance].map { ssip.row(record, $0) } ?? LogRow(record, seconds: seconds), nil))
        }
    }

    /// What the speech layer is told for `request`: an SSIP message in its client's voice and
    /// prosody, anything else in the user's; in the engine ``EngineChoice`` picks for its kind
    /// (``SpeechRoute``), its client's module and its language.
    mutating func playRequest(for request: UtteranceRequest, ssip message: SSIPMessage?) -> PlayRequest {
        var play = PlayRequest(utterance: request, voice: voice(for: request.language), parameters: settings.parameters)
        if let message { play = message.settings.playRequest(on: play, catalog: configuration.catalog, ssml: message.ssml) }
        // Only eSpeak NG installed: nothing to choose.
        guard !configuration.otherEngines.isEmpty else { return play }
        let key = message.map { $0.command == .char || $0.command == .key } ?? false
        // The rest of long text a key echo held stays with the long text's engine, however short.
        let route =
            request.echo == .longText ? .long : SpeechRoute(kind: request.kind, text: request.text, key: key, longTextWords: settings.longTextWords)
        let choice = EngineChoice.resolve(
            wanted: message?.settings.outputModule ?? settings.engine(for: route),
            voiceName: message?.settings.synthesisVoice ?? settings.voice,
            language: request.language ?? message?.settings.speechLanguage, engines: configuration.engines, espeakVoice: play.voice)
        play.engine = choice.engine
        play.voice = choice.voice
        return play
    }

    /// The voice for text in `language` under the user's choice (``InstalledVoice/voice(for:chosen:in:)``),
    /// remembered per language until the choice changes: looking a language up among the
    /// installed voices compares every voice's languages, once per utterance otherwise.
    mutating func voice(for language: String?) -> VoiceChoice {
        guard let language else { return chosenVoice ?? .standard }
        if let known = voicesByLanguage[language] { return known }
        let voice = InstalledVoice.voice(for: language, chosen: chosenVoice, in: configuration.voices)
        // Languages come from clients: the memory is bounded, and starts over when full.
        if voicesByLanguage.count >= 64 { voicesByLanguage.removeAll() }
        voicesByLanguage[language] = voice
        return voice
    }

    /// An engine's health changed: said once in the journal, and shown by `status`.
    mutating func engineChanged(_ engine: String, _ health: EngineHealth) {
        let before = engineHealth[engine]
        guard before != health else { return }
        engineHealth[engine] = health
        switch health {
        case .restarting(let reason, let attempt):
            // Each new failure is news; the attempts of one outage are counted, not each said.
            if case .restarting = before, attempt > 1 { return }
            journal(.warning, "engine \(engine) \(reason): what it was saying and its speech until it is back are spoken by eSpeak NG; starting it again")
        case .ready:
            if case .restarting = before {
                journal(.notice, "engine \(engine) is back")
            } else {
                journal(.info, "engine \(engine) started")
            }
        case .idle:
            journal(.info, "engine \(engine) stopped, unused for \(settings.engineIdleSeconds) s (engine-idle): its next speech starts it again")
        case .notStarted, .starting:
            return
        }
    }

    mutating func outputChanged(_ status: OutputStatus) {
        guard status != output else { return }
        output = status
        // What plays now goes on into null: its listener does not hear the rest.
        if !status.reachesListener, let playing = plan.scheduler.playing { inaudible.insert(playing.id) }
        if status.stalled {
            // The detail says what was given up and for how long.
            journal(.warning, "audio: \(status.detail ?? "the sound server stopped taking audio; speech goes to null until it answers")")
        } else if status.fallback {
            // Asked for by name (--audio pulse), the sound server is missed: a warning; with auto, null is an answer.
            journal(status.spec == .pulse ? .warning : .notice, "audio: using null output (\(status.detail ?? "sound server unreachable")); retrying")
        } else {
            journal(.notice, "audio: using \(status.active)")
        }
    }
}

extension PlanStep {
    /// The message `utterance` speaks: as its life ended in this step, or as it is in `plan`
    /// while it goes on.
    func message(_ utterance: UtteranceID, in plan: SpeechPlan<Message>) -> Message? {
        endedMessages[utterance] ?? plan.message(utterance)
    }
}
