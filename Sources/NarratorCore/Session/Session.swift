import NarratorBase
import NarratorModel

/// Everything narratord decides, as one pure state machine: the registered trees and the focus,
/// the connections and what they own, the limits, the speech plan (announcement queue, scheduler,
/// every utterance in flight), the speech settings, and the replies that wait for a log commit.
///
/// It is driven by typed inputs only (``SessionInput``), each with the instant it happened on the
/// monotonic clock, and acts only by returning effects (``SessionEffect``): replies and events
/// to send, speech to play or stop, log rows to write, a timer to set. No sockets, threads, audio
/// or disk: the daemon's shells carry the effects out and feed back what happened, so every
/// scenario runs in a test on a virtual clock exactly as it runs in the daemon. The JSON protocol
/// is one front end; others (an SSIP server, an AT-SPI bridge) plug in as further inputs and effects.
public struct Session: Sendable {
    public let configuration: SessionConfiguration
    public internal(set) var workspace: Workspace
    public internal(set) var plan: SpeechPlan<SSIPMessage>
    public internal(set) var settings: SpeechSettings {
        didSet { chosenVoice = settings.chosenVoice(installed: configuration.catalog) }
    }
    /// The user's voice setting as the engine selects it (a voice, or a language's voice).
    private(set) var chosenVoice: VoiceChoice? {
        didSet { if chosenVoice != oldValue { voicesByLanguage.removeAll() } }
    }
    /// The voice each language was read in under ``chosenVoice`` (see `voice(for:)`).
    var voicesByLanguage: [String: VoiceChoice] = [:]
    public internal(set) var output: OutputStatus
    /// Each engine process's health, as its supervisor last said (eSpeak NG's is always ready).
    public internal(set) var engineHealth: [String: EngineHealth] = [:]
    public internal(set) var log: LogHealth
    var clients: [ClientID: ClientRecord] = [:]
    /// The connected clients that receive speech events (narratorctl monitor), in order.
    var subscribers: [ClientID] = []
    /// The connection that registered each tree, while it is connected: the one record of who
    /// owns what (a connection's own trees are read from it, ``trees(ownedBy:)``).
    var owners: [String: ClientID] = [:]
    /// Trees removed when their owner disconnects.
    var ephemeral: Set<String> = []
    /// Trees whose owner asked to hear where users move the focus (`focus_events`).
    var focusEventTrees: Set<String> = []
    /// Announce replies waiting for their row's commit.
    var awaitingCommit: [Ticket: (client: ClientID, id: JSONValue?, report: AnnounceReport)] = [:]
    /// `set` requests (or the daemon's own changes) waiting for the settings file to be written,
    /// and what waits on them.
    var settingsWrites = SettingsWrites()
    /// The Speech Dispatcher (SSIP) front end; its messages in flight live with their utterances
    /// in the plan.
    var ssip: SSIPServer
    private var nextTicket: UInt64 = 1
    var nextAnnouncement: UInt64 = 1
    /// When the one timer is due, if it is set: the session owns the timer. It decides the
    /// deadline (the plan's next one) and says so only when it changes (`setTimer`, `cancelTimer`),
    /// and learns it fired from `timerFired`; its shell keeps nothing of it but the handle its
    /// loop needs to cancel it.
    private var timer: MonotonicInstant?
    /// Set by `shutdown`: every outcome is final, and speech reports that come later change nothing.
    private(set) var isShutDown = false
    /// Utterances some of whose audio went to null because the sound server was gone or stalled:
    /// played to their end, they are logged `inaudible`, not `spoken`.
    var inaudible: Set<UtteranceID> = []
    /// The speech started by the current batch of inputs and not stopped by it, in order: handed
    /// out as `play` effects when the batch ends, so that an utterance the same batch also stopped
    /// (a burst of SSIP texts, each cutting the last) is never given to the player at all.
    var unplayed: [PlayRequest] = []
    /// The effects of the input being handled, in order.
    var effects: [SessionEffect] = []
    /// The instant of the input being handled.
    var now: MonotonicInstant

