import NarratorBase

/// Decides what is said and when: the announcement queue in front of the speech scheduler, and
/// the one table of utterances from the moment they are asked for to their final event.
///
/// Every utterance's life lives here and only here (queued, started, then finished, interrupted
/// or dropped, under one ``UtteranceID``): the speech layer only plays and stops what the plan's
/// commands say and reports when audio ran out (``finished(_:at:)``); the log gets each life once
/// it has ended. The daemon's session runs it on the real clock, `narratorctl replay` on a virtual
/// one (NarratorExperiments' `AnnouncementSimulation`), so both decide the same way.
///
/// Replays and sweeps (NarratorExperiments) run it with no client message (`Never`) from another
/// module, where a generic is not specialized: the inputs they call are pre-specialized for
/// `Never` here (`@_specialize(exported:)`), which keeps a sweep as fast as before the split
/// (without it, 15% slower on one thread: docs/performance.md, issue 35).
public struct SpeechPlan<Message: PlannedMessage>: Sendable {
    /// One utterance in flight: what it says, what it is about, and when it was asked for and started.
    private struct Entry: Sendable {
        var request: UtteranceRequest
        var tree: String?
        var element: String?
        /// The announcement it speaks, when the queue released it.
        var announcement: AnnouncementID?
        var queuedAt: MonotonicInstant
        var startedAt: MonotonicInstant?
    }

    public private(set) var queue: AnnouncementQueue
    public private(set) var scheduler: SpeechScheduler
    private var entries: [UtteranceID: Entry] = [:]
    /// The client's message each utterance in flight speaks, when a client sent one (an SSIP
    /// message): what the client was told and what of it the listener has heard. Kept beside the
    /// entries rather than in them, so that the entries, which every input touches, are of one
    /// concrete type whatever `Message` is (a plan used from another module is not specialized).
    private var messagesInFlight: [UtteranceID: Message] = [:]
    private var nextUtterance: UInt64 = 1

    public init(policy: AnnouncementPolicy = .default, configuration: SpeechSchedulerConfiguration = SpeechSchedulerConfiguration()) {
        queue = AnnouncementQueue(policy: policy)
        scheduler = SpeechScheduler(configuration: configuration)
    }

    /// When ``tick(at:)`` is due next: an announcement's expiry or refill, or a hint's pause.
    public var nextDeadline: MonotonicInstant? {
        @_specialize(exported: true, where Message == Never)
        get { [queue.nextDeadline, scheduler.nextDeadline].compactMap { $0 }.min() }
    }

    /// Nothing plays, nothing waits, no announcement is held.
    public var isIdle: Bool { scheduler.isIdle && queue.isIdle }

    /// Gives one tree its own announcement policy, or (nil) back the queue's.
    @_specialize(exported: true, where Message == Never)
    public mutating func setPolicy(_ policy: AnnouncementPolicy?, forTree tree: String) {
        queue.setPolicy(policy, forTree: tree)
    }

    // MARK: Inputs

    /// Asks for speech that is not an announcement: focus, a value, a hint, direct speech.
    @_specialize(exported: true, where Message == Never)
    public mutating func say(
        _ text: String, _ kind: SpeechKind, tree: String? = nil, element: String? = nil, language: String? = nil, client: ClientID? = nil,
        at now: MonotonicInstant
    ) -> (UtteranceID, PlanStep<Message>) {
        say(UtteranceRequest(id: UtteranceID(0), kind: kind, text: text, language: language, client: client), tree: tree, element: element, message: nil, at: now)
    }

    /// Asks for a client's message to be spoken (its text, by its client, as `kind`): the message
    /// stays with its utterance (``message(_:)``) until its life ends, when the step that ends
    /// it hands it back (``PlanStep/endedMessages``).
    /// `echo` is its part in the key echo rule (a key, long text: ``SpeechPolicy/holds(_:for:)``).
    public mutating func say(_ message: Message, _ kind: SpeechKind, language: String?, echo: KeyEcho = .none, at now: MonotonicInstant) -> (UtteranceID, PlanStep<Message>) {
        say(
            UtteranceRequest(id: UtteranceID(0), kind: kind, text: message.text, language: language, client: message.client, echo: echo), tree: nil,
            element: nil, message: message, at: now)
    }

