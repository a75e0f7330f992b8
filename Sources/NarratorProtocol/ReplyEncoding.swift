import NarratorModel
import NarratorSpeechPlan

/// Replies as JSON, with the members in the order docs/protocol.md lists them.
extension Reply {
    public var json: JSONValue {
        var object = JSONObject()
        object.members.append(.init(key: "id", value: id ?? .null))
        switch outcome {
        case .success(let body):
            object.members.append(.init(key: "ok", value: true))
            object.members.append(contentsOf: body.members)
        case .failure(let error):
            object.members.append(.init(key: "ok", value: false))
            object.members.append(.init(key: "error", value: error.json))
        }
        return .object(object)
    }
}

extension ReplyError {
    var json: JSONValue {
        var object = JSONObject(["code": .string(code.rawValue), "message": .string(message)])
        if code == .invalidDocument {
            object.members.append(.init(key: "problems", value: .array(problems.map { ["path": .string($0.path), "message": .string($0.message)] })))
        }
        return .object(object)
    }
}

extension ReplyBody {
    /// The reply's members after `id` and `ok`.
    public var members: [JSONObject.Member] {
        func m(_ key: String, _ value: JSONValue) -> JSONObject.Member { .init(key: key, value: value) }
        switch self {
        case .hello(let version, let daemon, let client):
            return [m("protocol", .number(Double(version))), m("daemon", .string(daemon)), m("client", .number(Double(client.rawValue)))]
        case .registered(let r):
            return [m("tree", .string(r.tree)), m("stops", .number(Double(r.stops))), m("nodes", .number(Double(r.nodes))), m("replaced", .bool(r.replaced))]
        case .updated(let r):
            var members = [m("tree", .string(r.tree)), m("element", .string(r.element))]
            if let focus = r.focus {
                members += focus.members
            } else if let spoken = r.spokenValue {
                members.append(m("utterance", .string(spoken)))
            }
            return members
        case .unregistered(let tree):
            return [m("tree", .string(tree))]
        case .trees(let trees):
            return [m("trees", .array(trees.map(\.json)))]
        case .stops(let tree, let stops):
            return [m("tree", .string(tree)), m("stops", .array(stops.map(\.json)))]
        case .exported(let tree, let document):
            return [m("tree", .string(tree)), m("document", document)]
        case .focus(let report):
            return report.members
        case .delivered(let d):
            return [m("action", .string(d.action)), m("element", .string(d.element)), m("focus", d.focus.map(\.json) ?? .null), m("delivered", true)]
        case .adjusted(let a):
            return [
                m("utterance", .string(a.utterance)), m("hint", .null), m("focus", a.focus.json), m("value", .number(a.value)),
                m("boundary", .bool(a.boundary)),
            ]
        case .actions(let actions):
            return [m("actions", .array(actions.map(JSONValue.string)))]
        case .rotors(let rotors):
            return [m("rotors", .array(rotors.map { ["name": .string($0.name), "kind": .string($0.kind.rawValue), "items": .array($0.items.map(JSONValue.string))] }))]
        case .selectedAction(let action, let focus):
            return [m("utterance", .string(action)), m("hint", .null), m("focus", focus.json), m("action", .string(action))]
        case .announced(let a):
            var members = [
                m("announcement", .number(Double(a.announcement.rawValue))), m("decision", .string(a.decision)),
                m("priority", .string(a.priority.rawValue)), m("key", .string(a.key)), m("policy", .string(a.policy)),
            ]
            if let original = a.duplicateOf { members.append(m("duplicate_of", .number(Double(original.rawValue)))) }
            members.append(m("logged", .bool(a.logged)))
            if let problem = a.logProblem { members.append(m("log_error", ["reason": .string(problem.reason), "message": .string(problem.message)])) }
            return members
        case .spoke(let text, let utterance):
            return [m("utterance", .string(text)), m("speech", .number(Double(utterance.rawValue)))]
        case .stopped:
            return []
        case .status(let status):
            return status.members
        case .setting(let key, let value):
            return [m("key", .string(key)), m("value", .string(value))]
        case .voices(let listing):
            return [
                m("voices", .array(listing.entries.map { voice in
                    var members: [JSONObject.Member] = [
                        m("name", .string(voice.name)), m("identifier", .string(voice.identifier)),
                        m("languages", .array(voice.languages.map(JSONValue.string))), m("gender", .string(voice.gender.rawValue)),
                        m("engine", .string(voice.engine)),
                    ]
                    if let variant = voice.variant { members.append(m("variant", .string(variant))) }
                    return .object(JSONObject(members))
                })),
                m("total", .number(Double(listing.total))), m("offset", .number(Double(listing.offset))),
                m("variant_count", .number(Double(listing.variantCount))),
            ]
        case .subscribed:
            return [m("subscribed", true)]
        }
    }
}

