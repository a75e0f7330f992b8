/// What the speech layer is told to play: the utterance, and the voice and prosody the user's
/// settings give it at the moment it starts.
public struct PlayRequest: Sendable, Hashable {
    public var utterance: UtteranceRequest
    public var voice: VoiceChoice
    public var parameters: VoiceParameters

    public init(utterance: UtteranceRequest, voice: VoiceChoice, parameters: VoiceParameters) {
        self.utterance = utterance
        self.voice = voice
        self.parameters = parameters
    }

    /// The voice for `utterance` under `settings`: the user's choice (`chosen`: a voice, or a
    /// language's voice, see ``SpeechSettings/chosenVoice(installed:)``), else its language's, else
    /// eSpeak's default.
    public init(_ utterance: UtteranceRequest, settings: SpeechSettings, chosen: VoiceChoice?) {
        let voice: VoiceChoice = chosen ?? utterance.language.map(VoiceChoice.language) ?? .standard
        self.init(utterance: utterance, voice: voice, parameters: settings.parameters)
    }

    /// The same, with the user's voice taken as a voice name.
    public init(_ utterance: UtteranceRequest, settings: SpeechSettings) {
        self.init(utterance, settings: settings, chosen: settings.voice.map(VoiceChoice.named))
    }
}