    private mutating func say(_ request: UtteranceRequest, tree: String?, element: String?, message: Message?, at now: MonotonicInstant) -> (UtteranceID, PlanStep<Message>) {
        var step = PlanStep<Message>()
        let stamped = newUtterance(request, tree: tree, element: element, announcement: nil, message: message, at: now)
        let continuation = rest(heldBy: stamped, at: now)
        follow(scheduler.submit(stamped, continuation: continuation, at: now), at: now, into: &step)
        return (stamped.id, step)
    }

    /// When `request` is a key echo that holds the long client text playing (``SpeechPolicy``): a
    /// new utterance for what is left of the text, with its message (``PlannedMessage/cutByKeyEcho()``),
    /// which the scheduler plays after the key echoes. The part that stops is marked, so that its
    /// end is no event to its client.
    private mutating func rest(heldBy request: UtteranceRequest, at now: MonotonicInstant) -> UtteranceRequest? {
        guard let playing = scheduler.playing, SpeechPolicy.holds(playing, for: request), let entry = entries[playing.id],
              var message = messagesInFlight[playing.id]
        else { return nil }
        let rest = message.cutByKeyEcho()
        messagesInFlight[playing.id] = message
        var continuation = playing
        continuation.text = rest.text
        return newUtterance(continuation, tree: entry.tree, element: entry.element, announcement: nil, message: rest, at: now)
    }

    /// A new announcement, numbered by the caller: the queue decides, and what it releases is spoken.
    @_specialize(exported: true, where Message == Never)
    public mutating func announce(_ announcement: Announcement, at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        absorb(queue.enqueue(announcement, at: now, speech: activity), at: now, into: &step)
        return step
    }

    /// Focus is about to move to `tree` (call before saying the focus speech): announcements
    /// waiting for a tree the focus left may be cancelled.
    @_specialize(exported: true, where Message == Never)
    public mutating func focusMoved(toTree tree: String, at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        absorb(queue.focusMoved(toTree: tree, at: now, speech: activity), at: now, into: &step)
        return step
    }

    /// The speech layer played `id` to its end (or gave up on it). Reports about utterances that
    /// no longer play (already interrupted) change nothing.
    @_specialize(exported: true, where Message == Never)
    public mutating func finished(_ id: UtteranceID, at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        follow(scheduler.finished(id, at: now), at: now, into: &step)
        return step
    }

    /// The speech layer could not play `id`: it ends `cancelled` (the journal says why), not spoken.
    @_specialize(exported: true, where Message == Never)
    public mutating func failed(_ id: UtteranceID, at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        follow(scheduler.abandon(id, at: now), at: now, into: &step)
        return step
    }

    /// Time passed: expiries, refilled rate limits, hints whose pause is over.
    @_specialize(exported: true, where Message == Never)
    public mutating func tick(at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        absorb(queue.tick(at: now, speech: activity), at: now, into: &step)
        follow(scheduler.tick(at: now), at: now, into: &step)
        return step
    }

    /// `stop`: cancels what waits in the queue, then silences speech.
    @_specialize(exported: true, where Message == Never)
    public mutating func stop(at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        absorb(queue.stop(at: now), at: now, into: &step)
        follow(scheduler.stopAll(at: now), at: now, into: &step)
        return step
    }

