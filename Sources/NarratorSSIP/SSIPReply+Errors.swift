/// The error replies, worded byte for byte as speech-dispatcher 0.11.4 sends them.
extension SSIPReply {
    /// The value was understood but not applied (3xx): no such client, unknown voice type or event kind.
    public static func couldNotSet(_ setting: SSIPSetting) -> SSIPReply { couldNotSet(setting.name) }

    /// The value was not applied, by parameter name.
    public static func couldNotSet(_ name: SSIPSettingName) -> SSIPReply {
        let reply = name.failureReply
        return SSIPReply(reply.code, reply.text)
    }

    /// A number outside -100...100 for RATE, PITCH, PITCH_RANGE or VOLUME (409..416); nil for
    /// the other parameters, which have no range. speech-dispatcher words VOLUME's two as PITCH's
    /// (its msg.h), and clients only look at the code.
    public static func outOfRange(_ name: SSIPSettingName, tooHigh: Bool) -> SSIPReply? {
        switch (name, tooHigh) {
        case (.rate, true): SSIPReply(409, "ERR RATE TOO HIGH")
        case (.rate, false): SSIPReply(410, "ERR RATE TOO LOW")
        case (.pitch, true): SSIPReply(411, "ERR PITCH TOO HIGH")
        case (.pitch, false): SSIPReply(412, "ERR PITCH TOO LOW")
        case (.volume, true): SSIPReply(413, "ERR PITCH TOO HIGH")
        case (.volume, false): SSIPReply(414, "ERR PITCH TOO LOW")
        case (.pitchRange, true): SSIPReply(415, "ERR PITCH RANGE TOO HIGH")
        case (.pitchRange, false): SSIPReply(416, "ERR PITCH RANGE TOO LOW")
        default: nil
        }
    }

    public static let rateTooHigh = SSIPReply(409, "ERR RATE TOO HIGH")
    public static let rateTooLow = SSIPReply(410, "ERR RATE TOO LOW")
    public static let unknownPriority = SSIPReply(408, "ERR UNKNOWN PRIORITY")

    /// Unknown command, unknown SET parameter, empty line.
    public static let invalidCommand = SSIPReply(500, "ERR INVALID COMMAND")
    /// A message or event that is not UTF-8.
    public static let invalidEncoding = SSIPReply(501, "ERR INVALID ENCODING")
    public static let missingParameter = SSIPReply(510, "ERR MISSING PARAMETER")
    public static let notANumber = SSIPReply(511, "ERR PARAMETER NOT A NUMBER")
    /// SPELLING and SSML_MODE take only `on` or `off`.
    public static let notOnOrOff = SSIPReply(513, "ERR PARAMETER NOT ON OR OFF")
    /// An unknown target, GET or LIST parameter, punctuation or capital-letter mode.
    public static let invalidParameter = SSIPReply(514, "ERR PARAMETER INVALID")

    /// The history commands narratord does not keep (`HISTORY GET CLIENT_LIST`, `SORT`, ...).
    public static let notImplemented = SSIPReply(380, "ERR NOT YET IMPLEMENTED")
    /// `HISTORY GET LAST` and cursor commands: there is no history.
    public static let noMessage = SSIPReply(403, "ERR NO MESSAGE")
    /// `HISTORY SAY n`, or CANCEL/STOP/PAUSE/RESUME of client 0 or below.
    public static let idDoesNotExist = SSIPReply(406, "ERR ID DOESNT EXIST")
    public static let alreadyInsideBlock = SSIPReply(330, "ERR ALREADY INSIDE BLOCK")
    public static let alreadyOutsideBlock = SSIPReply(331, "ERR ALREADY OUTSIDE BLOCK")
    /// Some commands (HISTORY, STOP, CANCEL, GET, LIST, SET PRIORITY ...) are refused between BLOCK BEGIN and END.
    public static let notAllowedInsideBlock = SSIPReply(332, "ERR NOT ALLOWED INSIDE BLOCK")
    public static let internalError = SSIPReply(300, "ERR INTERNAL")
}
