/// One SSIP command line, parsed. What the server does with it, and the reply it sends, are the
/// session's business; only replies that need no state come back from the parser as errors.
public enum SSIPCommand: Sendable, Hashable {
    /// The reply 230 and data mode (``SSIPMessageReader``) are the caller's business.
    case speak
    /// `CHAR`, `KEY` and `SOUND_ICON` each take one word; ``SSIPWords`` says it.
    case char(String), key(String), soundIcon(String)
    case set(SSIPTarget, SSIPSetting)
    case get(SSIPGettable)
    /// `HISTORY GET CLIENT_ID`, which python3-speechd sends first and requires.
    case clientID
    case cancel(SSIPTarget), stop(SSIPTarget), pause(SSIPTarget), resume(SSIPTarget)
    case listOutputModules, listVoices
    /// `LIST SYNTHESIS_VOICES [language [variant]]`: the voices, filtered when a language is given.
    case listSynthesisVoices(language: String?, variant: String?)
    case blockBegin, blockEnd
    case help, quit

    /// Whether speech-dispatcher takes the command between BLOCK BEGIN and BLOCK END; the rest
    /// get ``SSIPReply/notAllowedInsideBlock`` (332) there. A block groups speech and the
    /// settings of its messages, so queue control, queries and connection-wide SETs wait for its end.
    public var isAllowedInsideBlock: Bool {
        switch self {
        case .speak, .char, .key, .soundIcon, .blockBegin, .blockEnd, .quit: true
        case .set(_, let setting):
            switch setting.name {
            case .priority, .clientName, .outputModule, .spelling: false
            default: true
            }
        case .get, .clientID, .cancel, .stop, .pause, .resume, .listOutputModules, .listVoices, .listSynthesisVoices, .help: false
        }
    }

    /// The command as one canonical line (without CRLF), which parses back to this command.
    public var line: String {
        switch self {
        case .speak: "SPEAK"
        case .char(let c): "CHAR \(c)"
        case .key(let k): "KEY \(k)"
        case .soundIcon(let name): "SOUND_ICON \(name)"
        case .set(let target, let setting): "SET \(target.ssip) \(setting.name.ssip) \(setting.ssipValue)"
        case .get(let what): "GET \(what.ssip)"
        case .clientID: "HISTORY GET CLIENT_ID"
        case .cancel(let target): "CANCEL \(target.ssip)"
        case .stop(let target): "STOP \(target.ssip)"
        case .pause(let target): "PAUSE \(target.ssip)"
        case .resume(let target): "RESUME \(target.ssip)"
        case .listOutputModules: "LIST OUTPUT_MODULES"
        case .listVoices: "LIST VOICES"
        case .listSynthesisVoices(let language, let variant):
            ["LIST", "SYNTHESIS_VOICES", language, language == nil ? nil : variant].compactMap { $0 }.joined(separator: " ")
        case .blockBegin: "BLOCK BEGIN"
        case .blockEnd: "BLOCK END"
        case .help: "HELP"
        case .quit: "QUIT"
        }
    }
}
