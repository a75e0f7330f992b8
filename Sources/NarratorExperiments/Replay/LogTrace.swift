import NarratorModel
import NarratorSSIP
import NarratorSpeechPlan

/// The live log's rows as a replay trace (`narratorctl log --trace`): every utterance that
/// shared the voice, with how long it played and the outcome the daemon logged, and the commands
/// that silenced speech, so that replaying the trace under the policy it ran with gives back what
/// was logged, and replaying it under another policy says what that policy would have done.
public struct LogTrace: Sendable {
    /// The events, in the order they were queued, `at` in seconds from the first row.
    public private(set) var events: [TraceEvent] = []
    /// The first row's time (Unix seconds): the trace's zero.
    public private(set) var origin: Double = 0
    /// What the rows held that a trace cannot carry, and how often, in the order first met.
    public private(set) var notCarried: [(what: String, count: Int)] = []

    /// - Parameter rows: log rows (command rows included), in any order.
    public init(rows: [LogRow]) {
        let ordered = Self.askedOrder(rows)
        origin = ordered.first?.queuedAt ?? 0
        for row in ordered {
            if let event = event(row) { events.append(event) }
        }
    }

    /// Rows in the order they were asked for: by the time they were queued, ties in the order
    /// given; among the rows of one instant, speech that is not an announcement (a focus and its
    /// hint, said together but logged as each ended) takes its places in utterance order.
    static func askedOrder(_ rows: [LogRow]) -> [LogRow] {
        var ordered = rows.enumerated().sorted { ($0.element.queuedAt, $0.offset) < ($1.element.queuedAt, $1.offset) }.map(\.element)
        var start = 0
        while start < ordered.count {
            var end = start + 1
            while end < ordered.count, ordered[end].queuedAt == ordered[start].queuedAt { end += 1 }
            let places = (start..<end).filter { ordered[$0].announcement == nil && ordered[$0].utterance != nil }
            let speech = places.map { ordered[$0] }.sorted { ($0.utterance ?? 0) < ($1.utterance ?? 0) }
            for (place, row) in zip(places, speech) { ordered[place] = row }
            start = end
        }
        return ordered
    }

    /// The trace as JSON lines: a `meta` line (where it came from, what was left out), then one line per event.
    public func text(source: String) -> String {
        var meta = JSONObject()
        meta["kind"] = "meta"
        meta["source"] = .string(source)
        meta["origin"] = .number(origin)
        meta["events"] = .number(Double(events.count))
        var left = JSONObject()
        for (what, count) in notCarried { left[what] = .number(Double(count)) }
        meta["notCarried"] = .object(left)
        var out = JSONValue.object(meta).compactText + "\n"
        for event in events { out += AnnouncementTrace.line(event) + "\n" }
        return out
    }

    private mutating func note(_ what: String) {
        if let index = notCarried.firstIndex(where: { $0.what == what }) {
            notCarried[index].count += 1
        } else {
            notCarried.append((what, 1))
        }
    }

    private mutating func event(_ row: LogRow) -> TraceEvent? {
        let kind: TraceEvent.Kind
        switch row.kind {
        case .announcement:
            let priority = row.priority.flatMap(AnnouncementPriority.init(rawValue:)) ?? .default
            // The key an app gave; a text's own key is implied.
            let key = row.dedupKey == Announcement.normalizedKey(row.text) ? nil : row.dedupKey
            kind = .announce(text: row.text, priority: priority, key: key)
        case .focus:
            kind = .focus(text: row.text)
        case .hint:
            kind = .speech(text: row.text, kind: .hint)
        case .value:
            kind = .speech(text: row.text, kind: .value)
        case .speak:
            kind = .speech(text: row.text, kind: .speak)
        case .ssip:
            if row.interruptedBy == .pause { note("SSIP messages cut by PAUSE (replayed as if never paused)") }
            if row.connection == nil { note("SSIP rows without a connection (logged before schema 4; the client's pid stands in)") }
            let priority = row.priority.flatMap(MessagePriority.init(rawValue:)) ?? .text
            kind = .ssip(text: row.text, priority: priority, command: row.command.flatMap(SSIPSpeechCommand.init(rawValue:)) ?? .speak)
        case .command:
            guard let command = Self.command(row.text) else {
                note("commands that are not CANCEL, STOP, stop or shutdown")
                return nil
            }
            return TraceEvent(
                at: .seconds(row.queuedAt - origin), kind: command.kind, client: row.clientName,
                connection: command.connection ?? row.connection.map(Int.init))
        case .unknown(let name):
            note("rows of kind \(name)")
            return nil
        }
        var played: Duration?
        if let started = row.startedAt, let ended = row.endedAt { played = .seconds(max(0, ended - started)) }
        // Speech played while the sound server was gone took its time as if heard: the queue's
        // outcome, which a replay checks, was `spoken`.
        let logged = row.outcome.ended.map { $0 == .inaudible ? .spoken : $0 }
        if logged == nil, row.kind == .announcement { note("announcements still waiting (no outcome to check)") }
        let connection = row.connection ?? (row.kind == .ssip ? row.clientPID : nil)
        return TraceEvent(
            at: .seconds(row.queuedAt - origin), kind: kind, tree: row.tree, element: row.element, client: row.clientName,
            connection: connection.map(Int.init), duration: played, logged: logged, policy: row.kind == .announcement || row.kind == .ssip ? row.policy : nil)
    }

    /// A command row's text as a trace event: `CANCEL self`, `STOP all`, `CANCEL 7` (another
    /// connection), `stop`.
    static func command(_ text: String) -> (kind: TraceEvent.Kind, connection: Int?)? {
        if text == "stop" { return (.stop, nil) }
        if text == "shutdown" { return (.shutdown, nil) }
        let words = text.split(separator: " ")
        guard words.count == 2, words[0] == "CANCEL" || words[0] == "STOP" else { return nil }
        let cancel = words[0] == "CANCEL"
        switch words[1] {
        case "self": return (cancel ? .ssipCancel(all: false) : .ssipStop(all: false), nil)
        case "all": return (cancel ? .ssipCancel(all: true) : .ssipStop(all: true), nil)
        default:
            guard let number = Int(words[1]) else { return nil }
            return (cancel ? .ssipCancel(all: false) : .ssipStop(all: false), number)
        }
    }
}