extension Focus {
    var json: JSONValue { ["tree": .string(tree), "element": .string(element)] }
}

extension FocusReport {
    var members: [JSONObject.Member] {
        [
            .init(key: "utterance", value: .string(utterance)), .init(key: "hint", value: .optional(hint)),
            .init(key: "focus", value: focus.json), .init(key: "boundary", value: .bool(boundary)),
        ]
    }
}

extension TreeSummary {
    var json: JSONValue {
        [
            "tree": .string(tree), "title": .optional(title), "language": .optional(language),
            "nodes": .number(Double(nodes)), "stops": .number(Double(stops)),
            "owner": owner.map { ["pid": .number(Double($0.pid)), "name": .optional($0.name)] } ?? .null,
            "ephemeral": .bool(ephemeral), "focused": .bool(focused),
        ]
    }
}

extension StopSummary {
    var json: JSONValue {
        [
            "id": .string(id), "utterance": .string(utterance.text), "hint": .optional(utterance.hint),
            "frame": frame.map(TreeDocumentEncoder.json) ?? .null,
        ]
    }
}

extension StatusReport {
    var members: [JSONObject.Member] {
        func m(_ key: String, _ value: JSONValue) -> JSONObject.Member { .init(key: key, value: value) }
        var audioJSON = JSONObject([
            "spec": .string(audio.spec.description), "output": .string(audio.active), "fallback": .bool(audio.fallback),
            "detail": .optional(audio.detail),
        ])
        audioJSON["stalled"] = .bool(audio.stalled)
        return [
            m("version", .string(version)), m("pid", .number(Double(pid))), m("uptime", .number(uptime)), m("socket", .optional(socket)),
            m("clients", .number(Double(clients))), m("trees", .number(Double(trees))), m("focus", focus.map(\.json) ?? .null),
            m("audio", .object(audioJSON)), m("voice", .string(voice)), m("speaking", .bool(speaking)), m("queue", .number(Double(queue))),
            m(
                "announcements",
                [
                    "policy": .string(announcements.policy), "waiting": .number(Double(announcements.waiting)),
                    "trees": .object(JSONObject(announcements.treePolicies.map { .init(key: $0.tree, value: .string($0.policy)) })),
                    "deferred": .number(Double(announcements.deferred)),
                ]),
            m("log", log.json),
            m("engines", .array(engines.map { engine in
                var object = JSONObject(["name": .string(engine.name), "state": .string(engine.health.state)])
                if case .restarting(let reason, let attempt) = engine.health {
                    object["reason"] = .string(reason)
                    object["attempt"] = .number(Double(attempt))
                }
                return .object(object)
            })),
            m("owners", .array(owners.map { ["name": .optional($0.name), "pid": .number(Double($0.pid)), "trees": .array($0.trees.map(JSONValue.string))] })),
        ]
    }
}

extension LogHealth {
    var json: JSONValue {
        [
            "path": .string(path), "ok": .bool(isWriting), "open": .bool(isOpen), "rows": .number(Double(rowsWritten)),
            "failed": .number(Double(rowsFailed)), "pending": .number(Double(pending)), "reopened": .number(Double(reopenings)),
            "error": .optional(problem?.message), "reason": .optional(problem?.reason),
            "commit_ms": ["p50": .optional(commitLatencyP50.map { $0 * 1000 }), "p99": .optional(commitLatencyP99.map { $0 * 1000 })],
            "set_aside": setAside.map { ["path": .string($0.path), "reason": .string($0.reason)] } ?? .null,
        ]
    }
}
