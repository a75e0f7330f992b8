import NarratorBase
import NarratorEngines
import NarratorSpeechPlan

/// What an SSIP connection sends: lines, SPEAK's data, and commands.
extension SSIPServer {
    /// One CRLF-terminated line from an SSIP connection: a command, or a line of a SPEAK's data.
    /// `plan` is read for what the client has in flight (the gate) and written only through
    /// its messages; `stopping`: the daemon takes no new commands; `settings`: the user's, for the
    /// engine SSIP speech goes to and what counts as long text.
    public mutating func take(
        _ line: String, from client: ClientID, plan: inout SpeechPlan<SSIPMessage>, at now: MonotonicInstant, stopping: Bool,
        settings: SpeechSettings
    ) -> [Effect] {
        guard var state = clients[client] else { return [] }
        // Whatever the client sends next, it has returned from the call that read its last `225`.
        var effects = releaseEvents(of: client)
        if var reader = state.reader {
            let progress = reader.take(line)
            state.reader = reader
            switch progress {
            case .more:
                clients[client] = state
            case .complete(let text):
                let overflowed = state.readerOverflowed
                state.reader = nil
                state.readerOverflowed = false
                clients[client] = state
                if overflowed {
                    effects.append(.send(client, .reply(Self.messageTooLong(configuration.messageBytes))))
                } else if text.isEmpty {
                    effects.append(.send(client, .reply(.messageCanceled)))
                } else {
                    queue(
                        text, ssml: state.settings.ssmlMode, spelled: state.settings.spelling, command: .speak, from: client, plan: plan, at: now,
                        longTextWords: settings.longTextWords, into: &effects)
                }
            case .tooLong:
                state.reader = nil
                state.readerOverflowed = false
                clients[client] = state
                effects.append(.send(client, .reply(Self.messageTooLong(configuration.messageBytes))))
            }
            return effects
        }
        guard !stopping else {
            effects.append(.send(client, .reply(SSIPReply(401, "ERR NARRATORD IS STOPPING"))))
            return effects
        }
        switch SSIPCommandParser.parse(line) {
        case .success(let command): run(command, from: client, plan: &plan, at: now, settings: settings, into: &effects)
        case .failure(let reply): effects.append(.send(client, .reply(reply)))
        }
        return effects
    }

    /// A line the framing refused (longer than `--max-message`): inside a SPEAK the message is
    /// refused when its "." arrives; a command gets its error now.
    public mutating func refusedLine(from client: ClientID) -> [Effect] {
        guard clients[client] != nil else { return [] }
        if clients[client]?.reader != nil {
            clients[client]?.readerOverflowed = true
            return []
        }
        return [.send(client, .reply(.invalidCommand))]
    }

    // MARK: Commands

    private mutating func run(
        _ command: SSIPCommand, from client: ClientID, plan: inout SpeechPlan<SSIPMessage>, at now: MonotonicInstant, settings speech: SpeechSettings,
        into effects: inout [Effect]
    ) {
        guard let state = clients[client] else { return }
        func reply(_ reply: SSIPReply) { effects.append(.send(client, .reply(reply))) }
        func say(_ words: String, _ command: SSIPSpeechCommand) {
            queue(
                words, ssml: false, spelled: false, command: command, from: client, plan: plan, at: now, longTextWords: speech.longTextWords,
                into: &effects)
        }
        if state.inBlock && !command.isAllowedInsideBlock {
            return reply(.notAllowedInsideBlock)
        }
        switch command {
        case .speak:
            clients[client]?.reader = SSIPMessageReader(limit: configuration.messageBytes)
            reply(.receivingData)
        case .char(let character):
            say(SSIPWords.character(character), .char)
        case .key(let key):
            say(SSIPWords.key(key), .key)
        case .soundIcon(let icon):
            say(SSIPWords.soundIcon(icon), .soundIcon)
        case .set(let target, let setting):
            let targets = self.targets(target, from: client)
            guard !targets.isEmpty else { return reply(.couldNotSet(setting)) }
            for target in targets { clients[target]?.settings.apply(setting) }
            reply(.set(setting))
            if case .outputModule(let module) = setting, case let name = EngineName(module), name != .espeak, configuration.engines.engine(named: name) != nil {
                effects.append(.warmUp(engine: name))
            }
        case .get(let item):
            reply(.got(state.settings.value(of: item)))
        case .clientID:
            reply(.clientID(client.rawValue))
        case .cancel(let target):
            effects.append(.command("CANCEL \(target.ssip.lowercased())", client))
            let targets = self.targets(target, from: client)
            if targets.contains(client) { gate.cancelledOwnSpeech(client) }
            // Every SSIP message, also of clients that already left (spd-say -C silences an earlier spd-say).
            if case .all = target { effects.append(.cancelAll) }
            effects += targets.map(Effect.cancel)
            reply(.canceled)
        case .stop(let target):
            effects.append(.command("STOP \(target.ssip.lowercased())", client))
            let targets = self.targets(target, from: client)
            if targets.contains(client) { gate.cancelledOwnSpeech(client) }
            if case .all = target { effects.append(.stopAll) } else { effects += targets.map(Effect.stop) }
            reply(.stopped)
        case .pause(let target):
            for id in targets(target, from: client) { pause(id, plan: &plan, into: &effects) }
            reply(.paused)
        case .resume(let target):
            reply(.resumed)
            for id in targets(target, from: client) { resume(id, settings: speech, into: &effects) }
        case .listOutputModules:
            reply(.outputModules(configuration.engines.names.map(\.rawValue)))
        case .listVoices:
            reply(.voices(SSIPVoiceType.allCases.map(\.rawValue)))
        case .listSynthesisVoices(let language, let variant):
            reply(.synthesisVoices(in: voiceCatalog(for: state.settings, settings: speech), language: language, variant: variant))
        case .blockBegin:
            guard !state.inBlock else { return reply(.alreadyInsideBlock) }
            clients[client]?.inBlock = true
            reply(.blockBegin)
        case .blockEnd:
            guard state.inBlock else { return reply(.alreadyOutsideBlock) }
            clients[client]?.inBlock = false
            reply(.blockEnd)
        case .help:
            reply(.help)
        case .quit:
            reply(.bye)
            effects.append(.close(client))
        }
    }

    /// The SSIP connections a command addresses: itself, every one, or one by its id (none when
    /// that id is not an SSIP connection: `SET` answers 3xx, `CANCEL` and the others address
    /// nothing, as with Speech Dispatcher).
    private func targets(_ target: SSIPTarget, from client: ClientID) -> [ClientID] {
        switch target {
        case .own: [client]
        case .all: clients.keys.sorted()
        case .client(let number): clients[ClientID(rawValue: number)] != nil ? [ClientID(rawValue: number)] : []
        }
    }

    /// What `LIST SYNTHESIS_VOICES` lists for a client, as speech-dispatcher lists its output
    /// module's: the voices of the engine it chose (`OUTPUT_MODULE`), else of the engine the
    /// user's settings give SSIP speech, else eSpeak NG's with their variants.
    func voiceCatalog(for client: SSIPSettings, settings: SpeechSettings) -> VoiceCatalog {
        let name = client.outputModule.map { EngineName($0) } ?? settings.engine(for: .ssip)
        guard let name, name != .espeak, let engine = configuration.engines.engine(named: name) else { return configuration.catalog }
        return VoiceCatalog(voices: engine.voices, variants: [])
    }

    static func messageTooLong(_ limit: Int) -> SSIPReply {
        SSIPReply(419, "ERR MESSAGE TOO LONG (over \(limit) bytes; raise --max-message)")
    }
}
