/// One line of a replay trace: `{"at": 0.25, "kind": "announce", "text": "3 new messages", "tree": "chat"}`.
public struct TraceEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case announce(text: String, priority: AnnouncementPriority, key: String?)
        /// Focus moved to `element` of `tree`; `text` is what focus speech says.
        case focus(text: String)
    }

    /// Time from the start of the trace.
    public var at: Duration
    public var kind: Kind
    public var tree: String?
    public var element: String?

    public init(at: Duration, kind: Kind, tree: String? = nil, element: String? = nil) {
        self.at = at
        self.kind = kind
        self.tree = tree
        self.element = element
    }
}

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

/// Reads JSON-lines traces (blank lines and lines starting with `#` are skipped).
public enum AnnouncementTrace {
    public static func parse(_ text: String) throws(TraceError) -> [TraceEvent] {
        var events: [TraceEvent] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let number = offset + 1
            let json: JSONValue
            do { json = try JSONParser().parse(String(line)) } catch { throw TraceError(line: number, reason: "\(error)") }
            events.append(try event(json, line: number))
        }
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    private static func event(_ json: JSONValue, line: Int) throws(TraceError) -> TraceEvent {
        guard let object = json.objectValue else { throw TraceError(line: line, reason: "expected a JSON object") }
        let known = ["at", "kind", "text", "priority", "tree", "element", "key"]
        for key in object.keys where !known.contains(key) {
            throw TraceError(line: line, reason: "unknown field \"\(key)\"\(Suggestion.hint(for: key, in: known))")
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
        let kind: TraceEvent.Kind
        switch try string("kind") {
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
        case let other:
            throw TraceError(line: line, reason: "\"kind\" must be announce or focus, not \(other.map { "\"\($0)\"" } ?? "missing")")
        }
        return TraceEvent(at: .nanoseconds(Int64((at * 1e9).rounded())), kind: kind, tree: tree, element: element)
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