    /// Silences what `matches` picks among the utterances that are not announcements (an SSIP
    /// client's `CANCEL` or `PAUSE`): the playing one is interrupted, waiting ones dropped for `reason`.
    @_specialize(exported: true, where Message == Never)
    public mutating func cancel(
        _ reason: SpeechEvent.DropReason, at now: MonotonicInstant, where matches: (UtteranceRequest) -> Bool
    ) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        follow(scheduler.cancel(reason, at: now, where: matches), at: now, into: &step)
        return step
    }

    /// Interrupts the playing utterance if `matches` picks it (an SSIP client's `STOP`).
    @_specialize(exported: true, where Message == Never)
    public mutating func stopPlaying(at now: MonotonicInstant, where matches: (UtteranceRequest) -> Bool) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        follow(scheduler.stopPlaying(at: now, where: matches), at: now, into: &step)
        return step
    }

    /// The request of an utterance still in flight (queued or playing).
    @_specialize(exported: true, where Message == Never)
    public func request(_ id: UtteranceID) -> UtteranceRequest? { entries[id]?.request }

    /// The announcement an utterance in flight speaks, if it speaks one.
    @_specialize(exported: true, where Message == Never)
    public func announcement(of id: UtteranceID) -> AnnouncementID? { entries[id]?.announcement }

    /// The client's message an utterance in flight speaks, if a client sent one.
    public func message(_ id: UtteranceID) -> Message? { messagesInFlight[id] }

    /// The clients' messages in flight (queued or playing), by utterance.
    public var messages: [(utterance: UtteranceID, message: Message)] {
        messagesInFlight.map { ($0.key, $0.value) }
    }

    /// Changes what is known of the message an utterance in flight speaks (the listener heard
    /// its start or a mark, its client paused it); nothing when it speaks none.
    public mutating func updateMessage(_ id: UtteranceID, _ change: (inout Message) -> Void) {
        guard var message = messagesInFlight[id] else { return }
        change(&message)
        messagesInFlight[id] = message
    }

    /// New hint settings (switching hints off drops a pending hint).
    @_specialize(exported: true, where Message == Never)
    public mutating func configure(_ configuration: SpeechSchedulerConfiguration, at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        follow(scheduler.configure(configuration, at: now), at: now, into: &step)
        return step
    }

    /// The daemon is stopping: every utterance and announcement not yet ended gets its final
    /// outcome (`cancelled`) now, speech is told to stop, and nothing is left in flight.
    @_specialize(exported: true, where Message == Never)
    public mutating func shutDown(at now: MonotonicInstant) -> PlanStep<Message> {
        var step = PlanStep<Message>()
        // Announcements first: waiting, deferred and in speech, each ends `cancelled`...
        absorb(queue.shutDown(at: now), at: now, into: &step)
        // ...then speech: what plays is stopped and what waits is dropped, each with its final
        // event (for subscribers) and, for speech that is not an announcement, its row.
        follow(scheduler.stopAll(at: now), at: now, into: &step)
        entries.removeAll()
        messagesInFlight.removeAll()
        return step
    }

    // MARK: Following the queue and the scheduler

    /// What speech is doing now, as the queue needs to know it.
    private var activity: SpeechActivity {
        func playing(_ request: UtteranceRequest) -> SpeechActivity.Playing {
            entries[request.id]?.announcement.map { .announcement($0) } ?? .other(request.kind)
        }
        // An announcement handed to speech but waiting behind other speech counts as playing: the
        // queue must not release another after it.
        let released = scheduler.waiting.first { entries[$0.id]?.announcement != nil }
        return SpeechActivity(
            playing: scheduler.playing.map(playing) ?? released.map(playing),
            othersWaiting: scheduler.pendingHint != nil || scheduler.held != nil || scheduler.waiting.contains { entries[$0.id]?.announcement == nil })
    }

    private mutating func newUtterance(
        _ request: UtteranceRequest, tree: String?, element: String?, announcement: AnnouncementID?, message: Message? = nil, at now: MonotonicInstant
    ) -> UtteranceRequest {
        let id = UtteranceID(nextUtterance)
        nextUtterance += 1
        var request = request
        request.id = id
        entries[id] = Entry(request: request, tree: tree, element: element, announcement: announcement, queuedAt: now)
        if let message { messagesInFlight[id] = message }
        return request
    }

    /// Takes in a queue step: its decisions and ended lives, and speaks what it released.
    private mutating func absorb(_ queueStep: AnnouncementStep, at now: MonotonicInstant, into step: inout PlanStep<Message>) {
        // Most steps are the first of their input: take the queue's arrays instead of copying them.
        if step.decisions.isEmpty { step.decisions = queueStep.decisions } else { step.decisions += queueStep.decisions }
        var records = queueStep.records
        for index in records.indices {
            let id = records[index].announcement.id
            records[index].utterance = entries.first { $0.value.announcement == id }?.key
        }
        if step.announcements.isEmpty { step.announcements = records } else { step.announcements += records }
        for announcement in queueStep.release {
            let request = UtteranceRequest(id: UtteranceID(0), kind: .announcement(announcement.priority), text: announcement.text, language: announcement.language)
            let stamped = newUtterance(request, tree: announcement.tree, element: announcement.element, announcement: announcement.id, at: now)
            follow(scheduler.submit(stamped, at: now), at: now, into: &step)
        }
    }

    /// Takes in a scheduler step: its commands for the speech layer, and each event, which the
    /// queue learns of (for announcements) and which ends an utterance's life when it is final.
    private mutating func follow(_ schedulerStep: SpeechSchedulerStep, at now: MonotonicInstant, into step: inout PlanStep<Message>) {
        for command in schedulerStep.commands {
            switch command {
            case .play(let request): step.commands.append(.play(request, messagesInFlight[request.id]))
            case .stop(let id): step.commands.append(.stop(id))
            }
        }
        for event in schedulerStep.events {
            guard var entry = entries[event.utterance] else { continue }
            step.notices.append(
                PlanNotice(
                    SpeechNotice(
                        utterance: event.utterance, kind: event.kind, phase: event.phase, at: event.at, text: entry.request.text, tree: entry.tree,
                        element: entry.element),
                    message: messagesInFlight[event.utterance]))
            if case .started = event.phase {
                entry.startedAt = event.at
                entries[event.utterance] = entry
            }
            if let announcement = entry.announcement {
                absorb(queue.observe(event, announcement: announcement, speech: activity), at: now, into: &step)
            } else if event.isFinal {
                // Speech that announcements waited behind has ended: one may start now.
                absorb(queue.tick(at: now, speech: activity), at: now, into: &step)
            }
            guard event.isFinal else { continue }
            if entry.announcement == nil {
                switch event.phase {
                case .finished:
                    step.speech.append(record(event.utterance, entry, outcome: .spoken, interruptedBy: nil, at: event.at))
                case .interrupted(let successor?):
                    step.speech.append(record(event.utterance, entry, outcome: .interrupted, interruptedBy: entries[successor]?.request.kind, at: event.at))
                default:
                    step.speech.append(record(event.utterance, entry, outcome: .cancelled, interruptedBy: nil, at: event.at))
                }
            }
            if let message = messagesInFlight.removeValue(forKey: event.utterance) { step.endedMessages[event.utterance] = message }
            entries[event.utterance] = nil
        }
    }

    private func record(
        _ id: UtteranceID, _ entry: Entry, outcome: AnnouncementOutcome, interruptedBy: SpeechKind?, at now: MonotonicInstant
    ) -> SpeechRecord {
        SpeechRecord(
            utterance: id, kind: entry.request.kind, text: entry.request.text, tree: entry.tree, element: entry.element, queuedAt: entry.queuedAt,
            startedAt: entry.startedAt, endedAt: now, outcome: outcome, interruptedBy: interruptedBy)
    }
}

/// What one input to the plan decided: commands for the speech layer, each utterance event (with
/// what it says, for subscribers), the queue's decisions, and the lives that ended (for the log).
/// A play and a notice carry the client's message they concern, so nothing is looked up again.
public struct PlanStep<Message: PlannedMessage>: Sendable, Equatable {
    /// Play or stop, in order.
    public var commands: [PlanCommand<Message>] = []
    public var notices: [PlanNotice<Message>] = []
    public var decisions: [AnnouncementDecision] = []
    /// Announcements whose outcome is now final, with the utterance that spoke them.
    public var announcements: [AnnouncementRecord] = []
    /// Other utterances whose life ended.
    public var speech: [SpeechRecord] = []
    /// The clients' messages of the utterances whose life ended, as they were at the end (their
    /// final events and rows are worded from them).
    public var endedMessages: [UtteranceID: Message] = [:]

    public init() {}
}
