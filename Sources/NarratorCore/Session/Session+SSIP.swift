import NarratorBase
import NarratorEngines
import NarratorSSIP
import NarratorSpeechPlan

/// Speech Dispatcher's protocol (SSIP): its connections are clients of the same session as the
/// JSON protocol's, and their messages go through the same speech plan, so the one voice,
/// its priorities, the dedup and throttling and the log are shared (docs/ssip.md).
extension Session {
    // MARK: Inputs

    mutating func connectSSIP(_ client: ClientID, _ credentials: Credentials) {
        let uid = configuration.uid
        guard admits(credentials) else {
            journal(.warning, "refused SSIP \(client): uid \(credentials.uid) (pid \(credentials.pid)) is not the daemon's user (uid \(uid))")
            sendSSIP(client, .reply(SSIPReply(530, "ERR PERMISSION DENIED: narratord serves only its own user (uid \(uid)) and root")))
            effects.append(.close(client))
            return
        }
        clients[client] = ClientRecord(id: client, credentials: credentials)
        ssipClients[client] = SSIPClient()
        journal(.debug, "\(client) connected over SSIP (pid \(credentials.pid))")
    }

    /// One CRLF-terminated line from an SSIP connection: a command, or a line of a SPEAK's data.
    mutating func ssipLine(_ line: String, from client: ClientID) {
        guard var state = ssipClients[client] else { return }
        // Whatever the client sends next, it has returned from the call that read its last `225`.
        if state.eventsHeldUntil != nil {
            state.eventsHeldUntil = nil
            ssipClients[client] = state
            releaseSSIPEvents(of: client)
        }
        if var reader = state.reader {
            let progress = reader.take(line)
            state.reader = reader
            switch progress {
            case .more:
                ssipClients[client] = state
            case .complete(let text):
                let overflowed = state.readerOverflowed
                state.reader = nil
                state.readerOverflowed = false
                ssipClients[client] = state
                if overflowed {
                    sendSSIP(client, .reply(Self.messageTooLong(configuration.limits.ssipMessageBytes)))
                } else if text.isEmpty {
                    sendSSIP(client, .reply(.messageCanceled))
                } else {
                    queueSSIP(text, ssml: state.settings.ssmlMode, spelled: state.settings.spelling, command: .speak, from: client)
                }
            case .tooLong:
                state.reader = nil
                state.readerOverflowed = false
                ssipClients[client] = state
                sendSSIP(client, .reply(Self.messageTooLong(configuration.limits.ssipMessageBytes)))
            }
            return
        }
        guard !isShutDown else {
            sendSSIP(client, .reply(SSIPReply(401, "ERR NARRATORD IS STOPPING")))
            return
        }
        switch SSIPCommandParser.parse(line) {
        case .success(let command): ssipCommand(command, from: client)
        case .failure(let reply): sendSSIP(client, .reply(reply))
        }
    }

    /// A line the framing refused (longer than `--max-message`): inside a SPEAK the message is
    /// refused when its "." arrives; a command gets its error now.
    mutating func ssipLineRefused(from client: ClientID) {
        guard ssipClients[client] != nil else { return }
        if ssipClients[client]?.reader != nil {
            ssipClients[client]?.readerOverflowed = true
        } else {
            sendSSIP(client, .reply(.invalidCommand))
        }
    }

    /// The connection is gone: a SPEAK it had not finished is dropped (nothing of it is spoken);
    /// what it queued before still plays, as Speech Dispatcher does (spd-say leaves at once);
    /// what it held paused is cancelled, since no one is left to resume it.
    mutating func disconnectSSIP(_ client: ClientID) {
        guard let state = ssipClients.removeValue(forKey: client) else { return }
        ssipGate.disconnected(client)
        ssipEventHolds[client] = nil
        for message in state.held {
            logSSIP(message, outcome: .cancelled, startedAt: nil, interruptedBy: .disconnect)
        }
    }

