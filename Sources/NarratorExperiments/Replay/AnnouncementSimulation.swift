import NarratorBase
import NarratorSSIP
import NarratorSpeechPlan

/// The daemon's speech plan on a virtual clock, with each utterance lasting as long as it played
/// when the trace was recorded, else as long as `duration` says: what `narratorctl replay` runs.
/// The plan is the one the daemon's session runs on real time and real audio, and SSIP messages
/// go through the same gate, so a replay decides exactly as the daemon would.
public struct AnnouncementSimulation {
    public private(set) var plan: SpeechPlan<Never>
    /// Every announcement's life, in the order they ended.
    public private(set) var records: [AnnouncementRecord] = []
    /// Every other utterance's life (focus speech, hints, values, SSIP messages), in the order
    /// they ended; an SSIP message the gate turned away has utterance 0 and never started.
    public private(set) var speech: [SpeechRecord] = []
    /// The decisions in the order they were made.
    public private(set) var decisions: [AnnouncementDecision] = []
    /// The final outcome of each event that asked for speech, by its index in the trace `run` was given.
    public private(set) var outcomes: [Int: AnnouncementOutcome] = [:]
    public private(set) var now: MonotonicInstant
    private let origin: MonotonicInstant
    private let duration: (String) -> Duration
    private var nextAnnouncement: UInt64 = 1
    private var playingUntil: (id: UtteranceID, end: MonotonicInstant)?
    /// Which trace event each announcement and utterance came from, and how long it plays.
    private var eventOfAnnouncement: [AnnouncementID: Int] = [:]
    private var eventOfUtterance: [UtteranceID: Int] = [:]
    private var lengthOfEvent: [Int: Duration] = [:]
    /// The SSIP gate, and the messages in flight per connection that it judges pile-ups by.
    private var gate = SSIPGate()
    private var ssipInFlight: [UtteranceID: (connection: ClientID, key: String, clientName: String)] = [:]
    /// The trees given policies of their own, for a plan started afresh after a shutdown.
    private var treePolicies: [String: AnnouncementPolicy] = [:]

    /// - Parameter duration: how long speaking a text takes when the trace does not say how long
    ///   it played (eSpeak NG's measured length in replay).
    public init(policy: AnnouncementPolicy, origin: MonotonicInstant = MonotonicInstant(nanoseconds: 0), duration: @escaping (String) -> Duration) {
        self.plan = SpeechPlan(policy: policy)
        self.origin = origin
        self.now = origin
        self.duration = duration
    }

    /// The announcement queue inside the plan (what waits, what is deferred).
    public var queue: AnnouncementQueue { plan.queue }

    /// Replays a whole trace and lets speech run out.
    public mutating func run(_ trace: [TraceEvent]) {
        for (index, event) in trace.enumerated() {
            advance(to: origin + event.at)
            apply(event, index: index)
        }
        advance(to: nil)
    }

    /// Feeds one trace event at the current instant; returns the announcement's id for `announce`.
    /// `index` (the event's place in its trace) is what ``outcomes`` is keyed by.
    @discardableResult
    public mutating func apply(_ event: TraceEvent, index: Int? = nil) -> AnnouncementID? {
        if let index, event.duration != nil, let text = event.text { lengthOfEvent[index] = Self.length(of: event, estimate: duration(text)) }
        let connection = ClientID(rawValue: UInt64(event.connection ?? 0))
        switch event.kind {
        case .announce(let text, let priority, let key):
            let id = AnnouncementID(nextAnnouncement)
            nextAnnouncement += 1
            if let index { eventOfAnnouncement[id] = index }
            let announcement = Announcement(
                id: id, text: text, priority: priority, tree: event.tree, element: event.element, key: key, client: connection)
            follow(plan.announce(announcement, at: now))
            return id
        case .focus(let text):
            follow(plan.focusMoved(toTree: event.tree ?? "", at: now))
            say(text, .focus, event, index: index)
        case .speech(let text, let kind):
            say(text, kind, event, index: index)
        case .ssip(let text, let priority, let command):
            ssip(text, priority, judged: command.isJudged, from: connection, named: event.client ?? "", index: index)
        case .ssipCancel(let all):
            gate.cancelledOwnSpeech(connection)
            follow(plan.cancel(.cancelled, at: now) { request in Self.isSSIP(request) && (all || request.client == connection) })
        case .ssipStop(let all):
            gate.cancelledOwnSpeech(connection)
            follow(plan.stopPlaying(at: now) { request in Self.isSSIP(request) && (all || request.client == connection) })
        case .stop:
            follow(plan.stop(at: now))
        case .shutdown:
            follow(plan.shutDown(at: now))
            playingUntil = nil
            restart()
        }
        return nil
    }

