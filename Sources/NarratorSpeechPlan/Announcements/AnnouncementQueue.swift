import NarratorBase

/// Decides, for every announcement, whether and when it is spoken: deduplication, a rate limit per
/// tree, a bounded queue with a time to live, and cancellation when focus leaves a tree.
///
/// It sits in front of ``SpeechScheduler`` (``SpeechPlan`` wires the two): the queue decides admission
/// and order and hands an announcement to speech (``AnnouncementStep/release``) only when speech
/// should start it, so the scheduler plays it at once. A pure state machine: every input carries its
/// instant and what speech is doing (``SpeechActivity``, read from the scheduler: the queue keeps no
/// copy of it), the plan reports what speech did to announcements with ``observe(_:announcement:speech:)``
/// and calls ``tick(at:speech:)`` at ``nextDeadline``.
///
/// Announcements are polite to each other: one never cuts another of the same or higher priority
/// (it waits); an arriving `high` cuts a playing `default` or `low`, an arriving `default` cuts a `low`.
/// Towards other speech they follow the iOS semantics of ``SpeechPolicy``: an arriving `default` or
/// `high` interrupts focus speech, `low` waits, and nothing that waits cuts newer focus speech.
public struct AnnouncementQueue: Sendable {
    private struct Entry: Sendable {
        var announcement: Announcement
        var queuedAt: MonotonicInstant
        var startedAt: MonotonicInstant?
        var policy: String
        var rank: Int { SpeechPolicy.rank(.announcement(announcement.priority)) }
    }

    /// The policy for trees without their own, and for the queue's bound.
    public private(set) var policy: AnnouncementPolicy
    /// Policies chosen per tree.
    public private(set) var treePolicies: [String: AnnouncementPolicy] = [:]
    private var pending: [Entry] = []
    private var held: [Entry] = []
    private var inSpeech: [AnnouncementID: Entry] = [:]
    private var buckets: [String: TokenBucket] = [:]
    private var lastSpoken: [DedupIdentity: (at: MonotonicInstant, id: AnnouncementID)] = [:]
    private var focusTree: String?

    public init(policy: AnnouncementPolicy = .default) {
        self.policy = policy
    }

    /// Announcements waiting for speech, in the order they will be released.
    public var waiting: [Announcement] { pending.map(\.announcement) }
    /// Announcements throttled but kept for coalescing.
    public var deferred: [Announcement] { held.map(\.announcement) }
    /// True when nothing waits and nothing this queue released is still in speech.
    public var isIdle: Bool { pending.isEmpty && held.isEmpty && inSpeech.isEmpty }

    /// Announcements from `client` still waiting (queued or deferred): what `--max-queued` limits.
    public func waitingCount(of client: ClientID) -> Int {
        pending.reduce(0) { $0 + ($1.announcement.client == client ? 1 : 0) } + held.reduce(0) { $0 + ($1.announcement.client == client ? 1 : 0) }
    }

    /// The policy that decides announcements of `tree`.
    public func policy(for tree: String?) -> AnnouncementPolicy {
        tree.flatMap { treePolicies[$0] } ?? policy
    }

    /// Changes the queue-wide policy (new bounds apply to the next arrival).
    public mutating func setPolicy(_ policy: AnnouncementPolicy) {
        self.policy = policy
    }

    /// Gives one tree its own policy, or (nil) back the queue's.
    public mutating func setPolicy(_ policy: AnnouncementPolicy?, forTree tree: String) {
        treePolicies[tree] = policy
    }

    /// When the runtime must call ``tick(at:)``: the earliest expiry or refill a decision waits for.
    public var nextDeadline: MonotonicInstant? {
        // Read after every input the daemon takes: the minimum is kept as it goes, nothing is built.
        var earliest: MonotonicInstant?
        func consider(_ instant: MonotonicInstant) { earliest = min(earliest ?? instant, instant) }
        for entry in pending {
            if let ttl = policy(for: entry.announcement.tree).timeToLive { consider(entry.queuedAt + ttl) }
        }
        for entry in held {
            let tree = entry.announcement.tree
            let rules = policy(for: tree)
            if let ttl = rules.timeToLive { consider(entry.queuedAt + ttl) }
            if let limit = rules.rateLimit, let bucket = buckets[tree ?? ""] { consider(bucket.nextTokenAt(limit)) }
        }
        return earliest
    }

