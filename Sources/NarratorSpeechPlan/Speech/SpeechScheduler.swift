import NarratorBase

/// Decides which utterance plays, what it interrupts, and when a hint is due.
///
/// A pure state machine: every input carries the monotonic instant it happened at, and every
/// output is a ``SpeechSchedulerStep`` of commands for the runtime and events for observers.
/// One utterance plays at a time. The runtime reports the natural end of playback with
/// ``finished(_:at:)`` and calls ``tick(at:)`` when ``nextDeadline`` passes.
///
/// A key echo in the middle of long text holds it (``SpeechPolicy/holds(_:for:)``): the text
/// stops, and the rest of it (``held``, a new utterance the caller made) plays once the key
/// echoes have, before anything else that waits. A key echo arriving while ``held`` waits goes
/// in front of it; speech that would have cut the text drops it (``SpeechEvent/DropReason/cutWhileHeld``).
public struct SpeechScheduler: Sendable {
    /// A hint waiting for its focus utterance to end and for the pause after it.
    private struct PendingHint: Sendable {
        var request: UtteranceRequest
        var owner: UtteranceID
        /// Nil while the owner has not finished yet.
        var dueAt: MonotonicInstant?
    }

    /// The latest focus or value utterance: the one a hint follows.
    private struct FocusOwner: Sendable {
        var id: UtteranceID
        var finishedAt: MonotonicInstant?
    }

    public private(set) var configuration: SpeechSchedulerConfiguration
    /// The utterance being synthesized or played, if any.
    public private(set) var playing: UtteranceRequest?
    /// Utterances waiting to play, in the order they will play (after ``held``, but for key echoes).
    public private(set) var waiting: [UtteranceRequest] = []
    /// The rest of long text a key echo stopped: it plays right after the key echoes.
    public private(set) var held: UtteranceRequest?
    private var hint: PendingHint?
    private var focusOwner: FocusOwner?

    public init(configuration: SpeechSchedulerConfiguration = SpeechSchedulerConfiguration()) {
        self.configuration = configuration
    }

    /// The hint that will follow the current focus utterance, if one is pending.
    public var pendingHint: UtteranceRequest? { hint?.request }

    /// True when nothing plays and nothing waits.
    public var isIdle: Bool { playing == nil && waiting.isEmpty && hint == nil && held == nil }

    /// When the runtime must call ``tick(at:)`` next, if a timed decision is pending.
    public var nextDeadline: MonotonicInstant? {
        guard playing == nil, held == nil, waiting.allSatisfy({ SpeechPolicy.rank($0.kind) == 0 }) else { return nil }
        return hint?.dueAt
    }

