import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorProtocol
import NarratorSSIP
import NarratorSpeechPlan

/// Everything narratord decides, as one pure state machine: the registered trees and the focus,
/// the speech plan (announcement queue, scheduler, every utterance in flight), and the machines
/// around them, which it routes between: the JSON clients (``JSONClients``), the SSIP server
/// (``SSIPServer``), the settings writes (``SettingsWrites``), how speech reaches the listener
/// (``SpeechDelivery``), the log (``LogBook``) and the batch of inputs being handled (``SessionBatch``).
///
/// It is driven by typed inputs only (``SessionInput``), each with the instant it happened on the
/// monotonic clock, and acts only by returning effects (``SessionEffect``): replies and events
/// to send, speech to play or stop, log rows to write, a timer to set. No sockets, threads, audio
/// or disk: the daemon's shells carry the effects out and feed back what happened, so every
/// scenario runs in a test on a virtual clock exactly as it runs in the daemon. The JSON protocol
/// is one front end; others (the SSIP server, an AT-SPI bridge) plug in as further inputs and effects.
public struct Session: Sendable {
    public let configuration: SessionConfiguration
    public internal(set) var workspace: Workspace
    public internal(set) var plan: SpeechPlan<SSIPMessage>
    /// The user's speech settings, the voices, the engines' health and the audio output.
    var speech: SpeechDelivery
    var logBook: LogBook
    /// The JSON protocol's connections, what they own and the replies they wait for.
    var clients: JSONClients
    /// `set` requests (or the daemon's own changes) waiting for the settings file to be written.
    var settingsWrites = SettingsWrites()
    /// What each JSON connection sent behind its own `set` being written or line being prepared:
    /// the one place that decides what waits behind what (`Session+Order`).
    var holds = InputHolds()
    /// The Speech Dispatcher (SSIP) front end; its messages in flight live with their utterances
    /// in the plan.
    var ssip: SSIPServer
    /// When the one timer is due, if it is set: the session owns the timer. It decides the
    /// deadline (the plan's next one) and says so only when it changes (`setTimer`, `cancelTimer`),
    /// and learns it fired from `timerFired`; its shell keeps nothing of it but the handle its
    /// loop needs to cancel it.
    private var timer: MonotonicInstant?
    /// Set by `shutdown`: every outcome is final, and speech reports that come later change nothing.
    private(set) var isShutDown = false
    /// The input being handled: its instant, its effects, the speech it started.
    var batch: SessionBatch

    public var settings: SpeechSettings { speech.settings }
    public var output: OutputStatus { speech.output }
    /// Each engine process's health, as its supervisor last said (eSpeak NG's is always ready).
    public var engineHealth: [EngineName: EngineHealth] { speech.engineHealth }
    public var log: LogHealth { logBook.health }