    /// Gives one tree its own policy.
    public mutating func setPolicy(_ policy: AnnouncementPolicy?, forTree tree: String) {
        plan.setPolicy(policy, forTree: tree)
        treePolicies[tree] = policy
    }

    /// `stop`: cancels what waits in the queue, then silences speech.
    public mutating func stop() {
        follow(plan.stop(at: now))
    }

    /// Runs the clock to `instant` (nil: until nothing is left to do), finishing speech and
    /// ticking the plan at each deadline on the way.
    public mutating func advance(to instant: MonotonicInstant?) {
        while true {
            let deadlines = [playingUntil?.end, plan.nextDeadline].compactMap { $0 }
            guard let next = deadlines.min(), instant.map({ next <= $0 }) ?? true else { break }
            now = max(now, next)
            if let playing = playingUntil, playing.end <= now {
                playingUntil = nil
                follow(plan.finished(playing.id, at: now))
            }
            // Ticked only when a deadline is due, as the daemon's timer ticks the session.
            if let deadline = plan.nextDeadline, deadline <= now {
                follow(plan.tick(at: now))
            }
        }
        if let instant { now = max(now, instant) }
    }

    /// How long an event's speech lasts: as long as it played when it was spoken to its end;
    /// when it was cut, at least what it played and a little more (so a replay under the same
    /// policy cuts it where the recorded run did), else the estimate.
    static func length(of event: TraceEvent, estimate: Duration) -> Duration {
        guard let played = event.duration else { return estimate }
        if event.logged == .spoken { return played }
        return max(estimate, played + .milliseconds(1))
    }

    // MARK: What the session does, on the virtual clock

    private mutating func say(_ text: String, _ kind: SpeechKind, _ event: TraceEvent, index: Int?) {
        let (id, step) = plan.say(text, kind, tree: event.tree, element: event.element, at: now)
        if let index { eventOfUtterance[id] = index }
        follow(step)
    }

    /// An SSIP message, judged by the gate as the session judges it (only `SPEAK`s, only under
    /// a policy other than `none`, with the connection's messages in flight).
    private mutating func ssip(_ text: String, _ priority: MessagePriority, judged: Bool, from connection: ClientID, named clientName: String, index: Int?) {
        let key = Announcement.normalizedKey(text)
        let policy = plan.queue.policy(for: nil)
        if judged && policy.name != AnnouncementPolicy.none.name {
            let inFlight = ssipInFlight.values.filter { $0.connection == connection }.map(\.key)
            if let outcome = gate.judge(
                key: key, priority: priority, clientName: clientName, connection: connection, inFlight: inFlight, policy: policy, at: now)
            {
                speech.append(
                    SpeechRecord(
                        utterance: UtteranceID(0), kind: .ssip(priority), text: text, tree: nil, element: nil, queuedAt: now, startedAt: nil,
                        endedAt: now, outcome: outcome, interruptedBy: nil))
                if let index { outcomes[index] = outcome }
                return
            }
        }
        let (id, step) = plan.say(text, .ssip(priority), client: connection, at: now)
        if let index { eventOfUtterance[id] = index }
        ssipInFlight[id] = (connection, key, clientName)
        follow(step)
    }

    /// What a daemon started anew knows: nothing in flight, a fresh gate, the same policies.
    private mutating func restart() {
        var fresh = SpeechPlan<Never>(policy: plan.queue.policy(for: nil))
        for (tree, policy) in treePolicies { fresh.setPolicy(policy, forTree: tree) }
        plan = fresh
        gate = SSIPGate()
        ssipInFlight = [:]
    }

    private static func isSSIP(_ request: UtteranceRequest) -> Bool {
        if case .ssip = request.kind { return true }
        return false
    }

    /// Plays the plan's commands on the virtual clock and keeps its decisions and ended lives.
    private mutating func follow(_ step: PlanStep<Never>) {
        for command in step.commands {
            switch command {
            case .play(let request, _):
                let event = eventOfUtterance[request.id] ?? plan.announcement(of: request.id).flatMap { eventOfAnnouncement[$0] }
                playingUntil = (request.id, now + (event.flatMap { lengthOfEvent[$0] } ?? duration(request.text)))
            case .stop(let id):
                if playingUntil?.id == id { playingUntil = nil }
            }
        }
        for notice in step.notices.lazy.map(\.notice) where notice.phase == .finished {
            if let message = ssipInFlight[notice.utterance] { gate.ended(key: message.key, clientName: message.clientName, at: now) }
        }
        decisions += step.decisions
        records += step.announcements
        speech += step.speech
        for record in step.announcements {
            if let event = eventOfAnnouncement.removeValue(forKey: record.announcement.id) { outcomes[event] = record.outcome }
        }
        for record in step.speech {
            ssipInFlight[record.utterance] = nil
            if let event = eventOfUtterance.removeValue(forKey: record.utterance) { outcomes[event] = record.outcome }
        }
    }
}