    /// - Parameters:
    ///   - settings: the saved speech settings (with the start-up options applied).
    ///   - output: the audio output's status at start-up.
    ///   - log: the log writer's status at start-up (its highest announcement id numbers new ones).
    public init(configuration: SessionConfiguration, settings: SpeechSettings, output: OutputStatus, log: LogHealth) {
        self.configuration = configuration
        self.settings = settings
        chosenVoice = settings.chosenVoice(installed: configuration.catalog)
        self.output = output
        self.log = log
        for engine in configuration.otherEngines { engineHealth[engine.name] = .notStarted }
        self.now = configuration.startedAt
        workspace = Workspace(decoder: TreeDocumentDecoder(limits: configuration.limits.document))
        plan = SpeechPlan(policy: configuration.policy, configuration: settings.schedulerConfiguration)
        for (tree, policy) in configuration.treePolicies { plan.setPolicy(policy, forTree: tree) }
        nextAnnouncement = UInt64(max(0, log.lastAnnouncementID)) + 1
        ssip = SSIPServer(
            configuration: SSIPServer.Configuration(
                uid: configuration.uid, messageBytes: configuration.limits.ssipMessageBytes, policy: configuration.policy,
                engines: configuration.engines, catalog: configuration.catalog, wallClockOffset: configuration.wallClockOffset))
    }

    /// Takes one input at `now` and returns what to do about it, in order.
    ///
    /// The input is taken, not borrowed: a register request's document then lives only until
    /// its tree is decoded.
    public mutating func handle(_ input: consuming SessionInput, at now: MonotonicInstant) -> [SessionEffect] {
        self.now = max(self.now, now)
        switch consume input {
        case .connected(let client, let credentials):
            connect(client, credentials)
        case .request(let client, let decoded):
            takeInOrder(.request(.decoded(decoded)), from: client)
        case .prepared(let client, let prepared):
            takeInOrder(.request(prepared), from: client)
        case .ssipConnected(let client, let credentials):
            carryOut(ssip.connect(client, credentials))
        case .ssipLine(let client, let line):
            let (now, stopping, settings) = (self.now, isShutDown, settings)
            carryOut(ssip.take(line, from: client, plan: &plan, at: now, stopping: stopping, settings: settings))
        case .speechBegan(let utterance):
            guard !isShutDown else { break }
            let now = self.now
            carryOut(ssip.began(utterance, plan: &plan, at: now))
        case .speechReachedMark(let utterance, let mark):
            guard !isShutDown else { break }
            let now = self.now
            carryOut(ssip.reached(utterance, mark: mark, plan: &plan, at: now))
        case .speechReached(let utterance, let offset):
            guard !isShutDown else { break }
            ssip.reached(utterance, offset: offset, plan: &plan)
        case .rejectedLine(let client, _) where ssip.serves(client):
            carryOut(ssip.refusedLine(from: client))
        case .rejectedLine(let client, let problem):
            takeInOrder(.rejected(problem), from: client)
        case .disconnected(let client) where ssip.serves(client):
            carryOut(ssip.disconnect(client, at: self.now))
        case .disconnected(let client):
            takeInOrder(.disconnect, from: client)
        case .speechEnded(let utterance, let problem):
            guard !isShutDown else { break }
            if let problem {
                journal(.warning, "speech \(utterance) could not be played to its end: \(problem)")
                follow(plan.failed(utterance, at: self.now))
            } else {
                follow(plan.finished(utterance, at: self.now))
            }
        case .outputChanged(let status):
            outputChanged(status)
        case .engineChanged(let engine, let health):
            engineChanged(engine, health)
        case .timerFired:
            timer = nil
            expireSettingsWrites()
            carryOut(ssip.releaseEvents(dueBy: self.now))
            guard !isShutDown else { break }
            follow(plan.tick(at: self.now))
        case .logWritten(let ticket, let result):
            logWritten(ticket, result)
        case .logHealth(let health):
            if let aside = health.setAside, aside != log.setAside { journal(.warning, Self.setAsideMessage(aside, log: health.path)) }
            log = health
            nextAnnouncement = max(nextAnnouncement, UInt64(max(0, health.lastAnnouncementID)) + 1)
        case .settingsSaved(let ticket, let result):
            settingsSaved(ticket, result)
        case .changeSetting(let key, let value):
            guard !isShutDown else { break }
            changeOwnSetting(key, to: value)
        case .shutdown:
            shutDown()
        case .batchEnded:
            for request in unplayed {
                if !output.reachesListener { inaudible.insert(request.utterance.id) }
                effects.append(.play(request))
            }
            unplayed.removeAll(keepingCapacity: true)
        }
        armTimer()
        defer { effects.removeAll(keepingCapacity: true) }
        return effects
    }

