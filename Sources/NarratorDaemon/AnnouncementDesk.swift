import Foundation
import NarratorCore
import NarratorSpeech
import NarratorStore
import NarratorSystem

/// The daemon's announcement queue and utterance log. Owned by the loop thread, like the rest of
/// the daemon's state; the log's writer thread only hands replies back through the event loop.
///
/// Each announcement's row is appended when it is queued (with its first decision) and updated
/// with its outcome; the `announce` reply waits for that first row's commit (group commit), so an
/// acknowledged announcement is on disk. Other utterances get a row once they end.
final class AnnouncementDesk {
    private(set) var queue: AnnouncementQueue
    /// Never missing: while the file cannot be written, rows fail with the reason and the writer
    /// keeps trying to open it again.
    let log: LogWriter
    let logPath: String
    private var nextID: UInt64
    private var announcementOf: [UtteranceID: AnnouncementID] = [:]
    private var utteranceOf: [AnnouncementID: UtteranceID] = [:]
    private var otherSpeech: [UtteranceID: (queued: MonotonicInstant, started: MonotonicInstant?)] = [:]
    private var timer: TimerID?
    /// The loop's context, remembered from the first call that brought it, for timers set from
    /// calls that have none (focus moves).
    private var context: LoopContext?
    /// The row of the announcement just queued, appended by `sendAfterCommit` together with its reply.
    private var pendingRow: LogRow?
    /// Which connection sent each announcement still waiting (queued or deferred), and how many
    /// each connection has waiting: the per-client limit is checked on every `announce`.
    private var senders: [AnnouncementID: ClientID] = [:]
    private var waitingPerClient: [ClientID: Int] = [:]
    /// Set by `shutDown`: speech events that arrive later are not logged again.
    private var stopped = false
    /// Unix seconds minus monotonic seconds, to stamp rows with wall-clock time.
    private let wallOffset: Double

    init(policy: AnnouncementPolicy, logPath: String) {
        queue = AnnouncementQueue(policy: policy)
        self.logPath = logPath
        log = LogWriter.starting(path: logPath)
        nextID = UInt64(max(0, log.lastAnnouncementID)) + 1
        wallOffset = Date().timeIntervalSince1970 - Double(MonotonicClock.now().nanoseconds) / 1e9
    }

    /// Gives `tree` its own policy (`--tree-policy`).
    func setPolicy(_ policy: AnnouncementPolicy, forTree tree: String) {
        queue.setPolicy(policy, forTree: tree)
    }

    func seconds(_ instant: MonotonicInstant) -> Double { wallOffset + Double(instant.nanoseconds) / 1e9 }

    // MARK: Inputs from the daemon

    /// Announcements of `client` still waiting (queued or held for coalescing).
    func waitingCount(of client: ClientID) -> Int { waitingPerClient[client] ?? 0 }

    /// `id` was handed to speech or ended: it no longer counts against its sender's limit.
    private func stopsWaiting(_ id: AnnouncementID) {
        guard let client = senders.removeValue(forKey: id) else { return }
        let left = (waitingPerClient[client] ?? 1) - 1
        waitingPerClient[client] = left > 0 ? left : nil
    }

    /// Queues an announcement; returns the reply's members. The row waits in `pendingRow`.
    func announce(
        text: String, priority: AnnouncementPriority, tree: String?, element: String?, key: String?, client: ClientState?,
        daemon: Daemon, loop: LoopContext
    ) -> [JSONObject.Member] {
        // A log opened late (it was unreadable at start) may hold higher numbers: continue after them.
        nextID = max(nextID, UInt64(max(0, log.lastAnnouncementID)) + 1)
        let id = AnnouncementID(nextID)
        nextID += 1
        if let client {
            senders[id] = client.id
            waitingPerClient[client.id, default: 0] += 1
        }
        let announcement = Announcement(id: id, text: text, priority: priority, tree: tree, element: element, key: key)
        let now = MonotonicClock.now()
        let step = queue.enqueue(announcement, at: now)
        let first = step.decisions.first { $0.announcement == id }
        var row: LogRow
        if let record = step.records.first(where: { $0.announcement.id == id }) {
            row = LogRow(record, seconds: seconds)
        } else {
            row = LogRow(
                announcement: Int64(id.rawValue), kind: "announcement", text: text, priority: priority.rawValue, tree: tree, element: element,
                dedupKey: announcement.key, policy: queue.policy(for: tree).name, queuedAt: seconds(now), outcome: first?.state.name ?? "queued")
        }
        row.clientPID = client.map { Int64($0.peer.pid) }
        row.clientUID = client.map { Int64($0.peer.uid) }
        row.clientName = client?.name
        pendingRow = row
        apply(step, daemon: daemon, loop: loop, skipping: id)
        var members: [JSONObject.Member] = [
            .init(key: "announcement", value: .number(Double(id.rawValue))),
            .init(key: "decision", value: .string(first?.state.name ?? "queued")),
            .init(key: "priority", value: .string(priority.rawValue)), .init(key: "key", value: .string(announcement.key)),
            .init(key: "policy", value: .string(queue.policy(for: tree).name)),
        ]
        if let original = first?.duplicateOf { members.append(.init(key: "duplicate_of", value: .number(Double(original.rawValue)))) }
        return members
    }

