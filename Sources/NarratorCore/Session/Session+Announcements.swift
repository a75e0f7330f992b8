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
            id: logBook.newAnnouncement(), text: text, priority: priority, tree: tree, element: element, key: key, client: client,
            language: language ?? (tree == nil ? focusedLanguage : tree.flatMap { workspace.trees[$0]?.language }))
        let step = plan.announce(announcement, at: batch.now)
        let policy = plan.queue.policy(for: tree).name
        let first = step.decisions.first { $0.announcement == announcement.id }
        var row: LogRow
        if let record = step.announcements.first(where: { $0.announcement.id == announcement.id }) {
            row = LogRow(record, seconds: seconds)
        } else {
            row = LogRow(
                announcement: Int64(announcement.id.rawValue), kind: .announcement, text: text, priority: priority.rawValue, tree: tree, element: element,
                dedupKey: announcement.key, policy: policy, queuedAt: seconds(batch.now), outcome: first.map { LogRow.Outcome($0.state) } ?? .queued)
        }
        let record = clients[client]
        row.clientPID = record.map { Int64($0.credentials.pid) }
        row.clientUID = record.map { Int64($0.credentials.uid) }
        row.clientName = record?.name
        row.connection = Int64(client.rawValue)
        follow(step, appended: announcement.id)
        // Acknowledged once its row is on disk: the reply waits for the commit.
        let ticket = newTicket()
        clients.awaitCommit(
            ticket,
            JSONClients.AwaitingCommit(
                client: client, id: id,
                report: AnnounceReport(
                    announcement: announcement.id, decision: first?.state.name ?? "queued", priority: priority, key: announcement.key, policy: policy,
                    duplicateOf: first?.duplicateOf, logged: false, logProblem: nil)))
        batch.emit(.appendLog(row, ticket))
    }

    mutating func logWritten(_ ticket: Ticket, _ result: Result<Void, LogProblem>) {
        guard let waiting = clients.committed(ticket, result) else { return }
        send(waiting.client, Reply(id: waiting.id, .success(.announced(waiting.report))))
    }
}