    /// - Parameters:
    ///   - settings: the saved speech settings (with the start-up options applied).
    ///   - output: the audio output's status at start-up.
    ///   - log: the log writer's status at start-up (its highest announcement id numbers new ones).
    public init(configuration: SessionConfiguration, settings: SpeechSettings, output: OutputStatus, log: LogHealth) {
        self.configuration = configuration
        speech = SpeechDelivery(settings: settings, output: output, configuration: configuration)
        logBook = LogBook(log)
        clients = JSONClients()
        batch = SessionBatch(at: configuration.startedAt)
        workspace = Workspace(decoder: TreeDocumentDecoder(limits: configuration.limits.document))
        workspace.verbosity = settings.verbosity
        plan = SpeechPlan(policy: configuration.policy, configuration: settings.schedulerConfiguration)
        for (tree, policy) in configuration.treePolicies { plan.setPolicy(policy, forTree: tree) }
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
        batch.now = max(batch.now, now)
        let now = batch.now
        switch consume input {
        case .connected(let client, let credentials):
            connect(client, credentials)
        case .request(let client, let decoded):
            takeInOrder(.line(decoded), from: client)
        case .largeLine(let client, let line):
            takeInOrder(.largeLine(line), from: client)
        case .prepared(let client, let prepared):
            preparedCame(prepared, for: client)
        case .ssipConnected(let client, let credentials):
            carryOut(ssip.connect(client, credentials))
        case .ssipLine(let client, let line):
            carryOut(ssip.take(line, from: client, plan: &plan, at: now, stopping: isShutDown, settings: speech.settings))
        case .speechBegan(let utterance):
            guard !isShutDown else { break }
            carryOut(ssip.began(utterance, plan: &plan, at: now))
        case .speechReachedMark(let utterance, let mark):
            guard !isShutDown else { break }
            carryOut(ssip.reached(utterance, mark: mark, plan: &plan, at: now))
        case .speechReached(let utterance, let offset):
            guard !isShutDown else { break }
            ssip.reached(utterance, offset: offset, plan: &plan)
        case .rejectedLine(let client, _) where ssip.serves(client):
            carryOut(ssip.refusedLine(from: client))
        case .rejectedLine(let client, let problem):
            takeInOrder(.rejected(problem), from: client)
        case .disconnected(let client) where ssip.serves(client):
            carryOut(ssip.disconnect(client, at: now))
        case .disconnected(let client):
            takeInOrder(.disconnect, from: client)
        case .speechEnded(let utterance, let problem):
            guard !isShutDown else { break }
            if let problem {
                journal(.warning, "speech \(utterance) could not be played to its end: \(problem)")
                follow(plan.failed(utterance, at: now))
            } else {
                follow(plan.finished(utterance, at: now))
            }
        case .outputChanged(let status):
            outputChanged(status)
        case .engineChanged(let engine, let health):
            engineChanged(engine, health)
        case .timerFired:
            timer = nil
            expireSettingsWrites()
            carryOut(ssip.releaseEvents(dueBy: now))
            guard !isShutDown else { break }
            follow(plan.tick(at: now))
        case .logWritten(let ticket, let result):
            logWritten(ticket, result)
        case .logHealth(let health):
            if let aside = logBook.report(health) { journal(.warning, Self.setAsideMessage(aside, log: health.path)) }
        case .settingsSaved(let ticket, let result):
            settingsSaved(ticket, result)
        case .changeSetting(let key, let value):
            guard !isShutDown else { break }
            changeOwnSetting(key, to: value)
        case .shutdown:
            shutDown()
        case .batchEnded:
            for request in batch.handOut() {
                speech.handedOut(request)
                batch.emit(.play(request))
            }
        }
        armTimer()
        return batch.take()
    }

    /// A line the framing refused: the connection is told, and goes on.
    mutating func rejected(_ problem: LineProblem, from client: ClientID) {
        guard clients[client] != nil else { return }
        switch problem {
        case .tooLong(let limit):
            send(client, Reply(id: nil, .failure(ReplyError(.messageTooLong, "request longer than \(limit) bytes; it was discarded"))))
        case .invalidUTF8:
            send(client, Reply(id: nil, .failure(ReplyError(.invalidUTF8, "request is not valid UTF-8; it was discarded"))))
        }
    }

    /// A request, unless its connection is gone or the daemon is stopping.
    mutating func take(_ request: consuming PreparedRequest, from client: ClientID) {
        if case .refused(let problem) = request {
            // Refused as the framing refuses a line, stopping or not.
            rejected(problem, from: client)
            return
        }
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
        batch.emit(.send(client, .reply(reply)))
    }

    mutating func send(_ client: ClientID, _ event: Event) {
        batch.emit(.send(client, .event(event)))
    }

    mutating func emit(_ effect: SessionEffect) {
        batch.emit(effect)
    }

    mutating func journal(_ level: LogLevel, _ message: String) {
        batch.emit(.journal(level, message))
    }

    mutating func newTicket() -> Ticket {
        clients.newTicket()
    }

    /// Keeps one timer for the plan's next deadline (an expiry, a refill, a hint's pause), the
    /// oldest settings write's and the first SSIP event hold's.
    mutating func armTimer() {
        let deadline = [isShutDown ? nil : plan.nextDeadline, settingsWrites.deadline, ssip.nextDeadline].compactMap { $0 }.min()
        guard deadline != timer else { return }
        timer = deadline
        batch.emit(deadline.map(SessionEffect.setTimer) ?? .cancelTimer)
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
        follow(plan.shutDown(at: batch.now))
        // The connections close soon: what they were still to be told goes now.
        carryOut(ssip.releaseEvents(dueBy: MonotonicInstant(nanoseconds: .max)))
        // Nothing starts once every outcome is final (what the batch started, the plan just stopped).
        batch.dropUnplayed()
        isShutDown = true
        armTimer()
        // A `set` still being written is answered first (or given up on, after the bound).
        if settingsWrites.waiting.isEmpty { batch.emit(.shutDown) } else { settingsWrites.shutDownWhenSettled = true }
    }
}
