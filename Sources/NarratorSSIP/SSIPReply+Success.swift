import NarratorSpeechPlan

/// The replies of commands that worked, worded byte for byte as speech-dispatcher 0.11.4 sends them.
extension SSIPReply {
    /// The reply to a SET that took effect: 201..220 or 263, by parameter.
    public static func set(_ setting: SSIPSetting) -> SSIPReply { set(setting.name) }

    /// The reply to a SET that took effect, by parameter name.
    public static func set(_ name: SSIPSettingName) -> SSIPReply {
        let reply = name.okReply
        return SSIPReply(reply.code, reply.text)
    }

    /// A message, key, character or sound icon was queued under this id.
    public static func messageQueued(id: UInt64) -> SSIPReply { SSIPReply(225, "OK MESSAGE QUEUED", data: [String(id)]) }
    /// After SPEAK: the client sends the message, ended by a line holding only ".".
    public static let receivingData = SSIPReply(230, "OK RECEIVING DATA")
    /// An empty message (just "."): nothing is queued.
    public static let messageCanceled = SSIPReply(227, "OK MESSAGE CANCELED")
    public static let canceled = SSIPReply(213, "OK CANCELED")
    public static let stopped = SSIPReply(210, "OK STOPPED")
    public static let paused = SSIPReply(211, "OK PAUSED")
    public static let resumed = SSIPReply(212, "OK RESUMED")
    /// QUIT's answer; the server then closes the connection.
    public static let bye = SSIPReply(231, "HAPPY HACKING")
    /// `HISTORY GET CLIENT_ID`: python3-speechd reads the first data line as an integer.
    public static func clientID(_ id: UInt64) -> SSIPReply { SSIPReply(245, "OK CLIENT ID SENT", data: [String(id)]) }
    /// GET's answer, the value as one data line.
    public static func got(_ value: String) -> SSIPReply { SSIPReply(251, "OK GET RETURNED", data: [value]) }
    public static let blockBegin = SSIPReply(260, "OK INSIDE BLOCK")
    public static let blockEnd = SSIPReply(261, "OK OUTSIDE BLOCK")
    public static func outputModules(_ modules: [String]) -> SSIPReply { SSIPReply(250, "OK MODULE LIST SENT", data: modules) }
    /// `LIST VOICES`: the generic voice types.
    public static func voices(_ names: [String]) -> SSIPReply { SSIPReply(249, "OK VOICE LIST SENT", data: names) }
    /// `LIST VOICES` as speech-dispatcher answers it: every ``SSIPVoiceType``.
    public static let voiceTypes = voices(SSIPVoiceType.allCases.map(\.rawValue))
    /// `LIST SYNTHESIS_VOICES`: one `name\tlanguage\tvariant` line per voice.
    public static func synthesisVoices(_ voices: [SSIPVoice]) -> SSIPReply {
        SSIPReply(249, "OK VOICE LIST SENT", data: voices.map(\.ssipLine))
    }
    /// `LIST SYNTHESIS_VOICES [language [variant]]`: every voice and variant of `catalog` that the
    /// arguments keep (see ``SSIPVoice/lines(in:language:variant:)``).
    public static func synthesisVoices(in catalog: VoiceCatalog, language: String?, variant: String?) -> SSIPReply {
        SSIPReply(249, "OK VOICE LIST SENT", data: SSIPVoice.lines(in: catalog, language: language, variant: variant))
    }

    /// HELP's answer, with speech-dispatcher's trailing spaces.
    public static let help = SSIPReply(248, "OK HELP SENT", data: [
        "  SPEAK           -- say text ",
        "  KEY             -- say a combination of keys ",
        "  CHAR            -- say a character ",
        "  SOUND_ICON      -- execute a sound icon ",
        "  SET             -- set a parameter ",
        "  GET             -- get a current parameter ",
        "  LIST            -- list available arguments ",
        "  HISTORY         -- commands related to history ",
        "  QUIT            -- close the connection ",
    ])
}
