import NarratorSpeechPlan

/// `SET <target> <PARAMETER> <value...>`, checked in speech-dispatcher's order: target, then
/// parameter, then value, so that each bad line gets the error it gives.
extension SSIPCommandParser {
    static func set(_ line: SSIPLine) throws(SSIPReply) -> SSIPCommand {
        let targetWord = try required(line[1])
        let target: SSIPTarget
        if let named = namedTarget(line.keyword(1)) {
            target = named
        } else if case .value(let n)? = SSIPNumber(targetWord), n >= 0 {
            target = .client(UInt64(n))
        } else {
            throw .invalidParameter
        }
        let parameter = try required(line.keyword(2))
        guard let name = SSIPSettingName.allCases.first(where: { $0.ssip.lowercased() == parameter }) else { throw .invalidCommand }
        return .set(target, try setting(name, target: target, line))
    }

    static func setting(_ name: SSIPSettingName, target: SSIPTarget, _ line: SSIPLine) throws(SSIPReply) -> SSIPSetting {
        switch name {
        case .clientName:
            // Only a connection names itself.
            guard target == .own else { throw .invalidParameter }
            return .clientName(unquoted(try required(line[3])))
        case .priority:
            // Only a connection sets its own priority; speech-dispatcher says so before reading the value.
            guard target == .own else { throw .couldNotSet(.priority) }
            guard let priority = MessagePriority(ssip: try required(line[3])) else { throw .unknownPriority }
            return .priority(priority)
        case .language: return .language(try required(line[3]))
        case .rate: return .rate(try ranged(.rate, line[3]))
        case .pitch: return .pitch(try ranged(.pitch, line[3]))
        case .pitchRange: return .pitchRange(try ranged(.pitchRange, line[3]))
        case .volume: return .volume(try ranged(.volume, line[3]))
        case .pauseContext:
            switch try integer(line[3]) {
            case .value(let n): return .pauseContext(n)
            case .tooHigh: return .pauseContext(Int.max)
            case .tooLow: return .pauseContext(Int.min)
            }
        case .punctuation:
            let word = try required(line.keyword(3))
            guard let mode = SSIPPunctuation(rawValue: word) else { throw .invalidParameter }
            return .punctuation(mode)
        case .capitalLetters:
            let word = try required(line.keyword(3))
            guard let mode = SSIPCapitalLetters(rawValue: word) else { throw .invalidParameter }
            return .capitalLetters(mode)
        case .spelling: return .spelling(try onOff(line.keyword(3)))
        case .ssmlMode: return .ssmlMode(try onOff(line.keyword(3)))
        case .voiceType:
            let word = try required(line.keyword(3))
            guard let voice = SSIPVoiceType.allCases.first(where: { $0.rawValue.lowercased() == word }) else { throw .couldNotSet(.voiceType) }
            return .voiceType(voice)
        case .synthesisVoice: return .synthesisVoice(try required(line.rest(from: 3)))
        case .outputModule: return .outputModule(try required(line[3]))
        case .notification:
            guard target == .own else { throw .invalidParameter }
            let scope = try required(line.keyword(3))
            let on: Bool
            switch try required(line.keyword(4)) {
            case "on": on = true
            case "off": on = false
            default: throw .invalidParameter
            }
            if scope == "all" { return .notification(nil, on) }
            guard let kind = SSIPEventKind(rawValue: scope) else { throw .couldNotSet(.notification) }
            return .notification(kind, on)
        }
    }

    /// RATE, PITCH, PITCH_RANGE, VOLUME: -100...100, else the parameter's own too-high or too-low error.
    static func ranged(_ name: SSIPSettingName, _ word: String?) throws(SSIPReply) -> Int {
        switch try integer(word).within(-100...100) {
        case .success(let n): return n
        case .failure(let side): throw SSIPReply.outOfRange(name, tooHigh: side == .high) ?? .invalidParameter
        }
    }

    static func onOff(_ word: String?) throws(SSIPReply) -> Bool {
        switch try required(word) {
        case "on": return true
        case "off": return false
        default: throw .notOnOrOff
        }
    }

    /// spd-say quotes its client name; python's client does not.
    static func unquoted(_ word: String) -> String {
        let scalars = word.unicodeScalars
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return word }
        return String(scalars.dropFirst().dropLast())
    }
}
