import NarratorSSIP

/// What SSIP tests share: parsing a line to its command or its error reply's bytes.
enum SSIP {
    static func command(_ line: String) -> SSIPCommand? {
        try? SSIPCommandParser.parse(line).get()
    }

    /// The error reply's wire form, or nil when the line parsed.
    static func error(_ line: String) -> String? {
        if case .failure(let reply) = SSIPCommandParser.parse(line) { return reply.wire }
        return nil
    }

    /// The reply a one-connection server with `settings` sends to `line`, as the transcripts show
    /// it (client 1, next message 1). It exercises the reply constructors the session will use.
    static func answer(_ line: String, settings: inout SSIPSettings, client: UInt64 = 1, message: UInt64 = 1) -> String {
        switch SSIPCommandParser.parse(line) {
        case .failure(let reply): return reply.wire
        case .success(let command):
            switch command {
            case .speak: return SSIPReply.receivingData.wire
            case .char, .key, .soundIcon: return SSIPReply.messageQueued(id: message).wire
            case .set(.client(let id), let setting) where id != client: return SSIPReply.couldNotSet(setting).wire
            case .set(_, let setting):
                settings.apply(setting)
                return SSIPReply.set(setting).wire
            case .get(let what): return SSIPReply.got(settings.value(of: what)).wire
            case .clientID: return SSIPReply.clientID(client).wire
            case .cancel: return SSIPReply.canceled.wire
            case .stop: return SSIPReply.stopped.wire
            case .pause: return SSIPReply.paused.wire
            case .resume: return SSIPReply.resumed.wire
            case .listOutputModules: return SSIPReply.outputModules(["espeak-ng"]).wire
            case .listVoices: return SSIPReply.voiceTypes.wire
            case .listSynthesisVoices: return SSIPReply.synthesisVoices([]).wire
            case .blockBegin: return SSIPReply.blockBegin.wire
            case .blockEnd: return SSIPReply.blockEnd.wire
            case .help: return SSIPReply.help.wire
            case .quit: return SSIPReply.bye.wire
            }
        }
    }
}