    /// What a connection sent, unless it is to wait behind the connection's `set` (see `Session+Settings`).
    mutating func takeInOrder(_ input: consuming SettingsWrites.Held, from client: ClientID) {
        if holdBehindSet(input, from: client) { return }
        switch consume input {
        case .request(let request): take(request, from: client)
        case .rejected(let problem): rejected(problem, from: client)
        case .disconnect: disconnect(client)
        }
    }

    /// A line the framing refused: the connection is told, and goes on.
    private mutating func rejected(_ problem: LineProblem, from client: ClientID) {
        guard clients[client] != nil else { return }
        switch problem {
        case .tooLong(let limit):
            send(client, Reply(id: nil, .failure(ReplyError(.messageTooLong, "request longer than \(limit) bytes; it was discarded"))))
        case .invalidUTF8:
            send(client, Reply(id: nil, .failure(ReplyError(.invalidUTF8, "request is not valid UTF-8; it was discarded"))))
        }
    }

    /// A request, unless its connection is gone or the daemon is stopping.
    private mutating func take(_ request: consuming PreparedRequest, from client: ClientID) {
        guard clients[client] != nil else { return }
        guard !isShutDown else {
            // Nothing new is taken once every outcome is final; the connection closes soon.
            send(client, Reply(id: request.id, .failure(ReplyError(.shuttingDown, "narratord is stopping and takes no new requests"))))
            return
        }
        respond(to: request, from: client)
    }

    // MARK: Effects

    mutating func send(_ client: ClientID, _ reply: Reply) {
        effects.append(.send(client, .reply(reply)))
    }

    mutating func send(_ client: ClientID, _ event: Event) {
        effects.append(.send(client, .event(event)))
    }

    mutating func emit(_ effect: SessionEffect) {
        effects.append(effect)
    }

    mutating func journal(_ level: LogLevel, _ message: String) {
        effects.append(.journal(level, message))
    }

    mutating func newTicket() -> Ticket {
        defer { nextTicket += 1 }
        return Ticket(nextTicket)
    }

    /// Keeps one timer for the plan's next deadline (an expiry, a refill, a hint's pause), the
    /// oldest settings write's and the first SSIP event hold's.
    mutating func armTimer() {
        let deadline = [isShutDown ? nil : plan.nextDeadline, settingsWrites.deadline, ssip.nextDeadline].compactMap { $0 }.min()
        guard deadline != timer else { return }
        timer = deadline
        effects.append(deadline.map(SessionEffect.setTimer) ?? .cancelTimer)
    }

    /// What the journal says, once, when the log's file was set aside.
    public static func setAsideMessage(_ aside: LogSetAside, log path: String) -> String {
        "the log \(path) was not a database (\(aside.reason)); it was set aside as \(aside.path) and a fresh log started"
    }

    /// Wall-clock seconds for a log row.
    func seconds(_ instant: MonotonicInstant) -> Double {
        configuration.wallClockOffset + Double(instant.nanoseconds) / 1e9
    }

    // MARK: Stopping

    private mutating func shutDown() {
        guard !isShutDown else { return }
        // Every announcement and utterance still open gets its final outcome (`cancelled`) now,
        // so the log holds no open row; replies that wait for a commit are answered as their rows
        // commit, before the daemon closes the connections. Its row tells a trace of the log why.
        logCommand("shutdown", from: nil)
        follow(plan.shutDown(at: now))
        // The connections close soon: what they were still to be told goes now.
        carryOut(ssip.releaseEvents(dueBy: MonotonicInstant(nanoseconds: .max)))
        // Nothing starts once every outcome is final (what the batch started, the plan just stopped).
        unplayed.removeAll()
        isShutDown = true
        armTimer()
        // A `set` still being written is answered first (or given up on, after the bound).
        if settingsWrites.waiting.isEmpty { effects.append(.shutDown) } else { settingsWrites.shutDownWhenSettled = true }
    }
}