    // MARK: Inputs

    /// A new announcement: deduplicated, throttled, deferred, dropped, queued or released at once.
    public mutating func enqueue(_ announcement: Announcement, at now: MonotonicInstant, speech: SpeechActivity) -> AnnouncementStep {
        var step = AnnouncementStep()
        var speech = speech
        housekeeping(at: now, speech: &speech, into: &step)
        let rules = policy(for: announcement.tree)
        let entry = Entry(announcement: announcement, queuedAt: now, startedAt: nil, policy: rules.name)
        if rules.deduplicate, let original = duplicate(of: announcement, within: rules.dedupWindow, at: now) {
            finish(entry, .deduplicated, at: now, duplicateOf: original, into: &step)
            return step
        }
        if let limit = rules.rateLimit, announcement.priority != .high {
            let tree = announcement.tree ?? ""
            var bucket = buckets[tree] ?? TokenBucket(full: limit, at: now)
            let admitted = bucket.take(limit, at: now)
            buckets[tree] = bucket
            if !admitted {
                guard rules.coalesce else {
                    finish(entry, .throttled, at: now, into: &step)
                    return step
                }
                if let index = held.firstIndex(where: { $0.announcement.coalesces(with: announcement) }) {
                    finish(held.remove(at: index), .throttled, at: now, duplicateOf: announcement.id, into: &step)
                }
                held.append(entry)
                enforceLimit(at: now, into: &step)
                if held.contains(where: { $0.announcement.id == announcement.id }) {
                    step.decisions.append(AnnouncementDecision(announcement: announcement.id, state: .deferred, at: now))
                }
                return step
            }
        }
        admit(entry, fresh: true, at: now, speech: &speech, into: &step)
        return step
    }

    /// What speech did to an announcement this queue released: started, finished, interrupted or
    /// dropped it. `speech` is what speech is doing after that event.
    public mutating func observe(_ event: SpeechEvent, announcement: AnnouncementID, speech: SpeechActivity) -> AnnouncementStep {
        var step = AnnouncementStep()
        var speech = speech
        let now = event.at
        switch event.phase {
        case .queued:
            return step
        case .started:
            if inSpeech[announcement] != nil {
                inSpeech[announcement]?.startedAt = now
                step.decisions.append(AnnouncementDecision(announcement: announcement, state: .started, at: now))
            }
            return step
        case .finished:
            if let entry = inSpeech.removeValue(forKey: announcement) {
                lastSpoken[entry.announcement.dedupIdentity] = (now, announcement)
                finish(entry, .spoken, at: now, into: &step)
            }
        case .interrupted(let successor):
            if let entry = inSpeech.removeValue(forKey: announcement) {
                finish(entry, successor == nil ? .cancelled : .interrupted, at: now, into: &step)
            }
        case .dropped:
            if let entry = inSpeech.removeValue(forKey: announcement) {
                finish(entry, .cancelled, at: now, into: &step)
            }
        }
        housekeeping(at: now, speech: &speech, into: &step)
        return step
    }

    /// Focus moved to `tree`: when it left another tree, that tree's waiting `low` and `default`
    /// announcements are cancelled (its policy permitting). Call it before submitting the focus speech.
    public mutating func focusMoved(toTree tree: String, at now: MonotonicInstant, speech: SpeechActivity) -> AnnouncementStep {
        var step = AnnouncementStep()
        var speech = speech
        if let left = focusTree, left != tree, policy(for: left).flushOnFocusChange {
            let isStale = { (entry: Entry) in entry.announcement.tree == left && entry.announcement.priority != .high }
            for entry in (pending + held).filter(isStale) {
                finish(entry, .cancelled, at: now, into: &step)
            }
            pending.removeAll(where: isStale)
            held.removeAll(where: isStale)
        }
        focusTree = tree
        housekeeping(at: now, speech: &speech, into: &step)
        return step
    }

