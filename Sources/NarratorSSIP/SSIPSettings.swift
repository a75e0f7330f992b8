import NarratorEngines
import NarratorSpeechPlan

/// One connection's settings, starting from the values speech-dispatcher 0.11.4 reports for a
/// new connection (`GET RATE` 0, `GET VOICE_TYPE` MALE1, `GET LANGUAGE` en-US, ...).
public struct SSIPSettings: Sendable, Hashable {
    public var clientName = "unknown:unknown:unknown"
    public var priority: MessagePriority = .text
    /// Lower-cased when set, as speech-dispatcher does (`SET self LANGUAGE en-US`, then `GET LANGUAGE` gives `en-us`).
    public var language = "en-US"
    public var rate = 0
    public var pitch = 0
    public var pitchRange = 0
    public var volume = 100
    public var punctuation: SSIPPunctuation = .none
    public var capitalLetters: SSIPCapitalLetters = .none
    public var spelling = false
    public var voiceType: SSIPVoiceType = .male1
    /// A voice of the output module by name (SYNTHESIS_VOICE); nil until a client sets one.
    public var synthesisVoice: String?
    /// The engine the client chose (`SET SELF OUTPUT_MODULE`); nil leaves it to the user's settings.
    public var outputModule: String?
    public var ssmlMode = false
    /// The events this connection asked for; none until it asks.
    public var notifications: Set<SSIPEventKind> = []
    public var pauseContext = 0

    public init() {}

    /// Takes a SET that the parser accepted for this connection.
    public mutating func apply(_ setting: SSIPSetting) {
        switch setting {
        case .clientName(let name): clientName = name
        case .priority(let value): priority = value
        case .language(let value): language = value.lowercased()
        case .rate(let value): rate = value
        case .pitch(let value): pitch = value
        case .pitchRange(let value): pitchRange = value
        case .volume(let value): volume = value
        case .punctuation(let value): punctuation = value
        case .capitalLetters(let value): capitalLetters = value
        case .spelling(let value): spelling = value
        case .voiceType(let value): voiceType = value
        case .synthesisVoice(let value): synthesisVoice = value
        case .outputModule(let value): outputModule = value
        case .ssmlMode(let value): ssmlMode = value
        case .notification(let kind?, let on):
            if on { notifications.insert(kind) } else { notifications.remove(kind) }
        case .notification(nil, let on): notifications = on ? Set(SSIPEventKind.allCases) : []
        case .pauseContext(let value): pauseContext = value
        }
    }

    /// GET's answer (the data line of 251).
    public func value(of what: SSIPGettable) -> String {
        switch what {
        case .rate: String(rate)
        case .pitch: String(pitch)
        case .pitchRange: String(pitchRange)
        case .volume: String(volume)
        case .voiceType: voiceType.rawValue
        case .language: language
        case .outputModule: outputModule ?? SpeechEngines.espeak.rawValue
        case .punctuation: punctuation.rawValue
        }
    }

    /// Whether this connection wants `event` sent to it.
    public func wants(_ event: SSIPEvent) -> Bool { notifications.contains(event.kind) }
}