    /// The listener started hearing an utterance: `701 BEGIN`.
    mutating func ssipBegan(_ utterance: UtteranceID) {
        guard let message = plan.message(utterance), !message.began else { return }
        plan.updateMessage(utterance) { $0.began = true }
        if message.resumed { ssipEvent(.resume, .resumed(message: message.id, client: message.client.rawValue), for: message) }
        ssipEvent(.begin, .begin(message: message.id, client: message.client.rawValue), for: message)
    }

    /// The listener started hearing the sentence at UTF-8 byte `offset` of the utterance's text:
    /// where a message a key echo stops goes on from (plain text; SSML goes on from its marks).
    mutating func ssipReachedSentence(_ utterance: UtteranceID, _ offset: Int) {
        plan.updateMessage(utterance) { $0.sentence = offset }
    }

    /// The audio reached an index mark: `700 INDEX MARK`.
    mutating func ssipReachedMark(_ utterance: UtteranceID, _ mark: String) {
        guard let message = plan.message(utterance) else { return }
        plan.updateMessage(utterance) { $0.lastMark = mark }
        ssipEvent(.indexMarks, .indexMark(message: message.id, client: message.client.rawValue, mark: mark), for: message)
    }

    // MARK: Commands

    private mutating func ssipCommand(_ command: SSIPCommand, from client: ClientID) {
        guard let state = ssipClients[client] else { return }
        if state.inBlock && !command.isAllowedInsideBlock {
            sendSSIP(client, .reply(.notAllowedInsideBlock))
            return
        }
        switch command {
        case .speak:
            ssipClients[client]?.reader = SSIPMessageReader(limit: configuration.limits.ssipMessageBytes)
            sendSSIP(client, .reply(.receivingData))
        case .char(let character):
            queueSSIP(SSIPWords.character(character), ssml: false, spelled: false, command: .char, from: client)
        case .key(let key):
            queueSSIP(SSIPWords.key(key), ssml: false, spelled: false, command: .key, from: client)
        case .soundIcon(let icon):
            queueSSIP(SSIPWords.soundIcon(icon), ssml: false, spelled: false, command: .soundIcon, from: client)
        case .set(let target, let setting):
            let targets = ssipTargets(target, from: client)
            guard !targets.isEmpty else {
                sendSSIP(client, .reply(.couldNotSet(setting)))
                return
            }
            for target in targets { ssipClients[target]?.settings.apply(setting) }
            sendSSIP(client, .reply(.set(setting)))
            if case .outputModule(let module) = setting, case let name = EngineName(module), name != .espeak, configuration.engines.engine(named: name) != nil {
                effects.append(.warmUp(engine: name))
            }
        case .get(let item):
            sendSSIP(client, .reply(.got(state.settings.value(of: item))))
        case .clientID:
            sendSSIP(client, .reply(.clientID(client.rawValue)))
        case .cancel(let target):
            logCommand("CANCEL \(target.ssip.lowercased())", from: client)
            if ssipTargets(target, from: client).contains(client) { ssipGate.cancelledOwnSpeech(client) }
            if case .all = target {
                // Every SSIP message, also of clients that already left (spd-say -C silences an earlier spd-say).
                follow(plan.cancel(.cancelled, at: now) { Self.isSSIP($0) })
            }
            for id in ssipTargets(target, from: client) { cancelSSIP(of: id) }
            sendSSIP(client, .reply(.canceled))
        case .stop(let target):
            logCommand("STOP \(target.ssip.lowercased())", from: client)
            if ssipTargets(target, from: client).contains(client) { ssipGate.cancelledOwnSpeech(client) }
            if case .all = target {
                follow(plan.stopPlaying(at: now) { Self.isSSIP($0) })
            } else {
                for id in ssipTargets(target, from: client) { follow(plan.stopPlaying(at: now) { $0.client == id && Self.isSSIP($0) }) }
            }
            sendSSIP(client, .reply(.stopped))
        case .pause(let target):
            for id in ssipTargets(target, from: client) { pauseSSIP(id) }
            sendSSIP(client, .reply(.paused))
        case .resume(let target):
            sendSSIP(client, .reply(.resumed))
            for id in ssipTargets(target, from: client) { resumeSSIP(id) }
        case .listOutputModules:
            sendSSIP(client, .reply(.outputModules(configuration.engines.names.map(\.rawValue))))
        case .listVoices:
            sendSSIP(client, .reply(.voices(SSIPVoiceType.allCases.map(\.rawValue))))
        case .listSynthesisVoices(let language, let variant):
            sendSSIP(client, .reply(.synthesisVoices(in: voiceCatalog(for: state.settings), language: language, variant: variant)))
        case .blockBegin:
            guard !state.inBlock else { return sendSSIP(client, .reply(.alreadyInsideBlock)) }
            ssipClients[client]?.inBlock = true
            sendSSIP(client, .reply(.blockBegin))
        case .blockEnd:
            guard state.inBlock else { return sendSSIP(client, .reply(.alreadyOutsideBlock)) }
            ssipClients[client]?.inBlock = false
            sendSSIP(client, .reply(.blockEnd))
        case .help:
            sendSSIP(client, .reply(.help))
        case .quit:
            sendSSIP(client, .reply(.bye))
            effects.append(.close(client))
        }
    }