    /// Sends `reply` once the pending announcement row is committed, with `logged` saying whether it was.
    /// Returns false when no announcement is pending (the caller sends the reply itself).
    func sendAfterCommit(_ reply: JSONValue, to client: ClientID, loop: LoopContext) -> Bool {
        guard let row = pendingRow else { return false }
        pendingRow = nil
        let eventLoop = loop.eventLoop
        log.append(row) { result in
            let answer: JSONValue
            switch result {
            case .success: answer = Self.adding(logged: true, problem: nil, to: reply)
            case .failure(let error): answer = Self.adding(logged: false, problem: (error.reason, error.description), to: reply)
            }
            let line = answer.compactText
            _ = eventLoop.execute { context in _ = context.send(line, to: client) }
        }
        return true
    }

    private static func adding(logged: Bool, problem: (reason: String, message: String)?, to reply: JSONValue) -> JSONValue {
        guard var object = reply.objectValue else { return reply }
        object["logged"] = .bool(logged)
        if let problem { object["log_error"] = ["reason": .string(problem.reason), "message": .string(problem.message)] }
        return .object(object)
    }

    /// Focus is about to move to `tree` (call before its speech is submitted).
    func focusMoved(toTree tree: String, daemon: Daemon) {
        apply(queue.focusMoved(toTree: tree, at: MonotonicClock.now()), daemon: daemon, loop: context)
    }

    /// `stop`: cancels every waiting announcement (speech then cancels the one playing).
    func stop(daemon: Daemon, loop: LoopContext) {
        apply(queue.stop(at: MonotonicClock.now()), daemon: daemon, loop: loop)
    }

    /// Every speech event, on the loop thread: the queue learns what speech did, and utterances
    /// that are not announcements get their row when they end.
    func speechEvent(_ event: SpeechEvent, item: Daemon.SpokenItem?, daemon: Daemon, loop: LoopContext) {
        guard !stopped else { return }
        let announcement = announcementOf[event.utterance]
        if announcement == nil, let item, !Self.isAnnouncement(item.kind) {
            switch event.phase {
            case .queued: otherSpeech[event.utterance] = (event.at, nil)
            case .started: otherSpeech[event.utterance]?.started = event.at
            case .finished, .interrupted, .dropped:
                let times = otherSpeech.removeValue(forKey: event.utterance) ?? (event.at, nil)
                var outcome = AnnouncementOutcome.spoken
                var cutBy: String?
                switch event.phase {
                case .interrupted(let by?):
                    outcome = .interrupted
                    cutBy = announcementOf[by] != nil ? "announcement" : "speech"
                case .interrupted(nil), .dropped: outcome = .cancelled
                default: break
                }
                log.append(
                    LogRow(
                        utterance: Int64(event.utterance.rawValue), kind: item.kind.name, text: item.text, tree: item.tree, element: item.element,
                        queuedAt: seconds(times.queued), startedAt: times.started.map(seconds), endedAt: seconds(event.at),
                        outcome: outcome.rawValue, interruptedBy: cutBy))
            }
        }
        // The step may hold this announcement's final record: its row needs the utterance id, so
        // the maps are cleared only after it is applied.
        apply(queue.observe(event, announcement: announcement), daemon: daemon, loop: loop)
        if event.isFinal, let announcement {
            announcementOf[event.utterance] = nil
            utteranceOf[announcement] = nil
        }
    }

