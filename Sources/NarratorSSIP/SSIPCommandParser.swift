/// Parses SSIP command lines into ``SSIPCommand``s, or into the error reply speech-dispatcher
/// 0.11.4 gives the same line (its recorded replies are the SSIP tests' expectations).
public enum SSIPCommandParser {
    /// One command line (without its CRLF). Commands are case-insensitive; arguments keep their case.
    public static func parse(_ line: String) -> Result<SSIPCommand, SSIPReply> {
        do {
            return .success(try command(SSIPLine(line)))
        } catch {
            return .failure(error)
        }
    }

    static func command(_ line: SSIPLine) throws(SSIPReply) -> SSIPCommand {
        guard let name = line.keyword(0) else { throw .invalidCommand }
        switch name {
        case "speak": return .speak
        case "char": return .char(try required(line[1]))
        case "key": return .key(try required(line[1]))
        case "sound_icon": return .soundIcon(try required(line[1]))
        case "set": return try set(line)
        case "get": return .get(try gettable(line))
        case "history": return try history(line)
        case "cancel": return .cancel(try speechTarget(line))
        case "stop": return .stop(try speechTarget(line))
        case "pause": return .pause(try speechTarget(line))
        case "resume": return .resume(try speechTarget(line))
        case "list": return try list(line)
        case "block":
            switch try required(line.keyword(1)) {
            case "begin": return .blockBegin
            case "end": return .blockEnd
            default: throw .invalidParameter
            }
        case "help": return .help
        case "quit", "bye": return .quit
        default: throw .invalidCommand
        }
    }

    static func required(_ word: String?) throws(SSIPReply) -> String {
        guard let word else { throw .missingParameter }
        return word
    }

    /// CANCEL, STOP, PAUSE, RESUME: a client id of 0 or below (or too large to be one) does not exist.
    static func speechTarget(_ line: SSIPLine) throws(SSIPReply) -> SSIPTarget {
        let word = try required(line[1])
        if let target = namedTarget(line.keyword(1)) { return target }
        switch SSIPNumber(word) {
        case .value(let n) where n > 0: return .client(UInt64(n))
        case .value, .tooHigh, .tooLow: throw .idDoesNotExist
        case nil: throw .invalidParameter
        }
    }

    static func namedTarget(_ keyword: String?) -> SSIPTarget? {
        switch keyword {
        case "self": .own
        case "all": .all
        default: nil
        }
    }

    static func gettable(_ line: SSIPLine) throws(SSIPReply) -> SSIPGettable {
        let word = try required(line.keyword(1))
        guard let what = SSIPGettable.allCases.first(where: { $0.ssip.lowercased() == word }) else { throw .invalidParameter }
        return what
    }

    static func list(_ line: SSIPLine) throws(SSIPReply) -> SSIPCommand {
        switch try required(line.keyword(1)) {
        case "output_modules": return .listOutputModules
        case "voices": return .listVoices
        case "synthesis_voices": return .listSynthesisVoices(language: line[2], variant: line[3])
        default: throw .invalidParameter
        }
    }

    /// narratord keeps no history: only `HISTORY GET CLIENT_ID` is a command; the rest get the
    /// reply speech-dispatcher gives with an empty history.
    static func history(_ line: SSIPLine) throws(SSIPReply) -> SSIPCommand {
        switch try required(line.keyword(1)) {
        case "get":
            switch try required(line.keyword(2)) {
            case "client_id": return .clientID
            case "client_list": throw .notImplemented
            case "client_messages":
                let who = try required(line.keyword(3))
                if who != "self", who != "all", SSIPNumber(who) == nil { throw .notANumber }
                throw .notImplemented
            case "last": throw .noMessage
            case "message":
                _ = try integer(line[3])
                throw .notImplemented
            default: throw .missingParameter
            }
        case "cursor":
            switch try required(line.keyword(2)) {
            case "set":
                _ = try integer(line[3])
                _ = try required(line[4])
                throw .noMessage
            case "forward", "backward", "get": throw .noMessage
            default: throw .missingParameter
            }
        case "say":
            _ = try integer(line[2])
            throw .idDoesNotExist
        case "sort": throw .notImplemented
        default: throw .invalidCommand
        }
    }

    /// A number where one is required: 510 when missing, 511 when not digits (with an optional "-").
    static func integer(_ word: String?) throws(SSIPReply) -> SSIPNumber {
        guard let number = SSIPNumber(try required(word)) else { throw .notANumber }
        return number
    }
}
