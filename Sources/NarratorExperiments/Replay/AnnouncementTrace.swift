import NarratorBase
import NarratorModel
import NarratorSSIP
import NarratorSpeechPlan

/// A trace that cannot be replayed, with the line at fault.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// Reads and writes JSON-lines traces (blank lines, lines starting with `#` and `"kind": "meta"`
/// lines are skipped when reading).
public enum AnnouncementTrace {
    /// Every field a trace line may have.
    static let fields = [
        "at", "kind", "text", "priority", "tree", "element", "key", "client", "connection", "command", "scope", "duration", "outcome", "policy",
    ]
    /// The kinds of line, as written.
    static let kinds = ["announce", "focus", "hint", "value", "speak", "ssip", "ssip-cancel", "ssip-stop", "stop", "shutdown"]

    /// The events of a trace, by time (lines at the same time keep their order), each with the
    /// number of the line it came from.
    public static func parseNumbered(_ text: String) throws(TraceError) -> [(line: Int, event: TraceEvent)] {
        var events: [(line: Int, event: TraceEvent)] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let number = offset + 1
            let json: JSONValue
            do { json = try JSONParser().parse(String(line)) } catch { throw TraceError(line: number, reason: "\(error)") }
            guard json["kind"]?.stringValue != "meta" else { continue }
            events.append((number, try event(json, line: number)))
        }
        return events.enumerated().sorted { ($0.element.event.at, $0.offset) < ($1.element.event.at, $1.offset) }.map(\.element)
    }

    public static func parse(_ text: String) throws(TraceError) -> [TraceEvent] {
        try parseNumbered(text).map(\.event)
    }

    private static func event(_ json: JSONValue, line: Int) throws(TraceError) -> TraceEvent {
        guard let object = json.objectValue else { throw TraceError(line: line, reason: "expected a JSON object") }
        for key in object.keys where !fields.contains(key) {
            throw TraceError(line: line, reason: "unknown field \"\(key)\"\(Suggestion.hint(for: key, in: fields))")
        }
        guard let at = object["at"]?.numberValue, at >= 0, at < 1e7 else {
            throw TraceError(line: line, reason: "\"at\" must be a number of seconds from the start, at least 0")
        }
        func string(_ key: String) throws(TraceError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let s = value.stringValue, !s.isEmpty else { throw TraceError(line: line, reason: "\"\(key)\" must be a non-empty string") }
            return s
        }
        let tree = try string("tree"), element = try string("element")
        let kindName = try string("kind")
        let kind: TraceEvent.Kind
        switch kindName {
        case "announce":
            guard let text = try string("text") else { throw TraceError(line: line, reason: "an announce event needs \"text\"") }
            var priority = AnnouncementPriority.default
            if let name = try string("priority") {
                guard let parsed = AnnouncementPriority(rawValue: name) else {
                    throw TraceError(line: line, reason: "\"priority\" must be low, default or high, not \"\(name)\"")
                }
                priority = parsed
            }
            kind = .announce(text: text, priority: priority, key: try string("key"))
        case "focus":
            guard let tree else { throw TraceError(line: line, reason: "a focus event needs \"tree\"") }
            kind = .focus(text: try string("text") ?? element ?? tree)
        case .some(let name) where ["hint", "value", "speak"].contains(name):
            guard let text = try string("text") else { throw TraceError(line: line, reason: "a \(name) event needs \"text\"") }
            kind = .speech(text: text, kind: name == "hint" ? .hint : name == "value" ? .value : .speak)
        case "ssip":
            guard let text = try string("text") else { throw TraceError(line: line, reason: "an ssip event needs \"text\"") }
            let name = try string("priority") ?? "text"
            guard let priority = MessagePriority(rawValue: name) else {
                throw TraceError(
                    line: line, reason: "\"priority\" of an ssip event must be important, message, text, notification or progress, not \"\(name)\"")
            }
            let word = try string("command") ?? SSIPSpeechCommand.speak.rawValue
            guard let command = SSIPSpeechCommand(rawValue: word) else {
                let words = SSIPSpeechCommand.allCases.map(\.rawValue)
                throw TraceError(line: line, reason: "\"command\" of an ssip event must be \(words.joined(separator: ", ")), not \"\(word)\"")
            }
            kind = .ssip(text: text, priority: priority, command: command)
        case "ssip-cancel", "ssip-stop":
            let scope = try string("scope") ?? "self"
            guard scope == "self" || scope == "all" else {
                throw TraceError(line: line, reason: "\"scope\" must be self or all, not \"\(scope)\"")
            }
            kind = kindName == "ssip-cancel" ? .ssipCancel(all: scope == "all") : .ssipStop(all: scope == "all")
        case "stop":
            kind = .stop
        case "shutdown":
            kind = .shutdown
        case let other:
            throw TraceError(
                line: line,
                reason: "\"kind\" must be \(kinds.joined(separator: ", ")), not \(other.map { "\"\($0)\"\(Suggestion.hint(for: $0, in: kinds))" } ?? "missing")")
        }
        var connection: Int?
        if let value = object["connection"], !value.isNull {
            guard let n = value.numberValue, n >= 0, n < 1e15, n == n.rounded() else {
                throw TraceError(line: line, reason: "\"connection\" must be a whole number, at least 0")
            }
            connection = Int(n)
        }
        var duration: Duration?
        if let value = object["duration"], !value.isNull {
            guard let seconds = value.numberValue, seconds >= 0, seconds < 1e6 else {
                throw TraceError(line: line, reason: "\"duration\" must be a number of seconds, at least 0")
            }
            duration = .seconds(seconds)
        }
        var logged: AnnouncementOutcome?
        if let name = try string("outcome") {
            guard let outcome = AnnouncementOutcome(rawValue: name) else {
                let names = AnnouncementOutcome.allCases.map(\.rawValue)
                throw TraceError(line: line, reason: "\"outcome\" must be one of \(names.joined(separator: ", ")), not \"\(name)\"\(Suggestion.hint(for: name, in: names))")
            }
            logged = outcome
        }
        return TraceEvent(
            at: .seconds(at), kind: kind, tree: tree, element: element, client: try string("client"), connection: connection, duration: duration,
            logged: logged, policy: try string("policy"))
    }

    /// One event as a trace line (what `narratorctl log --trace` writes), `at` relative to the
    /// trace's start; fields that are absent or implied (an announcement's default key) are left out.
    public static func line(_ event: TraceEvent) -> String {
        var object = JSONObject()
        object["at"] = .number(seconds(event.at))
        switch event.kind {
        case .announce(let text, let priority, let key):
            object["kind"] = "announce"
            object["text"] = .string(text)
            object["priority"] = .string(priority.rawValue)
            if let key, key != Announcement.normalizedKey(text) { object["key"] = .string(key) }
        case .focus(let text):
            object["kind"] = "focus"
            object["text"] = .string(text)
        case .speech(let text, let kind):
            object["kind"] = .string(kind.name)
            object["text"] = .string(text)
        case .ssip(let text, let priority, let command):
            object["kind"] = "ssip"
            object["text"] = .string(text)
            object["priority"] = .string(priority.rawValue)
            if command != .speak { object["command"] = .string(command.rawValue) }
        case .ssipCancel(let all), .ssipStop(let all):
            if case .ssipCancel = event.kind { object["kind"] = "ssip-cancel" } else { object["kind"] = "ssip-stop" }
            if all { object["scope"] = "all" }
        case .stop:
            object["kind"] = "stop"
        case .shutdown:
            object["kind"] = "shutdown"
        }
        if let tree = event.tree { object["tree"] = .string(tree) }
        if let element = event.element { object["element"] = .string(element) }
        if let client = event.client { object["client"] = .string(client) }
        if let connection = event.connection { object["connection"] = .number(Double(connection)) }
        if let duration = event.duration { object["duration"] = .number(seconds(duration)) }
        if let logged = event.logged { object["outcome"] = .string(logged.rawValue) }
        if let policy = event.policy { object["policy"] = .string(policy) }
        return JSONValue.object(object).compactText
    }

    /// Seconds to the nanosecond, as the replay's clock counts.
    private static func seconds(_ duration: Duration) -> Double {
        (duration.asSeconds * 1e9).rounded() / 1e9
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let first = s.first, first.isWhitespace { s.removeFirst() }
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return s
    }
}
