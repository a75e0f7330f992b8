/// The announcement queue and the speech scheduler wired together on a virtual clock, with each
/// utterance lasting as long as `duration` says: what `narratorctl replay` runs, and what the
/// daemon does with real time and real audio.
public struct AnnouncementSimulation {
    public private(set) var queue: AnnouncementQueue
    public private(set) var scheduler = SpeechScheduler(configuration: SpeechSchedulerConfiguration(hintsEnabled: false))
    /// Every announcement's life, in the order they ended.
    public private(set) var records: [AnnouncementRecord] = []
    /// Every other utterance's life (focus speech), in the order they ended.
    public private(set) var speech: [SpeechRecord] = []
    /// The decisions in the order they were made.
    public private(set) var decisions: [AnnouncementDecision] = []
    public private(set) var now: MonotonicInstant
    private let origin: MonotonicInstant
    private let duration: (String) -> Duration
    private var nextUtterance: UInt64 = 1
    private var nextAnnouncement: UInt64 = 1
    private var announcementOf: [UtteranceID: AnnouncementID] = [:]
    private var kindOf: [UtteranceID: SpeechKind] = [:]
    private var openSpeech: [UtteranceID: SpeechRecord] = [:]
    private var playingUntil: (id: UtteranceID, end: MonotonicInstant)?

    /// - Parameter duration: how long speaking a text takes (eSpeak NG's measured length in replay).
    public init(policy: AnnouncementPolicy, origin: MonotonicInstant = MonotonicInstant(nanoseconds: 0), duration: @escaping (String) -> Duration) {
        self.queue = AnnouncementQueue(policy: policy)
        self.origin = origin
        self.now = origin
        self.duration = duration
    }

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
            absorb(queue.enqueue(announcement, at: now))
            return id
        case .focus(let text):
            absorb(queue.focusMoved(toTree: event.tree ?? "", at: now))
            let id = nextID()
            openSpeech[id] = SpeechRecord(
                utterance: id, kind: .focus, text: text, tree: event.tree, element: event.element, queuedAt: now, startedAt: nil,
                endedAt: now, outcome: .cancelled, interruptedBy: nil)
            play(scheduler.submit(UtteranceRequest(id: id, kind: .focus, text: text), at: now))
            return nil
        }
    }

    /// Gives one tree its own policy.
    public mutating func setPolicy(_ policy: AnnouncementPolicy?, forTree tree: String) {
        queue.setPolicy(policy, forTree: tree)
    }

    /// `stop`: cancels what waits in the queue, then silences speech.
    public mutating func stop() {
        absorb(queue.stop(at: now))
        play(scheduler.stopAll(at: now))
    }

    /// Runs the clock to `instant` (nil: until nothing is left to do), finishing speech and
    /// ticking the queue at each deadline on the way.
    public mutating func advance(to instant: MonotonicInstant?) {
        while true {
            let deadlines = [playingUntil?.end, queue.nextDeadline, scheduler.nextDeadline].compactMap { $0 }
            guard let next = deadlines.min(), instant.map({ next <= $0 }) ?? true else { break }
            now = max(now, next)
            if let playing = playingUntil, playing.end <= now {
                playingUntil = nil
                play(scheduler.finished(playing.id, at: now))
            }
            absorb(queue.tick(at: now))
            play(scheduler.tick(at: now))
        }
        if let instant { now = max(now, instant) }
    }

    private mutating func nextID() -> UtteranceID {
        defer { nextUtterance += 1 }
        return UtteranceID(nextUtterance)
    }

    /// Hands released announcements to the scheduler and records decisions and lives.
    private mutating func absorb(_ step: AnnouncementStep) {
        decisions += step.decisions
        records += step.records
        for announcement in step.release {
            let id = nextID()
            announcementOf[id] = announcement.id
            play(scheduler.submit(UtteranceRequest(id: id, kind: .announcement(announcement.priority), text: announcement.text), at: now))
        }
    }

    /// Follows the scheduler's commands on the virtual clock and reports its events to the queue.
    private mutating func play(_ step: SpeechSchedulerStep) {
        for command in step.commands {
            switch command {
            case .play(let request):
                playingUntil = (request.id, now + duration(request.text))
                kindOf[request.id] = request.kind
            case .stop(let id): if playingUntil?.id == id { playingUntil = nil }
            }
        }
        for event in step.events {
            record(event)
            absorb(queue.observe(event, announcement: announcementOf[event.utterance]))
            if event.isFinal {
                announcementOf[event.utterance] = nil
                kindOf[event.utterance] = nil
            }
        }
    }

    private mutating func record(_ event: SpeechEvent) {
        guard var open = openSpeech[event.utterance] else { return }
        switch event.phase {
        case .queued: return
        case .started:
            open.startedAt = event.at
            openSpeech[event.utterance] = open
            return
        case .finished: open.outcome = .spoken
        case .interrupted(let by):
            open.outcome = by == nil ? .cancelled : .interrupted
            open.interruptedBy = by.flatMap { kindOf[$0] }
        case .dropped: open.outcome = .cancelled
        }
        open.endedAt = event.at
        openSpeech[event.utterance] = nil
        speech.append(open)
    }
}