    /// The SSIP connections a command addresses: itself, every one, or one by its id (none when
    /// that id is not an SSIP connection: `SET` answers 3xx, `CANCEL` and the others address
    /// nothing, as with Speech Dispatcher).
    private func ssipTargets(_ target: SSIPTarget, from client: ClientID) -> [ClientID] {
        switch target {
        case .own: [client]
        case .all: ssipClients.keys.sorted()
        case .client(let number): ssipClients[ClientID(rawValue: number)] != nil ? [ClientID(rawValue: number)] : []
        }
    }

    private static func isSSIP(_ request: UtteranceRequest) -> Bool {
        if case .ssip = request.kind { return true }
        return false
    }

    /// A message's text for the log: `spd-say -e` (pipe mode) sends each line it reads with its
    /// newline, which is no part of what was said.
    static func withoutTrailingNewlines(_ text: String) -> String {
        var end = text.endIndex
        while end > text.startIndex, let last = text[..<end].unicodeScalars.last, last == "\n" || last == "\r" {
            end = text.unicodeScalars.index(before: end)
        }
        return String(text[..<end])
    }

    static func messageTooLong(_ limit: Int) -> SSIPReply {
        SSIPReply(419, "ERR MESSAGE TOO LONG (over \(limit) bytes; raise --max-message)")
    }

    // MARK: Messages

    /// Acknowledges a message (`225`) and hands it to speech, unless the client is paused
    /// (held) or the gate deduplicates or throttles it (logged, and `703` if asked for).
    private mutating func queueSSIP(_ text: String, ssml: Bool, spelled: Bool, command: SSIPSpeechCommand, from client: ClientID) {
        guard let state = ssipClients[client] else { return }
        let settings = state.settings
        let id = nextSSIPMessage
        nextSSIPMessage += 1
        let words = spelled && !ssml ? SSIPWords.spelled(text) : text
        let message = SSIPMessage(
            id: id, client: client, clientName: settings.clientName, priority: settings.priority, inBlock: state.inBlock, text: words,
            sent: Self.withoutTrailingNewlines(text), key: Announcement.normalizedKey(words), command: command, ssml: ssml, settings: settings,
            credentials: clients[client]?.credentials, queuedAt: now)
        sendSSIP(client, .reply(.messageQueued(id: id)))
        ssipClients[client]?.eventsHeldUntil = now + SSIPEventHold.grace
        ssipEventHolds[client]?.until = now + SSIPEventHold.grace
        if state.paused {
            ssipClients[client]?.held.append(message)
            return
        }
        if command.isJudged && configuration.policy.name != AnnouncementPolicy.none.name {
            let inFlight = plan.messages.filter { $0.message.client == client }.map(\.message.key)
            if let outcome = ssipGate.judge(
                key: message.key, priority: message.priority, clientName: message.clientName, connection: client, inFlight: inFlight,
                policy: configuration.policy, at: now)
            {
                ssipEvent(.cancel, .canceled(message: id, client: client.rawValue), for: message)
                logSSIP(message, outcome: outcome, startedAt: nil, interruptedBy: nil)
                return
            }
        }
        submitSSIP(message)
    }