    /// `stop`: every waiting and deferred announcement is cancelled. The one playing is cancelled when
    /// speech reports it interrupted by the stop.
    public mutating func stop(at now: MonotonicInstant) -> AnnouncementStep {
        var step = AnnouncementStep()
        for entry in pending + held {
            finish(entry, .cancelled, at: now, into: &step)
        }
        pending.removeAll()
        held.removeAll()
        return step
    }

    /// The daemon is stopping: every announcement not yet ended (waiting, deferred, or playing) is
    /// cancelled now, so the log holds a final outcome for each; speech events after this change nothing.
    public mutating func shutDown(at now: MonotonicInstant) -> AnnouncementStep {
        var step = stop(at: now)
        for entry in inSpeech.values.sorted(by: { $0.announcement.id < $1.announcement.id }) {
            finish(entry, .cancelled, at: now, into: &step)
        }
        inSpeech.removeAll()
        return step
    }

    /// Time passed: expires what waited too long and admits deferred announcements whose bucket refilled.
    public mutating func tick(at now: MonotonicInstant, speech: SpeechActivity) -> AnnouncementStep {
        var step = AnnouncementStep()
        var speech = speech
        housekeeping(at: now, speech: &speech, into: &step)
        return step
    }

    // MARK: Rules

    /// The announcement `announcement` repeats: same tree and key queued, deferred, speaking, or spoken within the window.
    private func duplicate(of announcement: Announcement, within window: Duration, at now: MonotonicInstant) -> AnnouncementID? {
        let same = { (entry: Entry) in entry.announcement.key == announcement.key && entry.announcement.tree == announcement.tree }
        var speaking: AnnouncementID?
        for entry in inSpeech.values where same(entry) {
            speaking = min(speaking ?? entry.announcement.id, entry.announcement.id)
        }
        if let speaking { return speaking }
        if let entry = pending.first(where: same) ?? held.first(where: same) { return entry.announcement.id }
        if let last = lastSpoken[announcement.dedupIdentity], now - last.at < window { return last.id }
        return nil
    }

    /// Expiry, deferred admissions, then releasing what speech is free for.
    private mutating func housekeeping(at now: MonotonicInstant, speech: inout SpeechActivity, into step: inout AnnouncementStep) {
        let policies = (policy, treePolicies)
        let expired = { (entry: Entry) -> Bool in
            let rules = entry.announcement.tree.flatMap { policies.1[$0] } ?? policies.0
            guard let ttl = rules.timeToLive else { return false }
            return entry.queuedAt + ttl <= now
        }
        if pending.contains(where: expired) || held.contains(where: expired) {
            for entry in pending where expired(entry) { finish(entry, .expired, at: now, into: &step) }
            for entry in held where expired(entry) { finish(entry, .expired, at: now, into: &step) }
            pending.removeAll(where: expired)
            held.removeAll(where: expired)
        }
        var index = 0
        while index < held.count {
            let tree = held[index].announcement.tree
            let rules = policy(for: tree)
            if let limit = rules.rateLimit {
                var bucket = buckets[tree ?? ""] ?? TokenBucket(full: limit, at: now)
                let admitted = bucket.take(limit, at: now)
                buckets[tree ?? ""] = bucket
                guard admitted else {
                    index += 1
                    continue
                }
            }
            admit(held.remove(at: index), fresh: false, at: now, speech: &speech, into: &step)
        }
        release(fresh: nil, at: now, speech: &speech, into: &step)
        if lastSpoken.count > 4096 {
            let longest = ([policy] + treePolicies.values).map(\.dedupWindow).max() ?? .zero
            lastSpoken = lastSpoken.filter { now - $0.value.at < longest }
        }
    }

