import NarratorEngines

/// What the speech layer is told to play: the utterance, and the voice and prosody the user's
/// settings give it at the moment it starts.
public struct PlayRequest: Sendable, Hashable {
    public var utterance: UtteranceRequest
    public var voice: VoiceChoice
    public var parameters: VoiceParameters
    /// Whether the text is SSML (SSIP's `SSML_MODE on`, as Orca sends it): its tags are obeyed,
    /// not read, and its `<mark name="..."/>` are reported as the audio reaches them.
    public var ssml: Bool
    /// The engine that speaks it ("espeak-ng", "flite", "piper"): see ``EngineChoice``.
    public var engine: EngineName

    public init(
        utterance: UtteranceRequest, voice: VoiceChoice, parameters: VoiceParameters, ssml: Bool = false,
        engine: EngineName = .espeak
    ) {
        self.utterance = utterance
        self.engine = engine
        self.voice = voice
        self.parameters = parameters
        self.ssml = ssml
    }

    /// The voice for `utterance` under `settings` (see ``InstalledVoice/voice(for:chosen:in:)``):
    /// the user's choice (`chosen`, see ``SpeechSettings/chosenVoice(installed:)``) for text in its
    /// language or in none, else the text's language's voice, else eSpeak's default.
    public init(_ utterance: UtteranceRequest, settings: SpeechSettings, chosen: VoiceChoice?, voices: [InstalledVoice]) {
        self.init(
            utterance: utterance, voice: InstalledVoice.voice(for: utterance.language, chosen: chosen, in: voices),
            parameters: settings.parameters)
    }
}