    private mutating func submitSSIP(_ message: SSIPMessage) {
        let language = message.settings.speechLanguage
        // Inside a block, texts, notifications and progress reports queue like messages, so the
        // block is heard whole; its rows keep the priority the client gave.
        let priority = message.inBlock && message.priority != .important ? MessagePriority.message : message.priority
        let key = message.command == .char || message.command == .key
        let route = SpeechRoute(kind: .ssip(priority), text: message.text, key: key, longTextWords: settings.longTextWords)
        let echo: KeyEcho = key ? .key : route == .long ? .longText : .none
        // The message goes with its utterance: the step may already play it, in this message's voice.
        let (_, step) = plan.say(message, .ssip(priority), language: language, echo: echo, at: now)
        follow(step)
    }

    /// `CANCEL`: the client's messages end now, played or waiting, and so do those it held.
    private mutating func cancelSSIP(of client: ClientID) {
        follow(plan.cancel(.cancelled, at: now) { $0.client == client && Self.isSSIP($0) })
        guard let held = ssipClients[client]?.held, !held.isEmpty else { return }
        ssipClients[client]?.held = []
        for message in held {
            ssipEvent(.cancel, .canceled(message: message.id, client: client.rawValue), for: message)
            logSSIP(message, outcome: .cancelled, startedAt: nil, interruptedBy: nil)
        }
    }

    /// `PAUSE`: what the client has playing stops (`704 PAUSED`) and is held, with what waits,
    /// until `RESUME`; it resumes from what the listener was hearing (``SSIPMessage/remainder``).
    private mutating func pauseSSIP(_ client: ClientID) {
        guard ssipClients[client]?.paused == false else { return }
        ssipClients[client]?.paused = true
        for (utterance, message) in plan.messages where message.client == client {
            plan.updateMessage(utterance) { $0.pausing = true }
        }
        follow(plan.cancel(.paused, at: now) { $0.client == client && Self.isSSIP($0) })
    }

    /// `RESUME`: held messages go to speech in order (`705 RESUMED` with the one a pause cut).
    private mutating func resumeSSIP(_ client: ClientID) {
        guard var state = ssipClients[client], state.paused else { return }
        state.paused = false
        let held = state.held
        state.held = []
        ssipClients[client] = state
        for message in held { submitSSIP(message) }
    }

    /// What a plan step means to SSIP clients: each final event of one of their messages becomes
    /// `702 END`, `703 CANCELED` or (cut by its client's pause) `704 PAUSED`, sent only to the
    /// connection that sent it and only if it asked.
    mutating func noticeSSIP(_ notice: SpeechNotice, _ message: SSIPMessage) {
        var message = message
        switch notice.phase {
        case .queued, .started:
            return
        case .finished:
            if !message.began {
                // Too short for the player to report its start: the listener heard it begin and end.
                ssipEvent(.begin, .begin(message: message.id, client: message.client.rawValue), for: message)
            }
            ssipEvent(.end, .end(message: message.id, client: message.client.rawValue), for: message)
            ssipGate.ended(key: message.key, clientName: message.clientName, at: now)
        case .interrupted where message.heldByKey:
            // A key echo stopped it, and the rest goes on after it: no event for this part.
            return
        case .interrupted, .dropped:
            if message.pausing, ssipClients[message.client]?.paused == true {
                if message.began {
                    ssipEvent(.pause, .paused(message: message.id, client: message.client.rawValue), for: message)
                    message = message.goingOn
                    message.resumed = true
                }
                message.began = false
                message.pausing = false
                ssipClients[message.client]?.held.append(message)
            } else {
                ssipEvent(.cancel, .canceled(message: message.id, client: message.client.rawValue), for: message)
            }
        }
    }