    /// A new utterance from the core. `continuation` is what is left of the playing utterance,
    /// for when `request` holds it (``SpeechPolicy/holds(_:for:)``): it then becomes ``held``,
    /// and is queued; otherwise it is not used.
    public mutating func submit(
        _ request: UtteranceRequest, continuation: UtteranceRequest? = nil, at now: MonotonicInstant
    ) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        step.events.append(SpeechEvent(utterance: request.id, kind: request.kind, phase: .queued, at: now))
        guard configuration.speechEnabled else {
            step.events.append(Self.dropped(request, .speechOff, at: now))
            return step
        }
        if let kept = held, request.echo != .key,
           SpeechPolicy.arrival(of: request.kind, while: kept.kind) == .interrupt
        {
            // It would have cut the text had the text been playing: it cuts it held, too.
            step.events.append(Self.dropped(kept, .cutWhileHeld, at: now))
            held = nil
        }
        if let current = playing, let continuation, SpeechPolicy.holds(current, for: request) {
            interrupt(current, by: request.id, at: now, into: &step)
            held = continuation
            step.events.append(SpeechEvent(utterance: continuation.id, kind: continuation.kind, phase: .queued, at: now))
            start(request, at: now, into: &step)
            return step
        }
        switch request.kind {
        case .hint:
            guard configuration.hintsEnabled else {
                step.events.append(Self.dropped(request, .hintsDisabled, at: now))
                return step
            }
            guard let owner = focusOwner else {
                step.events.append(Self.dropped(request, .noFocus, at: now))
                return step
            }
            if let previous = hint {
                step.events.append(Self.dropped(previous.request, .focusMoved, at: now))
            }
            let due = owner.finishedAt.map { max($0 + configuration.hintDelay, now) }
            hint = PendingHint(request: request, owner: owner.id, dueAt: due)
            advance(at: now, into: &step)
        case .focus, .value, .speak:
            dropStaleFocusSpeech(at: now, into: &step)
            focusOwner = request.kind == .speak ? nil : FocusOwner(id: request.id, finishedAt: nil)
            admit(request, at: now, into: &step)
        case .announcement:
            admit(request, at: now, into: &step)
        case .ssip(let priority):
            admitSSIP(request, priority, at: now, into: &step)
        }
        return step
    }

    /// Silences the utterances `matches` picks: the playing one is interrupted (with no successor),
    /// waiting ones are dropped for `reason`. What waits for others goes on.
    public mutating func cancel(
        _ reason: SpeechEvent.DropReason, at now: MonotonicInstant, where matches: (UtteranceRequest) -> Bool
    ) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        if let current = playing, matches(current) {
            interrupt(current, by: nil, at: now, into: &step)
        }
        if let kept = held, matches(kept) {
            step.events.append(Self.dropped(kept, reason, at: now))
            held = nil
        }
        for request in waiting where matches(request) {
            step.events.append(Self.dropped(request, reason, at: now))
        }
        waiting.removeAll(where: matches)
        advance(at: now, into: &step)
        return step
    }

    /// Interrupts the playing utterance if `matches` picks it (SSIP's `STOP`: what waits goes on),
    /// and drops the held rest of long text if it picks that: it is what was playing before the key echo.
    public mutating func stopPlaying(at now: MonotonicInstant, where matches: (UtteranceRequest) -> Bool) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        if let kept = held, matches(kept) {
            step.events.append(Self.dropped(kept, .stopped, at: now))
            held = nil
        }
        if let current = playing, matches(current) {
            interrupt(current, by: nil, at: now, into: &step)
            advance(at: now, into: &step)
        }
        return step
    }

    /// The runtime played `id` to its end. Reports for utterances no longer playing are ignored.
    public mutating func finished(_ id: UtteranceID, at now: MonotonicInstant) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        guard let current = playing, current.id == id else { return step }
        playing = nil
        step.events.append(SpeechEvent(utterance: id, kind: current.kind, phase: .finished, at: now))
        if focusOwner?.id == id {
            focusOwner?.finishedAt = now
            if hint?.owner == id {
                hint?.dueAt = now + configuration.hintDelay
            }
        }
        advance(at: now, into: &step)
        return step
    }

    /// Time passed: starts a hint whose pause is over.
    public mutating func tick(at now: MonotonicInstant) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        advance(at: now, into: &step)
        return step
    }

    /// The runtime could not play `id` (the output refused it, synthesis failed): it ends as if
    /// stopped (`interrupted` with no successor), its hint is dropped, and what waits goes on.
    /// Reports for utterances no longer playing are ignored.
    public mutating func abandon(_ id: UtteranceID, at now: MonotonicInstant) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        guard let current = playing, current.id == id else { return step }
        playing = nil
        step.events.append(SpeechEvent(utterance: id, kind: current.kind, phase: .interrupted(by: nil), at: now))
        if focusOwner?.id == id { focusOwner = nil }
        if let pending = hint, pending.owner == id {
            step.events.append(Self.dropped(pending.request, .focusInterrupted, at: now))
            hint = nil
        }
        advance(at: now, into: &step)
        return step
    }

    /// Silences everything: the playing utterance is interrupted, all waiting ones are dropped.
    public mutating func stopAll(at now: MonotonicInstant) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        for request in waiting {
            step.events.append(Self.dropped(request, .stopped, at: now))
        }
        waiting.removeAll()
        if let kept = held {
            step.events.append(Self.dropped(kept, .stopped, at: now))
            held = nil
        }
        if let pending = hint {
            step.events.append(Self.dropped(pending.request, .stopped, at: now))
            hint = nil
        }
        if let current = playing {
            interrupt(current, by: nil, at: now, into: &step)
        }
        focusOwner = nil
        return step
    }

    /// Changes hint settings; switching hints off drops a pending hint. Switching speech off
    /// drops everything waiting; what plays (the "Speech off." that said so) ends as it would.
    public mutating func configure(
        _ configuration: SpeechSchedulerConfiguration, at now: MonotonicInstant
    ) -> SpeechSchedulerStep {
        var step = SpeechSchedulerStep()
        self.configuration = configuration
        if !configuration.speechEnabled {
            for request in waiting { step.events.append(Self.dropped(request, .speechOff, at: now)) }
            waiting.removeAll()
            if let kept = held {
                step.events.append(Self.dropped(kept, .speechOff, at: now))
                held = nil
            }
            if let pending = hint {
                step.events.append(Self.dropped(pending.request, .speechOff, at: now))
                hint = nil
            }
        }
        if !configuration.hintsEnabled, let pending = hint {
            step.events.append(Self.dropped(pending.request, .hintsDisabled, at: now))
            hint = nil
        }
        advance(at: now, into: &step)
        return step
    }

    // MARK: - Rules

    /// Focus moved: speech about the old focus that has not started is stale.
    private mutating func dropStaleFocusSpeech(at now: MonotonicInstant, into step: inout SpeechSchedulerStep) {
        if let pending = hint {
            step.events.append(Self.dropped(pending.request, .focusMoved, at: now))
            hint = nil
        }
        let stale = waiting.filter { $0.kind.followsFocus }
        for request in stale {
            step.events.append(Self.dropped(request, .focusMoved, at: now))
        }
        waiting.removeAll { $0.kind.followsFocus }
    }

    private mutating func admit(
        _ request: UtteranceRequest, at now: MonotonicInstant, into step: inout SpeechSchedulerStep
    ) {
        if let current = playing {
            switch SpeechPolicy.arrival(of: request.kind, while: current.kind) {
            case .interrupt:
                interrupt(current, by: request.id, at: now, into: &step)
                start(request, at: now, into: &step)
            case .wait:
                enqueue(request)
            }
            return
        }
        let isLow = request.kind == .announcement(.low)
        if isLow && (hint != nil || !waiting.isEmpty) {
            enqueue(request)
            advance(at: now, into: &step)
        } else {
            start(request, at: now, into: &step)
        }
    }

    /// Speech Dispatcher's priorities (see ``SpeechPolicy``): a notification is dropped when
    /// anything else plays or waits, a newer text replaces waiting texts, a progress report
    /// replaces its client's waiting one (so the first and the last of a burst are spoken).
    private mutating func admitSSIP(
        _ request: UtteranceRequest, _ priority: MessagePriority, at now: MonotonicInstant, into step: inout SpeechSchedulerStep
    ) {
        switch priority {
        case .notification:
            let busy = playing.map { SpeechPolicy.arrival(of: request.kind, while: $0.kind) == .wait } ?? false
            if busy || !waiting.isEmpty {
                step.events.append(Self.dropped(request, .busy, at: now))
                return
            }
        case .text:
            drop(.superseded, at: now, into: &step) { $0.kind == .ssip(.text) }
        case .progress:
            drop(.superseded, at: now, into: &step) { $0.kind == .ssip(.progress) && $0.client == request.client }
        case .important, .message:
            break
        }
        admit(request, at: now, into: &step)
    }

    private mutating func drop(
        _ reason: SpeechEvent.DropReason, at now: MonotonicInstant, into step: inout SpeechSchedulerStep,
        where matches: (UtteranceRequest) -> Bool
    ) {
        for request in waiting where matches(request) {
            step.events.append(Self.dropped(request, reason, at: now))
        }
        waiting.removeAll(where: matches)
    }

    private mutating func interrupt(
        _ current: UtteranceRequest, by successor: UtteranceID?, at now: MonotonicInstant,
        into step: inout SpeechSchedulerStep
    ) {
        playing = nil
        step.commands.append(.stop(current.id))
        step.events.append(
            SpeechEvent(utterance: current.id, kind: current.kind, phase: .interrupted(by: successor), at: now))
        if focusOwner?.id == current.id {
            focusOwner = nil
        }
        if let pending = hint, pending.owner == current.id {
            step.events.append(Self.dropped(pending.request, .focusInterrupted, at: now))
            hint = nil
        }
    }

    private mutating func start(
        _ request: UtteranceRequest, at now: MonotonicInstant, into step: inout SpeechSchedulerStep
    ) {
        playing = request
        step.commands.append(.play(request))
        step.events.append(SpeechEvent(utterance: request.id, kind: request.kind, phase: .started, at: now))
    }

    private mutating func enqueue(_ request: UtteranceRequest) {
        let rank = SpeechPolicy.rank(request.kind)
        let index = waiting.firstIndex { SpeechPolicy.rank($0.kind) < rank } ?? waiting.endIndex
        waiting.insert(request, at: index)
    }

    /// Starts the next utterance when nothing plays: urgent waiting speech, then a due hint,
    /// then low-priority announcements.
    private mutating func advance(at now: MonotonicInstant, into step: inout SpeechSchedulerStep) {
        guard playing == nil else { return }
        if let kept = held {
            // Key echoes that wait go first; then the held text goes on, before the rest.
            if let key = waiting.firstIndex(where: { $0.echo == .key }) {
                start(waiting.remove(at: key), at: now, into: &step)
            } else {
                held = nil
                start(kept, at: now, into: &step)
            }
            return
        }
        if let first = waiting.first, SpeechPolicy.rank(first.kind) > 0 {
            waiting.removeFirst()
            start(first, at: now, into: &step)
            return
        }
        if let pending = hint {
            guard let due = pending.dueAt else {
                // The owner neither plays nor waits, so it will never finish: the hint cannot follow it.
                if !waiting.contains(where: { $0.id == pending.owner }) {
                    step.events.append(Self.dropped(pending.request, .focusInterrupted, at: now))
                    hint = nil
                    advance(at: now, into: &step)
                }
                return
            }
            if due <= now {
                hint = nil
                focusOwner = nil
                start(pending.request, at: now, into: &step)
            }
            return
        }
        if !waiting.isEmpty {
            start(waiting.removeFirst(), at: now, into: &step)
        }
    }

    private static func dropped(
        _ request: UtteranceRequest, _ reason: SpeechEvent.DropReason, at now: MonotonicInstant
    ) -> SpeechEvent {
        SpeechEvent(utterance: request.id, kind: request.kind, phase: .dropped(reason), at: now)
    }
}
