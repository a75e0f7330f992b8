import NarratorBase
import NarratorSpeechPlan

/// An SSIP message's life: acknowledged, judged, handed to speech, paused and resumed, ended.
extension SSIPServer {
    /// Acknowledges a message (`225`) and asks for it to be spoken, unless the client is paused
    /// (held) or the gate deduplicates or throttles it (logged, and `703` if asked for).
    mutating func queue(
        _ text: String, ssml: Bool, spelled: Bool, command: SSIPSpeechCommand, from client: ClientID, plan: SpeechPlan<SSIPMessage>,
        at now: MonotonicInstant, longTextWords: Int, into effects: inout [Effect]
    ) {
        guard let state = clients[client] else { return }
        let settings = state.settings
        let id = nextMessage
        nextMessage += 1
        let words = spelled && !ssml ? SSIPWords.spelled(text) : text
        let message = SSIPMessage(
            id: id, client: client, clientName: settings.clientName, priority: settings.priority, inBlock: state.inBlock, text: words,
            sent: Self.withoutTrailingNewlines(text), key: Announcement.normalizedKey(words), command: command, ssml: ssml, settings: settings,
            credentials: state.credentials, queuedAt: now)
        effects.append(.send(client, .reply(.messageQueued(id: id))))
        // Its events wait: the client registers this message's callback only once it read the `225`.
        eventHolds[client, default: SSIPEventHold(until: now)].until = now + SSIPEventHold.grace
        if state.paused {
            clients[client]?.held.append(message)
            return
        }
        if command.isJudged && configuration.policy.name != AnnouncementPolicy.none.name {
            let inFlight = plan.messages.filter { $0.message.client == client }.map(\.message.key)
            if let outcome = gate.judge(
                key: message.key, priority: message.priority, clientName: message.clientName, connection: client, inFlight: inFlight,
                policy: configuration.policy, at: now)
            {
                event(.cancel, .canceled(message: id, client: client.rawValue), for: message, at: now, into: &effects)
                effects.append(.log(row(for: message, outcome: outcome, startedAt: nil, interruptedBy: nil, at: now)))
                return
            }
        }
        effects.append(Self.speech(message, longTextWords: longTextWords))
    }

    /// How a message is spoken: inside a block, texts, notifications and progress reports queue
    /// like messages, so the block is heard whole (its rows keep the priority the client gave); a
    /// CHAR or KEY is a key echo, a long text may be held by one.
    static func speech(_ message: SSIPMessage, longTextWords: Int) -> Effect {
        let priority = message.inBlock && message.priority != .important ? MessagePriority.message : message.priority
        let key = message.command == .char || message.command == .key
        let route = SpeechRoute(kind: .ssip(priority), text: message.text, key: key, longTextWords: longTextWords)
        return .speak(message, priority, key ? .key : route == .long ? .longText : .none)
    }

    /// After `CANCEL` ended a client's messages in the plan: those it held end too.
    public mutating func cancelHeld(of client: ClientID, at now: MonotonicInstant) -> [Effect] {
        guard let held = clients[client]?.held, !held.isEmpty else { return [] }
        clients[client]?.held = []
        var effects: [Effect] = []
        for message in held {
            event(.cancel, .canceled(message: message.id, client: client.rawValue), for: message, at: now, into: &effects)
            effects.append(.log(row(for: message, outcome: .cancelled, startedAt: nil, interruptedBy: nil, at: now)))
        }
        return effects
    }

    /// `PAUSE`: what the client has playing stops (`704 PAUSED`) and is held, with what waits,
    /// until `RESUME`; it resumes from what the listener was hearing (``SSIPMessage/remainder``).
    mutating func pause(_ client: ClientID, plan: inout SpeechPlan<SSIPMessage>, into effects: inout [Effect]) {
        guard clients[client]?.paused == false else { return }
        clients[client]?.paused = true
        for (utterance, message) in plan.messages where message.client == client {
            plan.updateMessage(utterance) { $0.pausing = true }
        }
        effects.append(.pause(client))
    }

    /// `RESUME`: held messages go to speech in order (`705 RESUMED` with the one a pause cut).
    mutating func resume(_ client: ClientID, settings: SpeechSettings, into effects: inout [Effect]) {
        guard var state = clients[client], state.paused else { return }
        state.paused = false
        let held = state.held
        state.held = []
        clients[client] = state
        effects += held.map { Self.speech($0, longTextWords: settings.longTextWords) }
    }

    // MARK: What the listener hears

    /// The listener started hearing an utterance: `701 BEGIN` (after `705 RESUMED` if a pause cut it).
    public mutating func began(_ utterance: UtteranceID, plan: inout SpeechPlan<SSIPMessage>, at now: MonotonicInstant) -> [Effect] {
        guard let message = plan.message(utterance), !message.began else { return [] }
        plan.updateMessage(utterance) { $0.began = true }
        var effects: [Effect] = []
        if message.resumed { event(.resume, .resumed(message: message.id, client: message.client.rawValue), for: message, at: now, into: &effects) }
        event(.begin, .begin(message: message.id, client: message.client.rawValue), for: message, at: now, into: &effects)
        return effects
    }

    /// The listener started hearing the sentence at UTF-8 byte `offset` of the utterance's text:
    /// where a message a key echo stops goes on from (plain text; SSML goes on from its marks).
    public func reached(_ utterance: UtteranceID, offset: Int, plan: inout SpeechPlan<SSIPMessage>) {
        plan.updateMessage(utterance) { $0.sentence = offset }
    }

    /// The audio reached an index mark: `700 INDEX MARK`.
    public mutating func reached(_ utterance: UtteranceID, mark: String, plan: inout SpeechPlan<SSIPMessage>, at now: MonotonicInstant) -> [Effect] {
        guard let message = plan.message(utterance) else { return [] }
        plan.updateMessage(utterance) { $0.lastMark = mark }
        var effects: [Effect] = []
        event(.indexMarks, .indexMark(message: message.id, client: message.client.rawValue, mark: mark), for: message, at: now, into: &effects)
        return effects
    }

    /// What a plan step means to SSIP clients: each final event of one of their messages becomes
    /// `702 END`, `703 CANCELED` or (cut by its client's pause) `704 PAUSED`, sent only to the
    /// connection that sent it and only if it asked.
    public mutating func notice(_ notice: SpeechNotice, _ message: SSIPMessage, at now: MonotonicInstant) -> [Effect] {
        var message = message
        var effects: [Effect] = []
        switch notice.phase {
        case .queued, .started:
            break
        case .finished:
            if !message.began {
                // Too short for the player to report its start: the listener heard it begin and end.
                event(.begin, .begin(message: message.id, client: message.client.rawValue), for: message, at: now, into: &effects)
            }
            event(.end, .end(message: message.id, client: message.client.rawValue), for: message, at: now, into: &effects)
            gate.ended(key: message.key, clientName: message.clientName, at: now)
        case .interrupted where message.heldByKey:
            // A key echo stopped it, and the rest goes on after it: no event for this part.
            break
        case .interrupted, .dropped:
            if message.pausing, clients[message.client]?.paused == true {
                if message.began {
                    event(.pause, .paused(message: message.id, client: message.client.rawValue), for: message, at: now, into: &effects)
                    message = message.goingOn
                    message.resumed = true
                }
                message.began = false
                message.pausing = false
                clients[message.client]?.held.append(message)
            } else {
                event(.cancel, .canceled(message: message.id, client: message.client.rawValue), for: message, at: now, into: &effects)
            }
        }
        return effects
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
}
