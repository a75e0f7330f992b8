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

    /// The voice for `utterance` under `settings`: the user's choice, else its language's, else eSpeak's default.
    public init(_ utterance: UtteranceRequest, settings: SpeechSettings) {
        let voice: VoiceChoice =
            if let name = settings.voice { .named(name) } else if let language = utterance.language { .language(language) } else { .standard }
        self.init(utterance: utterance, voice: voice, parameters: settings.parameters)
    }
}