    /// Puts an entry in the queue (by priority, then arrival), enforces the bound, and releases.
    /// Coalescing, it replaces a waiting announcement about the same control: only the newest value is worth saying.
    private mutating func admit(
        _ entry: Entry, fresh: Bool, at now: MonotonicInstant, speech: inout SpeechActivity, into step: inout AnnouncementStep
    ) {
        if policy(for: entry.announcement.tree).coalesce,
            let index = pending.firstIndex(where: { $0.announcement.coalesces(with: entry.announcement) })
        {
            finish(pending.remove(at: index), .throttled, at: now, duplicateOf: entry.announcement.id, into: &step)
        }
        let index = pending.firstIndex { $0.rank < entry.rank } ?? pending.endIndex
        pending.insert(entry, at: index)
        enforceLimit(at: now, into: &step)
        release(fresh: fresh ? entry.announcement.id : nil, at: now, speech: &speech, into: &step)
        if pending.contains(where: { $0.announcement.id == entry.announcement.id }) {
            step.decisions.append(AnnouncementDecision(announcement: entry.announcement.id, state: .queued, at: now))
        }
    }

    /// Keeps waiting and deferred announcements together within the queue limit, dropping the
    /// lowest priority first and the oldest first among equals.
    private mutating func enforceLimit(at now: MonotonicInstant, into step: inout AnnouncementStep) {
        guard let limit = policy.queueLimit else { return }
        while pending.count + held.count > limit {
            let lowest = min(pending.lazy.map(\.rank).min() ?? .max, held.lazy.map(\.rank).min() ?? .max)
            let waiting = pending.firstIndex { $0.rank == lowest }
            let deferred = held.firstIndex { $0.rank == lowest }
            if let w = waiting, deferred.map({ pending[w].queuedAt <= held[$0].queuedAt }) ?? true {
                finish(pending.remove(at: w), .dropped, at: now, into: &step)
            } else if let d = deferred {
                finish(held.remove(at: d), .dropped, at: now, into: &step)
            }
        }
    }

    /// Hands the head of the queue to speech when speech is free for it. Only a `fresh` arrival
    /// may cut what plays; waiting ones start when speech is idle.
    private mutating func release(
        fresh: AnnouncementID?, at now: MonotonicInstant, speech: inout SpeechActivity, into step: inout AnnouncementStep
    ) {
        guard let head = pending.first else { return }
        // Other speech waiting to start (focus behind a high announcement, a hint in its pause) goes first.
        if let busy = speech.playing ?? (speech.othersWaiting ? .other(.focus) : nil) {
            guard head.announcement.id == fresh else { return }
            switch busy {
            case .announcement(let playing):
                guard let playingEntry = inSpeech[playing], playingEntry.announcement.priority != .high, head.rank > playingEntry.rank
                else { return }
            case .other(let kind):
                guard SpeechPolicy.arrival(of: .announcement(head.announcement.priority), while: kind) == .interrupt else { return }
            }
        }
        pending.removeFirst()
        inSpeech[head.announcement.id] = head
        speech.playing = .announcement(head.announcement.id)
        step.release.append(head.announcement)
        step.decisions.append(AnnouncementDecision(announcement: head.announcement.id, state: .released, at: now))
    }

    private func finish(
        _ entry: Entry, _ outcome: AnnouncementOutcome, at now: MonotonicInstant, duplicateOf: AnnouncementID? = nil,
        into step: inout AnnouncementStep
    ) {
        step.decisions.append(AnnouncementDecision(announcement: entry.announcement.id, state: .ended(outcome), at: now, duplicateOf: duplicateOf))
        step.records.append(
            AnnouncementRecord(
                announcement: entry.announcement, policy: entry.policy, outcome: outcome, queuedAt: entry.queuedAt,
                startedAt: entry.startedAt, endedAt: now, duplicateOf: duplicateOf))
    }
}