    private static func isAnnouncement(_ kind: SpeechKind) -> Bool {
        if case .announcement = kind { return true }
        return false
    }

    /// The daemon is stopping (SIGTERM): every announcement and utterance still open gets its final
    /// outcome (`cancelled`), and the call returns once every row is committed, so every reply
    /// waiting for a commit is already queued on the loop when this returns.
    func shutDown(daemon: Daemon, loop: LoopContext) {
        let now = MonotonicClock.now()
        apply(queue.shutDown(at: now), daemon: daemon, loop: loop)
        for (utterance, times) in otherSpeech.sorted(by: { $0.key < $1.key }) {
            guard let item = daemon.spoken[utterance] else { continue }
            log.append(
                LogRow(
                    utterance: Int64(utterance.rawValue), kind: item.kind.name, text: item.text, tree: item.tree, element: item.element,
                    queuedAt: seconds(times.queued), startedAt: times.started.map(seconds), endedAt: seconds(now), outcome: AnnouncementOutcome.cancelled.rawValue))
        }
        otherSpeech.removeAll()
        announcementOf.removeAll()
        utteranceOf.removeAll()
        stopped = true
        if let timer { loop.cancel(timer) }
        timer = nil
        log.flush()
    }

    // MARK: Following the queue

    private func apply(_ step: AnnouncementStep, daemon: Daemon, loop: LoopContext?, skipping skipped: AnnouncementID? = nil) {
        if let loop { context = loop }
        for announcement in step.release {
            stopsWaiting(announcement.id)
            let utterance = daemon.say(announcement.text, .announcement(announcement.priority), tree: announcement.tree, element: announcement.element)
            announcementOf[utterance] = announcement.id
            utteranceOf[announcement.id] = utterance
        }
        for record in step.records { stopsWaiting(record.announcement.id) }
        for record in step.records where record.announcement.id != skipped {
            var row = LogRow(record, seconds: seconds)
            row.utterance = utteranceOf[record.announcement.id].map { Int64($0.rawValue) }
            log.update(row)
        }
        if let loop = loop ?? context { reschedule(loop, daemon: daemon) }
    }

    /// Keeps one timer for the queue's next deadline (expiry, bucket refill).
    private func reschedule(_ loop: LoopContext, daemon: Daemon) {
        if let timer { loop.cancel(timer) }
        timer = nil
        guard let deadline = queue.nextDeadline else { return }
        let delay = max(.zero, deadline - MonotonicClock.now()) + .milliseconds(1)
        timer = loop.schedule(after: delay) { [weak self, weak daemon] loop in
            guard let self, let daemon else { return }
            self.timer = nil
            self.apply(self.queue.tick(at: MonotonicClock.now()), daemon: daemon, loop: loop)
        }
    }

    // MARK: Status

    var statusMembers: [JSONObject.Member] {
        var logJSON = JSONObject(["path": .string(logPath)])
        let status = log.status
        logJSON["ok"] = .bool(status.lastError == nil && status.isOpen)
        logJSON["open"] = .bool(status.isOpen)
        logJSON["rows"] = .number(Double(status.rowsWritten))
        logJSON["failed"] = .number(Double(status.rowsFailed))
        logJSON["pending"] = .number(Double(status.pending))
        logJSON["reopened"] = .number(Double(status.reopenings))
        logJSON["error"] = status.lastError.map { .string($0.description) } ?? .null
        logJSON["reason"] = .optional(status.lastError?.reason)
        logJSON["commit_ms"] = [
            "p50": .optional(status.commitLatencyP50.map { $0 * 1000 }), "p99": .optional(status.commitLatencyP99.map { $0 * 1000 }),
        ]
        return [
            .init(
                key: "announcements",
                value: [
                    "policy": .string(queue.policy.name), "waiting": .number(Double(queue.waiting.count)),
                    "trees": .object(JSONObject(queue.treePolicies.keys.sorted().map { .init(key: $0, value: .string(queue.treePolicies[$0]!.name)) })),
                    "deferred": .number(Double(queue.deferred.count)),
                ]),
            .init(key: "log", value: .object(logJSON)),
        ]
    }
}
