import Foundation
import NarratorBase
import NarratorCore
import NarratorEngines
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan
import NarratorTestSupport
import Testing

/// A session on a virtual clock, driven the way the daemon drives it: requests decoded from
/// protocol lines, speech reported finished when the test says so, log rows committed on demand.
struct Harness {
    var session: Session
    var now = MonotonicInstant(nanoseconds: 5_000_000_000)
    private var nextClient: UInt64 = 1
    private var nextRequest = 0
    /// Every effect so far, in order.
    private(set) var history: [SessionEffect] = []

    static let daemonUID: UInt32 = 1000
    static let start = MonotonicInstant(nanoseconds: 5_000_000_000)
    static let voices = [
        InstalledVoice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb", "en"], gender: .male),
        InstalledVoice(name: "German", identifier: "gmw/de", languages: ["de"], gender: .male),
        InstalledVoice(name: "Arabic", identifier: "sem/ar", languages: ["ar"], gender: .male),
        InstalledVoice(name: "French (France)", identifier: "roa/fr", languages: ["fr-fr", "fr"], gender: .male),
    ]

    init(
        limits: DaemonLimits = DaemonLimits(), policy: AnnouncementPolicy = .default, treePolicies: [String: AnnouncementPolicy] = [:],
        settings: SpeechSettings = SpeechSettings(), engines: [EngineVoices] = [], updatesPreparedFrom: Int? = nil
    ) {
        var configuration = SessionConfiguration(
            uid: Self.daemonUID, pid: 4242, socket: "/run/user/1000/narrator/narratord.sock", startedAt: Self.start, wallClockOffset: 1_700_000_000,
            limits: limits, voices: Self.voices, standardVoice: "English (Great Britain)", policy: policy, treePolicies: treePolicies)
        configuration.otherEngines = engines
        configuration.updatesPreparedFrom = updatesPreparedFrom
        session = Session(
            configuration: configuration, settings: settings, output: OutputStatus(spec: .null, active: "null", fallback: false),
            log: LogHealth(path: "/tmp/narrator.db", isOpen: true))
    }

    /// Feeds one input now and returns its effects. Outside ``batch(_:)`` the input is a batch of
    /// its own, as everything is in an idle daemon: its effects end with those of `batchEnded`.
    @discardableResult
    mutating func feed(_ input: SessionInput) -> [SessionEffect] {
        var effects = handle(input)
        if !inBatch { effects += handle(.batchEnded) }
        return effects
    }

    /// Feeds what `inputs` feeds as one batch, as a busy daemon's loop does with what was ready
    /// when it woke, then `batchEnded`; returns every effect of the batch.
    @discardableResult
    mutating func batch(_ inputs: (inout Harness) throws -> Void) rethrows -> [SessionEffect] {
        precondition(!inBatch, "batches do not nest")
        let start = history.count
        inBatch = true
        defer { inBatch = false }
        try inputs(&self)
        inBatch = false
        handle(.batchEnded)
        return Array(history[start...])
    }

    private var inBatch = false

    @discardableResult
    private mutating func handle(_ input: SessionInput) -> [SessionEffect] {
        if case .timerFired = input { timer = nil }
        let effects = session.handle(input, at: now)
        history += effects
        for effect in effects {
            if case .setTimer(let at) = effect { timer = at }
            if case .cancelTimer = effect { timer = nil }
        }
        return effects
    }

    /// The timer the session has set and that has not fired.
    private(set) var timer: MonotonicInstant?

    mutating func advance(by duration: Duration) { now = now + duration }

    /// A new connection of the daemon's user.
    mutating func connect(pid: Int = 100, uid: UInt32 = Harness.daemonUID) -> (ClientID, [SessionEffect]) {
        let client = ClientID(rawValue: nextClient)
        nextClient += 1
        return (client, feed(.connected(client, Credentials(pid: pid, uid: uid))))
    }

    mutating func client(pid: Int = 100) -> ClientID { connect(pid: pid).0 }

    /// Sends a request line as a client would, with the next id; returns the effects.
    @discardableResult
    mutating func request(_ client: ClientID, _ line: String) -> [SessionEffect] {
        feed(.request(client, RequestDecoder().decode(line)))
    }

    /// Sends a typed request with an id; returns the effects.
    @discardableResult
    mutating func request(_ client: ClientID, _ command: RequestCommand) -> [SessionEffect] {
        nextRequest += 1
        return feed(.request(client, .success(Request(id: .number(Double(nextRequest)), command: command))))
    }

    /// Registers one of the repository's example trees for `client`.
    @discardableResult
    mutating func register(_ client: ClientID, example: String, ephemeral: Bool = false, focusEvents: Bool = false) throws -> [SessionEffect] {
        let text = try String(contentsOfFile: BuiltProducts.repository + "/examples/" + example, encoding: .utf8)
        return request(client, .register(document: try RawJSON(text), ephemeral: ephemeral, focusEvents: focusEvents))
    }

    /// Registers a small tree written inline.
    @discardableResult
    mutating func register(_ client: ClientID, json: String, ephemeral: Bool = false) throws -> [SessionEffect] {
        request(client, .register(document: try RawJSON(json), ephemeral: ephemeral))
    }

    /// Utterances reported finished with ``finishSpeaking()``.
    private var ended: Set<UtteranceID> = []

    /// The utterance playing now, from the play and stop effects so far.
    var playing: PlayRequest? {
        var current: PlayRequest?
        for effect in history {
            switch effect {
            case .play(let request): current = request
            case .stopSpeech(let id): if current?.utterance.id == id { current = nil }
            default: break
            }
        }
        guard let current, !ended.contains(current.utterance.id) else { return nil }
        return current
    }

