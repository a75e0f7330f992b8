import NarratorBase
import NarratorSpeechPlan

/// Events to SSIP connections, held while the client may not have its callback yet
/// (``SSIPEventHold``), and the log rows of SSIP messages.
extension SSIPServer {
    /// Sends an event about `message` to the connection that sent it, if it is still connected
    /// and asked for this kind of event; held, behind any held before it, until the hold ends.
    mutating func event(_ kind: SSIPEventKind, _ event: SSIPEvent, for message: SSIPMessage, at now: MonotonicInstant, into effects: inout [Effect]) {
        let client = message.client
        guard let state = clients[client], state.settings.notifications.contains(kind) else { return }
        if let hold = eventHolds[client], !hold.events.isEmpty || now < hold.until {
            eventHolds[client]?.events.append(event)
        } else {
            // A hold whose grace passed with nothing in it is over.
            eventHolds[client] = nil
            effects.append(.send(client, .event(event)))
        }
    }

    /// Sends a connection's held events, in order, and ends its hold.
    mutating func releaseEvents(of client: ClientID) -> [Effect] {
        guard let hold = eventHolds.removeValue(forKey: client) else { return [] }
        return hold.events.map { .send(client, .event($0)) }
    }

    /// The timer (``nextDeadline``): every hold whose grace has passed lets its events go, by
    /// connection; `.max` at shutdown, since the connections close soon.
    public mutating func releaseEvents(dueBy now: MonotonicInstant) -> [Effect] {
        eventHolds.filter { $0.value.until <= now }.keys.sorted().flatMap { releaseEvents(of: $0) }
    }

    // MARK: Log rows

    /// The log row of an SSIP message's life (kind `ssip`, with its client's name and priority).
    public func row(_ record: SpeechRecord, _ message: SSIPMessage) -> LogRow {
        var row = LogRow(record, policy: configuration.policy.name, seconds: seconds)
        Self.fill(&row, with: message)
        // Stopped by a key echo; the rest is another row, after the key's.
        if message.heldByKey { row.interruptedBy = .key }
        if message.pausing {
            // Cut while the listener heard it: interrupted, as a newer message's cut is. One still
            // waiting was only withdrawn (cancelled). Either plays again after RESUME, with a row of its own.
            row.interruptedBy = .pause
            if record.startedAt != nil { row.outcome = .ended(.interrupted) }
        }
        return row
    }

    /// The row of a message that never reached the plan (judged by the gate, held when its client left).
    func row(
        for message: SSIPMessage, outcome: AnnouncementOutcome, startedAt: MonotonicInstant?, interruptedBy: LogRow.Interruption?, at now: MonotonicInstant
    ) -> LogRow {
        var row = LogRow(
            kind: .ssip, text: message.sent, policy: configuration.policy.name, queuedAt: seconds(message.queuedAt),
            startedAt: startedAt.map(seconds), endedAt: seconds(now), outcome: .ended(outcome), interruptedBy: interruptedBy)
        Self.fill(&row, with: message)
        return row
    }

    private static func fill(_ row: inout LogRow, with message: SSIPMessage) {
        row.kind = .ssip
        row.text = message.sent
        row.priority = message.priority.rawValue
        row.clientName = message.clientName
        row.clientPID = message.credentials.map { Int64($0.pid) }
        row.clientUID = message.credentials.map { Int64($0.uid) }
        row.dedupKey = message.key
        row.connection = Int64(message.client.rawValue)
        row.command = message.command.rawValue
    }

    /// Wall-clock seconds for a log row.
    func seconds(_ instant: MonotonicInstant) -> Double {
        configuration.wallClockOffset + Double(instant.nanoseconds) / 1e9
    }
}