    /// The log row of an SSIP message's life (kind `ssip`, with its client's name and priority).
    func ssipRow(_ record: SpeechRecord, _ message: SSIPMessage) -> LogRow {
        var row = LogRow(record, policy: configuration.policy.name, seconds: seconds)
        fill(&row, with: message)
        // Stopped by a key echo; the rest is another row, after the key's.
        if message.heldByKey { row.interruptedBy = .key }
        if message.pausing {
            // Cut while the listener heard it: interrupted, as a newer message's cut is. One still
            // waiting was only withdrawn (cancelled). Either plays again after RESUME, with a row of its own.
            row.interruptedBy = .pause
            if record.startedAt != nil { row.outcome = .ended(.interrupted) }
        }
        return row
    }

    private mutating func logSSIP(_ message: SSIPMessage, outcome: AnnouncementOutcome, startedAt: MonotonicInstant?, interruptedBy: LogRow.Interruption?) {
        var row = LogRow(
            kind: .ssip, text: message.sent, policy: configuration.policy.name, queuedAt: seconds(message.queuedAt),
            startedAt: startedAt.map(seconds), endedAt: seconds(now), outcome: .ended(outcome), interruptedBy: interruptedBy)
        fill(&row, with: message)
        effects.append(.appendLog(row, nil))
    }

    private func fill(_ row: inout LogRow, with message: SSIPMessage) {
        row.kind = .ssip
        row.text = message.sent
        row.priority = message.priority.rawValue
        row.clientName = message.clientName
        row.clientPID = message.credentials.map { Int64($0.pid) }
        row.clientUID = message.credentials.map { Int64($0.uid) }
        row.dedupKey = message.key
        row.connection = Int64(message.client.rawValue)
        row.command = message.command.rawValue
    }

    // MARK: Effects

    mutating func sendSSIP(_ client: ClientID, _ output: SSIPOutput) {
        effects.append(.sendSSIP(client, output))
    }

    /// Sends an event about `message` to the connection that sent it, if it is still connected
    /// and asked for this kind of event; held, behind any held before it, while the connection
    /// may not yet have registered its callback (``SSIPEventHold``).
    private mutating func ssipEvent(_ kind: SSIPEventKind, _ event: SSIPEvent, for message: SSIPMessage) {
        let client = message.client
        guard let state = ssipClients[client], state.settings.notifications.contains(kind) else { return }
        if ssipEventHolds[client] != nil {
            ssipEventHolds[client]?.events.append(event)
        } else if let until = state.eventsHeldUntil, now < until {
            ssipEventHolds[client] = SSIPEventHold(until: until, events: [event])
        } else {
            sendSSIP(client, .event(event))
        }
    }

    /// Sends a connection's held events, in order.
    private mutating func releaseSSIPEvents(of client: ClientID) {
        guard let hold = ssipEventHolds.removeValue(forKey: client) else { return }
        for event in hold.events { sendSSIP(client, .event(event)) }
    }

    /// The timer: every hold whose grace has passed lets its events go.
    mutating func releaseSSIPEvents(dueBy now: MonotonicInstant) {
        for (client, hold) in ssipEventHolds.sorted(by: { $0.key < $1.key }) where hold.until <= now {
            ssipClients[client]?.eventsHeldUntil = nil
            releaseSSIPEvents(of: client)
        }
    }
}

extension Session {
    /// What `LIST SYNTHESIS_VOICES` lists for a client, as speech-dispatcher lists its output
    /// module's: the voices of the engine it chose (`OUTPUT_MODULE`), else of the engine the
    /// user's settings give SSIP speech, else eSpeak NG's with their variants.
    func voiceCatalog(for settings: SSIPSettings) -> VoiceCatalog {
        let name = settings.outputModule.map { EngineName($0) } ?? self.settings.engine(for: .ssip)
        guard let name, name != SpeechEngines.espeak, let engine = configuration.engines.engine(named: name) else { return configuration.catalog }
        return VoiceCatalog(voices: engine.voices, variants: [])
    }
}

