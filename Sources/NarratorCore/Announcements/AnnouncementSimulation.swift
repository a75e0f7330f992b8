/// The daemon's speech plan on a virtual clock, with each utterance lasting as long as `duration`
/// says: what `narratorctl replay` runs. The plan is the one the daemon's session runs on real time
/// and real audio, so a replay decides exactly as the daemon would.
public struct AnnouncementSimulation {
    public private(set) var plan: SpeechPlan
    /// Every announcement's life, in the order they ended.
    public private(set) var records: [AnnouncementRecord] = []
    /// Every other utterance's life (focus speech), in the order they ended.
    public private(set) var speech: [SpeechRecord] = []
    /// The decisions in the order they were made.
    public private(set) var decisions: [AnnouncementDecision] = []
    public private(set) var now: MonotonicInstant
    private let origin: MonotonicInstant
    private let duration: (String) -> Duration
    private var nextAnnouncement: UInt64 = 1
    private var playingUntil: (id: UtteranceID, end: MonotonicInstant)?

    /// - Parameter duration: how long speaking a text takes (eSpeak NG's measured length in replay).
    public init(policy: AnnouncementPolicy, origin: MonotonicInstant = MonotonicInstant(nanoseconds: 0), duration: @escaping (String) -> Duration) {
        self.plan = SpeechPlan(policy: policy, configuration: SpeechSchedulerConfiguration(hintsEnabled: false))
        self.origin = origin
        self.now = origin
        self.duration = duration
    }

    /// The announcement queue inside the plan (what waits, what is deferred).
    public var queue: AnnouncementQueue { plan.queue }

    /// Replays a whole trace and lets speech run out.
    public mutating func run(_ trace: [TraceEvent]) {
        for event in trace {
            advance(to: origin + event.at)
            apply(event)
        }
        advance(to: nil)
    }

    /// Feeds one trace event at the current instant; returns the announcement's id for `announce`.
    @discardableResult
    public mutating func apply(_ event: TraceEvent) -> AnnouncementID? {
        switch event.kind {
        case .announce(let text, let priority, let key):
            let id = AnnouncementID(nextAnnouncement)
            nextAnnouncement += 1
            let announcement = Announcement(id: id, text: text, priority: priority, tree: event.tree, element: event.element, key: key)
            follow(plan.announce(announcement, at: now))
            return id
        case .focus(let text):
            follow(plan.focusMoved(toTree: event.tree ?? "", at: now))
            follow(plan.say(text, .focus, tree: event.tree, element: event.element, at: now).1)
            return nil
        }
    }

    /// Gives one tree its own policy.
    public mutating func setPolicy(_ policy: AnnouncementPolicy?, forTree tree: String) {
        plan.setPolicy(policy, forTree: tree)
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

    /// Plays the plan's commands on the virtual clock and keeps its decisions and ended lives.
    private mutating func follow(_ step: PlanStep) {
        for command in step.commands {
            switch command {
            case .play(let request): playingUntil = (request.id, now + duration(request.text))
            case .stop(let id): if playingUntil?.id == id { playingUntil = nil }
            }
        }
        decisions += step.decisions
        records += step.announcements
        speech += step.speech
    }
}
