import NarratorBase
import NarratorEngines
import NarratorSSIP
import NarratorSpeechPlan

/// How speech reaches the listener: the user's speech settings, the voice they pick for each
/// language, each engine's health, the audio output, and which utterances went unheard. The
/// session routes every play through it, and every ended utterance's outcome.
struct SpeechDelivery: Sendable {
    private(set) var settings: SpeechSettings
    /// The user's voice setting as the engine selects it (a voice, or a language's voice).
    private var chosenVoice: VoiceChoice?
    /// The voice each language was read in under ``chosenVoice`` (see `voice(for:voices:)`).
    private var voicesByLanguage: [String: VoiceChoice] = [:]
    private(set) var output: OutputStatus
    /// Each engine process's health, as its supervisor last said (eSpeak NG's is always ready).
    private(set) var engineHealth: [EngineName: EngineHealth] = [:]
    /// Utterances some of whose audio went to null because the sound server was gone or stalled:
    /// played to their end, they are logged `inaudible`, not `spoken`.
    private var inaudible: Set<UtteranceID> = []

    init(settings: SpeechSettings, output: OutputStatus, configuration: SessionConfiguration) {
        self.settings = settings
        chosenVoice = settings.chosenVoice(installed: configuration.catalog)
        self.output = output
        for engine in configuration.otherEngines { engineHealth[engine.name] = .notStarted }
    }

    /// The settings in force change (their file was written): the voice is chosen again.
    mutating func use(_ settings: SpeechSettings, catalog: VoiceCatalog) {
        self.settings = settings
        let chosen = settings.chosenVoice(installed: catalog)
        if chosen != chosenVoice { voicesByLanguage.removeAll() }
        chosenVoice = chosen
    }

    // MARK: Plays

    /// What the speech layer is told for `request`: an SSIP message in its client's voice and
    /// prosody, anything else in the user's; in the engine ``EngineChoice`` picks for its kind
    /// (``SpeechRoute``), its client's module and its language.
    mutating func playRequest(for request: UtteranceRequest, ssip message: SSIPMessage?, configuration: SessionConfiguration) -> PlayRequest {
        var play = PlayRequest(utterance: request, voice: voice(for: request.language, voices: configuration.voices), parameters: settings.parameters)
        if let message { play = message.settings.playRequest(on: play, catalog: configuration.catalog, ssml: message.ssml) }
        // Only eSpeak NG installed: nothing to choose.
        guard !configuration.otherEngines.isEmpty else { return play }
        let key = message.map { $0.command == .char || $0.command == .key } ?? false
        // The rest of long text a key echo held stays with the long text's engine, however short.
        let route =
            request.echo == .longText ? .long : SpeechRoute(kind: request.kind, text: request.text, key: key, longTextWords: settings.longTextWords)
        let choice = EngineChoice.resolve(
            wanted: message?.settings.outputModule.map { EngineName($0) } ?? settings.engine(for: route),
            voiceName: message?.settings.synthesisVoice ?? settings.voice,
            language: request.language ?? message?.settings.speechLanguage, engines: configuration.engines, espeakVoice: play.voice)
        play.engine = choice.engine
        play.voice = choice.voice
        return play
    }

    /// The voice for text in `language` under the user's choice (``InstalledVoice/voice(for:chosen:in:)``),
    /// remembered per language until the choice changes: looking a language up among the
    /// installed voices compares every voice's languages, once per utterance otherwise.
    mutating func voice(for language: String?, voices: [InstalledVoice]) -> VoiceChoice {
        guard let language else { return chosenVoice ?? .standard }
        if let known = voicesByLanguage[language] { return known }
        let voice = InstalledVoice.voice(for: language, chosen: chosenVoice, in: voices)
        // Languages come from clients: the memory is bounded, and starts over when full.
        if voicesByLanguage.count >= 64 { voicesByLanguage.removeAll() }
        voicesByLanguage[language] = voice
        return voice
    }

    /// A play is handed to the player: while the output reaches no listener, it goes unheard.
    mutating func handedOut(_ request: PlayRequest) {
        if !output.reachesListener { inaudible.insert(request.utterance.id) }
    }

    /// Whether some of `utterance` went unheard (its finished event says so).
    func wentUnheard(_ utterance: UtteranceID) -> Bool { inaudible.contains(utterance) }

    /// The outcome of an utterance whose life ended: `spoken` becomes `inaudible` if some of it
    /// went to null; either way it is forgotten.
    mutating func outcome(of utterance: UtteranceID, _ outcome: AnnouncementOutcome) -> AnnouncementOutcome {
        inaudible.remove(utterance) != nil && outcome == .spoken ? .inaudible : outcome
    }

    // MARK: Engines and output

    /// An engine's health changed: what the journal says, once (nil when it says nothing).
    mutating func engineChanged(_ engine: EngineName, _ health: EngineHealth) -> (LogLevel, String)? {
        let before = engineHealth[engine]
        guard before != health else { return nil }
        engineHealth[engine] = health
        switch health {
        case .restarting(let reason, let attempt):
            // Each new failure is news; the attempts of one outage are counted, not each said.
            if case .restarting = before, attempt > 1 { return nil }
            return (
                .warning, "engine \(engine) \(reason): what it was saying and its speech until it is back are spoken by eSpeak NG; starting it again"
            )
        case .ready:
            if case .restarting = before { return (.notice, "engine \(engine) is back") }
            return (.info, "engine \(engine) started")
        case .idle:
            return (.info, "engine \(engine) stopped, unused for \(settings.engineIdleSeconds) s (engine-idle): its next speech starts it again")
        case .notStarted, .starting:
            return nil
        }
    }

    /// The audio output changed: what the journal says (nil when nothing changed). `playing`
    /// goes on into null when the output reaches no listener now: its listener does not hear the rest.
    mutating func outputChanged(_ status: OutputStatus, playing: UtteranceID?) -> (LogLevel, String)? {
        guard status != output else { return nil }
        output = status
        if !status.reachesListener, let playing { inaudible.insert(playing) }
        if status.stalled {
            // The detail says what was given up and for how long.
            return (.warning, "audio: \(status.detail ?? "the sound server stopped taking audio; speech goes to null until it answers")")
        } else if status.fallback {
            // Asked for by name (--audio pulse), the sound server is missed: a warning; with auto, null is an answer.
            return (status.spec == .pulse ? .warning : .notice, "audio: using null output (\(status.detail ?? "sound server unreachable")); retrying")
        }
        return (.notice, "audio: using \(status.active)")
    }
}
