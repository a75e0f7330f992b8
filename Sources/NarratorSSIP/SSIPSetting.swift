import NarratorSpeechPlan

/// One `SET <target> <PARAMETER> <value>` with its value parsed and checked.
public enum SSIPSetting: Sendable, Hashable {
    /// Surrounding double quotes stripped (spd-say sends `"root:spd-say:main"`).
    case clientName(String)
    case priority(MessagePriority)
    /// As sent (`C`, `en`, `en-US`); ``SSIPSettings`` keeps it lower-cased, as GET reports it.
    case language(String)
    /// Each of these four is within -100...100; the parser refuses the rest.
    case rate(Int), pitch(Int), pitchRange(Int), volume(Int)
    case punctuation(SSIPPunctuation)
    case capitalLetters(SSIPCapitalLetters)
    case spelling(Bool)
    case voiceType(SSIPVoiceType)
    /// The rest of the line, which may contain spaces (`English (Great Britain)`).
    case synthesisVoice(String)
    case outputModule(String)
    case ssmlMode(Bool)
    /// Nil is `ALL`: every kind at once.
    case notification(SSIPEventKind?, Bool)
    case pauseContext(Int)

    /// Which parameter this sets, for its reply codes.
    public var name: SSIPSettingName {
        switch self {
        case .clientName: .clientName
        case .priority: .priority
        case .language: .language
        case .rate: .rate
        case .pitch: .pitch
        case .pitchRange: .pitchRange
        case .volume: .volume
        case .punctuation: .punctuation
        case .capitalLetters: .capitalLetters
        case .spelling: .spelling
        case .voiceType: .voiceType
        case .synthesisVoice: .synthesisVoice
        case .outputModule: .outputModule
        case .ssmlMode: .ssmlMode
        case .notification: .notification
        case .pauseContext: .pauseContext
        }
    }

    /// The words after the parameter name on the wire, as the canonical command line spells them.
    public var ssipValue: String {
        switch self {
        case .clientName(let name): "\"\(name)\""
        case .priority(let priority): priority.rawValue.uppercased()
        case .language(let value), .synthesisVoice(let value), .outputModule(let value): value
        case .rate(let n), .pitch(let n), .pitchRange(let n), .volume(let n), .pauseContext(let n): String(n)
        case .punctuation(let mode): mode.rawValue
        case .capitalLetters(let mode): mode.rawValue
        case .spelling(let on), .ssmlMode(let on): on ? "on" : "off"
        case .voiceType(let voice): voice.rawValue
        case .notification(let kind, let on): "\(kind?.rawValue ?? "ALL") \(on ? "on" : "off")"
        }
    }
}

/// The parameters `SET` knows, each with the codes of its success and failure replies.
public enum SSIPSettingName: String, Sendable, Hashable, CaseIterable {
    case clientName = "CLIENT_NAME"
    case priority = "PRIORITY"
    case language = "LANGUAGE"
    case rate = "RATE"
    case pitch = "PITCH"
    case pitchRange = "PITCH_RANGE"
    case volume = "VOLUME"
    case punctuation = "PUNCTUATION"
    case capitalLetters = "CAP_LET_RECOGN"
    case spelling = "SPELLING"
    case voiceType = "VOICE_TYPE"
    case synthesisVoice = "SYNTHESIS_VOICE"
    case outputModule = "OUTPUT_MODULE"
    case ssmlMode = "SSML_MODE"
    case notification = "NOTIFICATION"
    case pauseContext = "PAUSE_CONTEXT"

    /// The parameter as `SET` spells it (any case on input).
    public var ssip: String { rawValue }

    /// The reply to a successful SET, exactly as speech-dispatcher words it.
    var okReply: (code: Int, text: String) {
        switch self {
        case .language: (201, "OK LANGUAGE SET")
        case .priority: (202, "OK PRIORITY SET")
        case .rate: (203, "OK RATE SET")
        case .pitch: (204, "OK PITCH SET")
        case .punctuation: (205, "OK PUNCTUATION SET")
        case .capitalLetters: (206, "OK CAP LET RECOGNITION SET")
        case .spelling: (207, "OK SPELLING SET")
        case .clientName: (208, "OK CLIENT NAME SET")
        case .voiceType, .synthesisVoice: (209, "OK VOICE SET")
        case .outputModule: (216, "OK OUTPUT MODULE SET")
        case .pauseContext: (217, "OK PAUSE CONTEXT SET")
        case .volume: (218, "OK VOLUME SET")
        case .ssmlMode: (219, "OK SSML MODE SET")
        case .notification: (220, "OK NOTIFICATION SET")
        case .pitchRange: (263, "OK PITCH RANGE SET")
        }
    }

    /// The reply when the value was understood but could not be applied (3xx).
    var failureReply: (code: Int, text: String) {
        switch self {
        case .priority: (301, "ERR COULDNT SET PRIORITY")
        case .language: (302, "ERR COULDNT SET LANGUAGE")
        case .rate: (303, "ERR COULDNT SET RATE")
        case .pitch: (304, "ERR COULDNT SET PITCH")
        case .punctuation: (305, "ERR COULDNT SET PUNCT MODE")
        case .capitalLetters: (306, "ERR COULDNT SET CAP LET RECOGNITION")
        case .spelling: (308, "ERR COULDNT SET SPELLING")
        case .voiceType, .synthesisVoice: (309, "ERR COULDNT SET VOICE")
        case .clientName: (311, "ERR COULDNT SET CLIENT_NAME")
        case .outputModule: (312, "ERR COULDNT SET OUTPUT MODULE")
        case .pauseContext: (313, "ERR COULDNT SET PAUSE CONTEXT")
        case .volume: (314, "ERR COULDNT SET VOLUME")
        case .ssmlMode: (315, "ERR COULDNT SET SSML MODE")
        case .notification: (316, "ERR COULDNT SET NOTIFICATION")
        case .pitchRange: (340, "ERR COULDNT SET PITCH RANGE")
        }
    }
}
