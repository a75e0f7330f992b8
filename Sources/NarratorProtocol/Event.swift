import NarratorBase
import NarratorModel
import NarratorSpeechPlan

/// A line the daemon sends without being asked: to a tree's owner (an action to perform, a value
/// the daemon changed) or to subscribers (each step of each utterance).
public enum Event: Equatable, Sendable {
    /// Perform this action (`activate`, `increment`, `decrement`, `magicTap`, `escape`, or a custom action).
    case action(OwnerAction)
    /// The daemon changed a declarative adjustable value.
    case value(ValueChange)
    case speech(SpeechNotice)
    /// A user moved the focus to this element of a tree the app owns (another client's `focus`,
    /// `next`, `previous` or `touch`).
    case focus(Focus)
}

/// A declarative value the daemon changed on `adjust`, for the app that owns the tree.
public struct ValueChange: Equatable, Sendable {
    public var tree: String
    public var element: String
    public var value: Double
    /// What was spoken for it.
    public var spoken: String

    public init(tree: String, element: String, value: Double, spoken: String) {
        self.tree = tree
        self.element = element
        self.value = value
        self.spoken = spoken
    }
}

extension Event {
    public var json: JSONValue {
        switch self {
        case .action(let action):
            var object = JSONObject(["event": "action", "tree": .string(action.tree), "element": .string(action.element), "action": .string(action.action)])
            if let point = action.point { object["point"] = [.number(point.x), .number(point.y)] }
            return .object(object)
        case .value(let change):
            return [
                "event": "value", "tree": .string(change.tree), "element": .string(change.element), "value": .number(change.value),
                "spoken": .string(change.spoken),
            ]
        case .focus(let focus):
            return ["event": "focus", "tree": .string(focus.tree), "element": .string(focus.element)]
        case .speech(let notice):
            var object = JSONObject([
                "event": "speech", "phase": .string(notice.phase.name), "kind": .string(notice.kind.name),
                "utterance": .number(Double(notice.utterance.rawValue)), "at": .number(Double(notice.at.nanoseconds) / 1e9),
            ])
            if let text = notice.text {
                object["text"] = .string(text)
                object["tree"] = .optional(notice.tree)
                object["element"] = .optional(notice.element)
            }
            if let engine = notice.engine { object["engine"] = .string(engine) }
            if case .interrupted(let by?) = notice.phase { object["by"] = .number(Double(by.rawValue)) }
            if case .dropped(let reason) = notice.phase { object["reason"] = .string(reason.rawValue) }
            if let outcome = notice.outcome { object["outcome"] = .string(outcome.rawValue) }
            return .object(object)
        }
    }

    public init(json: JSONValue) throws(ProtocolError) {
        var r = try FieldReader.reader(json, at: "event")
        let name = try r.choice("event", ["action", "value", "speech", "focus"])
        r = FieldReader(r.object, context: name)
        switch name {
        case "action":
            var point: Point?
            if let value = r.value("point")?.nonNull {
                guard case .array(let items) = value, items.count == 2, case .number(let x) = items[0], case .number(let y) = items[1] else {
                    throw FieldReader.invalid(r.path("point"), "[x, y]", value)
                }
                point = Point(x: x, y: y)
            }
            self = .action(OwnerAction(tree: try r.string("tree"), element: try r.string("element"), action: try r.string("action"), point: point))
        case "focus":
            self = .focus(Focus(tree: try r.string("tree"), element: try r.string("element")))
        case "value":
            self = .value(
                ValueChange(tree: try r.string("tree"), element: try r.string("element"), value: try r.number("value"), spoken: try r.string("spoken", nonEmpty: false)))
        default:
            let phase: SpeechEvent.Phase
            switch try r.choice("phase", ["queued", "started", "finished", "interrupted", "dropped"]) {
            case "queued": phase = .queued
            case "started": phase = .started
            case "finished": phase = .finished
            case "interrupted": phase = .interrupted(by: try r.optionalUnsigned("by").map(UtteranceID.init))
            default:
                phase = .dropped(try r.choice("reason", SpeechEvent.DropReason.self))
            }
            // `outcome` follows from the phase (`inaudible` is a `finished` one nobody heard); one
            // that contradicts it is a broken event.
            let outcomes = [AnnouncementOutcome.spoken, .inaudible, .interrupted, .cancelled].map(\.rawValue)
            let outcome = try r.optionalChoice("outcome", outcomes)
            let inaudible = outcome == AnnouncementOutcome.inaudible.rawValue && phase == .finished
            if let outcome, !inaudible, outcome != phase.outcome?.rawValue {
                throw ProtocolError(
                    .invalidField, "\(r.path("outcome")): \"\(outcome)\" does not go with phase \"\(phase.name)\" (\(phase.outcome.map { "\"\($0.rawValue)\"" } ?? "none"))")
            }
            let kindText = try r.string("kind")
            guard let kind = SpeechKind(name: kindText) else { throw ProtocolError(.invalidField, "\(r.path("kind")): unknown kind \"\(kindText)\"") }
            let seconds = try r.number("at")
            guard let nanoseconds = UInt64(exactly: (seconds * 1e9).rounded()) else {
                throw ProtocolError(.invalidField, "\(r.path("at")): expected seconds from 0, got \(JSONWriter.format(seconds))")
            }
            self = .speech(
                SpeechNotice(
                    utterance: UtteranceID(try r.unsigned("utterance")), kind: kind, phase: phase,
                    at: MonotonicInstant(nanoseconds: nanoseconds), text: try r.optionalString("text", nonEmpty: false),
                    tree: try r.optionalString("tree"), element: try r.optionalString("element"), engine: try r.optionalString("engine"),
                    inaudible: inaudible))
        }
    }
}

/// Any line the daemon sends: a reply to a request, or an event.
public enum ServerMessage: Equatable, Sendable {
    case reply(Reply)
    case event(Event)

    public var json: JSONValue {
        switch self {
        case .reply(let reply): reply.json
        case .event(let event): event.json
        }
    }

    /// The message as one protocol line (no newline).
    public var line: String { json.compactText }

    /// Reads a line the daemon sent: an event when it has an `event` key, otherwise the reply to `command`.
    public init(line: String, answering command: CommandName) throws(ProtocolError) {
        let json: JSONValue
        do { json = try JSONParser().parse(line) } catch { throw ProtocolError(.malformedJSON, "malformed JSON from narratord: \(error)") }
        if json["event"] != nil {
            self = .event(try Event(json: json))
        } else {
            self = .reply(try Reply(json: json, answering: command))
        }
    }
}