    /// Reports the playing utterance finished (its audio ran out) and returns the effects.
    @discardableResult
    mutating func finishSpeaking() -> [SessionEffect] {
        guard let id = playing?.utterance.id else {
            Issue.record("nothing is playing")
            return []
        }
        ended.insert(id)
        return feed(.speechEnded(id, problem: nil))
    }

    /// Fires the session's timer if it is set, after moving the clock to it.
    @discardableResult
    mutating func fireTimer() -> [SessionEffect] {
        guard let deadline = timer else {
            Issue.record("no timer is set")
            return []
        }
        now = max(now, deadline)
        return feed(.timerFired)
    }

    /// Commits every row appended with a ticket and not yet reported, in order.
    @discardableResult
    mutating func commitLog(_ result: Result<Void, LogProblem> = .success(())) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        for ticket in pendingTickets { effects += feed(.logWritten(ticket, result)) }
        committed.formUnion(pendingTickets)
        return effects
    }

    private var committed: Set<Ticket> = []
    private var pendingTickets: [Ticket] {
        history.compactMap { if case .appendLog(_, let ticket?) = $0, !committed.contains(ticket) { ticket } else { nil } }
    }

    /// Answers every settings write the session asked for.
    @discardableResult
    mutating func saveSettings(_ result: Result<Void, SpeechSettingsError> = .success(())) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        let tickets = history.compactMap { if case .saveSettings(_, let ticket) = $0, !saved.contains(ticket) { ticket } else { nil } }
        for ticket in tickets { effects += feed(.settingsSaved(ticket, result)) }
        saved.formUnion(tickets)
        return effects
    }

    private var saved: Set<Ticket> = []
}

extension Array where Element == SessionEffect {
    /// The replies sent to `client`.
    func replies(to client: ClientID) -> [Reply] {
        compactMap { if case .send(client, .reply(let reply)) = $0 { reply } else { nil } }
    }

    /// The one reply to `client`'s request, or a recorded issue.
    func reply(to client: ClientID, sourceLocation: SourceLocation = #_sourceLocation) -> Reply? {
        let replies = replies(to: client)
        #expect(replies.count == 1, "expected one reply, got \(replies)", sourceLocation: sourceLocation)
        return replies.first
    }

    func body(to client: ClientID, sourceLocation: SourceLocation = #_sourceLocation) -> ReplyBody? {
        guard let reply = reply(to: client, sourceLocation: sourceLocation) else { return nil }
        switch reply.outcome {
        case .success(let body): return body
        case .failure(let error):
            Issue.record("request failed: \(error.code.rawValue): \(error.message)", sourceLocation: sourceLocation)
            return nil
        }
    }

    func error(to client: ClientID, sourceLocation: SourceLocation = #_sourceLocation) -> ReplyError? {
        guard let reply = reply(to: client, sourceLocation: sourceLocation) else { return nil }
        if case .failure(let error) = reply.outcome { return error }
        Issue.record("request succeeded: \(reply)", sourceLocation: sourceLocation)
        return nil
    }

    /// The events sent to `client`.
    func events(to client: ClientID) -> [Event] {
        compactMap { if case .send(client, .event(let event)) = $0 { event } else { nil } }
    }

    /// The play effects, in order.
    var plays: [SessionEffect] {
        filter { if case .play = $0 { true } else { false } }
    }

    /// What the play effects ask for, in order.
    var playRequests: [PlayRequest] {
        compactMap { if case .play(let request) = $0 { request } else { nil } }
    }

    /// The settings each settings write asks for, in order.
    var savedSettings: [SpeechSettings] {
        compactMap { if case .saveSettings(let settings, _) = $0 { settings } else { nil } }
    }

    /// What was asked to play, in order (texts).
    var played: [String] {
        compactMap { if case .play(let request) = $0 { request.utterance.text } else { nil } }
    }

    var stopped: [UtteranceID] {
        compactMap { if case .stopSpeech(let id) = $0 { id } else { nil } }
    }

    var appendedRows: [LogRow] {
        compactMap { if case .appendLog(let row, _) = $0 { row } else { nil } }
    }

    var updatedRows: [LogRow] {
        compactMap { if case .updateLog(let row) = $0 { row } else { nil } }
    }

    var journal: [String] {
        compactMap { if case .journal(_, let line) = $0 { line } else { nil } }
    }
}

/// The default voice parameters, as every play request carries them unless settings change.
let standardParameters = SpeechSettings().parameters

func play(_ id: UInt64, _ kind: SpeechKind, _ text: String, language: String? = nil, voice: VoiceChoice? = nil) -> SessionEffect {
    .play(
        PlayRequest(
            utterance: UtteranceRequest(id: UtteranceID(id), kind: kind, text: text, language: language),
            voice: voice ?? (language.map(VoiceChoice.language) ?? .standard), parameters: standardParameters))
}

/// One shape of reply body each, nil for any other, so that a test can `#require` the shape it
/// expects and fail, not pass silently, when the reply has another.
extension ReplyBody {
    var status: StatusReport? { if case .status(let report) = self { report } else { nil } }
    var focus: FocusReport? { if case .focus(let report) = self { report } else { nil } }
    var rotors: [RotorSummary]? { if case .rotors(let rotors) = self { rotors } else { nil } }
    var announced: AnnounceReport? { if case .announced(let report) = self { report } else { nil } }
    var updated: UpdateReport? { if case .updated(let report) = self { report } else { nil } }
    var stops: [StopSummary]? { if case .stops(_, let stops) = self { stops } else { nil } }
}
