import NarratorBase
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan

/// Announcements: numbering, the per-connection limit, the row appended with the first decision,
/// and the reply sent once that row is committed.
extension Session {
    mutating func announce(
        text: String, priority: AnnouncementPriority, tree: String?, element: String?, key: String?, language: String?, id: JSONValue?,
        from client: ClientID
    ) throws(ReplyError) {
        try checkTextLength(text, field: "announce.text")
        try checkLanguage(language, field: "announce.language")
        if let tree { _ = try narrator { (w) throws(NarratorError) in try w.tree(tree) } }
        let waiting = plan.queue.waitingCount(of: client)
        if waiting >= configuration.limits.queuedPerClient {
            throw ReplyError(
                .limitExceeded,
                "this connection already has \(waiting) announcements waiting, the most allowed (--max-queued); wait for them to be spoken")
        }
        let announcement = Announcement(
            id: AnnouncementID(nextAnnouncement), text: text, priority: priority, tree: tree, element: element, key: key, client: client,
            language: language ?? (tree == nil ? focusedLanguage : tree.flatMap { workspace.trees[$0]?.language }))
        nextAnnouncement += 1
        let step = plan.announce(announcement, at: now)
        let policy = plan.queue.policy(for: tree).name
        let first = step.decisions.first { $0.announcement == announcement.id }
        var row: LogRow
        if let record = step.announcements.first(where: { $0.announcement.id == announcement.id }) {
            row = LogRow(record, seconds: seconds)
        } else {
            row = LogRow(
                announcement: Int64(announcement.id.rawValue), kind: .announcement, text: text, priority: priority.rawValue, tree: tree, element: element,
                dedupKey: announcement.key, policy: policy, queuedAt: seconds(now), outcome: first.map { LogRow.Outcome($0.state) } ?? .queued)
        }
        let record = clients[client]
        row.clientPID = record.map { Int64($0.credentials.pid) }
        row.clientUID = record.map { Int64($0.credentials.uid) }
        row.clientName = record?.name
        row.connection = Int64(client.rawValue)
        follow(step, appended: announcement.id)
        // Acknowledged once its row is on disk: the reply waits for the commit.
        let ticket = newTicket()
        awaitingCommit[ticket] = (
            client, id,
            AnnounceReport(
                announcement: announcement.id, decision: first?.state.name ?? "queued", priority: priority, key: announcement.key, policy: policy,
                duplicateOf: first?.duplicateOf, logged: false, logProblem: nil)
        )
        effects.append(.appendLog(row, ticket))
    }

    mutating func logWritten(_ ticket: Ticket, _ result: Result<Void, LogProblem>) {
        guard var waiting = awaitingCommit.removeValue(forKey: ticket) else { return }
        switch result {
        case .success: waiting.report.logged = true
        case .failure(let problem): waiting.report.logProblem = problem
        }
        guard clients[waiting.client] != nil else { return }
        send(waiting.client, Reply(id: waiting.id, .success(.announced(waiting.report))))
    }
}
