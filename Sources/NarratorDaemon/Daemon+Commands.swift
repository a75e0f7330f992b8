import Foundation
import NarratorCore
import NarratorSpeech
import NarratorSystem

/// Each request command, carried out on the workspace, speech and tree owners.
extension Daemon {
    typealias Members = [JSONObject.Member]

    /// Takes the command, so that a register request's JSON can be freed once it is decoded.
    func handle(_ command: consuming RequestCommand, from client: ClientID, loop: LoopContext) throws -> Members {
        switch consume command {
        case .hello(let name):
            if let name { clients[client]?.name = name }
            return [
                .init(key: "protocol", value: .number(Double(NarratorVersion.protocolVersion))),
                .init(key: "daemon", value: .string(NarratorVersion.daemon)),
                .init(key: "client", value: .number(Double(client.rawValue))),
            ]
        case .register(let json, let isEphemeral):
            return try register(json, ephemeral: isEphemeral, from: client)
        case .update(let tree, let update, let announce, let notify):
            return try self.update(tree: tree, update, announce: announce, notify: notify)
        case .unregister(let tree):
            try workspace.unregister(tree)
            if let owner = owners.removeValue(forKey: tree) { clients[owner]?.ownedTrees.remove(tree) }
            ephemeral.remove(tree)
            logger.info("unregistered tree \"\(tree)\"")
            return [.init(key: "tree", value: .string(tree))]
        case .trees:
            return [.init(key: "trees", value: .array(workspace.trees.keys.sorted().map(treeSummary)))]
        case .show(let tree):
            let stops = try workspace.stops(of: tree)
            return [.init(key: "tree", value: .string(tree)), .init(key: "stops", value: .array(stops.map(Self.stopJSON)))]
        case .export(let tree):
            return [.init(key: "tree", value: .string(tree)), .init(key: "document", value: TreeDocumentEncoder.json(try workspace.tree(tree).document))]
        case .focus(let tree, let element):
            return speakFocus(try workspace.focus(tree: tree, element: element))
        case .move(let move, let tree):
            return speakFocus(try workspace.move(move, tree: tree))
        case .touch(let x, let y, let tree):
            return speakFocus(try workspace.touch(x: x, y: y, tree: tree))
        case .activate:
            return try deliver(loop, try workspace.activate())
        case .adjust(let direction):
            switch try workspace.adjust(direction) {
            case .delegated(let action):
                return try deliver(loop, action)
            case .changed(let focus, let value, let spokenValue, let atBound):
                say(spokenValue, .value, tree: focus.tree, element: focus.element)
                if let owner = owners[focus.tree] {
                    let event: JSONValue = [
                        "event": "value", "tree": .string(focus.tree), "element": .string(focus.element),
                        "value": .number(value), "spoken": .string(spokenValue),
                    ]
                    _ = loop.send(event.compactText, to: owner)
                }
                return [
                    .init(key: "utterance", value: .string(spokenValue)), .init(key: "hint", value: .null),
                    .init(key: "focus", value: Self.focusJSON(focus)), .init(key: "value", value: .number(value)),
                    .init(key: "boundary", value: .bool(atBound)),
                ]
            }
        case .actions:
            let actions = try workspace.actions()
            return [.init(key: "actions", value: .array(actions.map(JSONValue.string)))]
        case .action(let name):
            return try deliver(loop, try workspace.perform(action: name))
        case .magicTap:
            return try deliver(loop, try workspace.route(.magicTap))
        case .escape:
            return try deliver(loop, try workspace.route(.escape))
        case .rotors:
            let rotors = try workspace.rotors()
            return [
                .init(
                    key: "rotors",
                    value: .array(
                        rotors.map {
                            ["name": .string($0.name), "kind": .string($0.kind.rawValue), "items": .array($0.items.map(JSONValue.string))]
                        }))
            ]
        case .rotor(let name, let direction):
            switch try workspace.rotor(name, direction) {
            case .moved(let outcome):
                return speakFocus(outcome)
            case .selectedAction(let action, let focus):
                say(action, .value, tree: focus.tree, element: focus.element)
                return [
                    .init(key: "utterance", value: .string(action)), .init(key: "hint", value: .null),
                    .init(key: "focus", value: Self.focusJSON(focus)), .init(key: "action", value: .string(action)),
                ]
            }
        case .announce(let text, let priority, let tree, let element, let key):
            try checkTextLength(text, field: "announce.text")
            if let tree { _ = try workspace.tree(tree) }
            let waiting = desk.waitingCount(of: client)
            if waiting >= limits.queuedPerClient {
                throw CommandError(
                    code: "limit_exceeded",
                    message: "this connection already has \(waiting) announcements waiting, the most allowed (--max-queued); wait for them to be spoken")
            }
            return desk.announce(text: text, priority: priority, tree: tree, element: element, key: key, client: clients[client], daemon: self, loop: loop)
        case .speak(let text):
            try checkTextLength(text, field: "speak.text")
            let id = say(text, .speak, tree: nil, element: nil)
            return [.init(key: "utterance", value: .string(text)), .init(key: "speech", value: .number(Double(id.rawValue)))]
        case .stop:
            desk.stop(daemon: self, loop: loop)
            speech.stop()
            return []
        case .status:
            return status() + desk.statusMembers
        case .set(let key, let value):
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(let n): text = JSONWriter.format(n)
            case .bool(let b): text = b ? "on" : "off"
            default: throw CommandError(code: "invalid_field", message: "set.value: expected a string, number or boolean")
            }
            do {
                try speech.set(key, to: text)
            } catch {
                throw CommandError(code: "invalid_setting", message: "\(error)")
            }
            return [.init(key: "key", value: .string(key)), .init(key: "value", value: .string(try speech.currentSettings.get(key)))]
        case .get(let key):
            do {
                return [.init(key: "key", value: .string(key)), .init(key: "value", value: .string(try speech.currentSettings.get(key)))]
            } catch {
                throw CommandError(code: "invalid_setting", message: "\(error)")
            }
        case .voices:
            return [
                .init(
                    key: "voices",
                    value: .array(
                        speech.engine.voices.map {
                            [
                                "name": .string($0.name), "identifier": .string($0.identifier),
                                "languages": .array($0.languages.map(JSONValue.string)), "gender": .string("\($0.gender)"),
                            ]
                        }))
            ]
        case .subscribe:
            clients[client]?.subscribed = true
            return [.init(key: "subscribed", value: true)]
        }
    }

    /// Refuses a text longer than `--max-text` characters.
    func checkTextLength(_ text: String, field: String) throws {
        let count = text.count
        guard count <= limits.textLength else {
            throw CommandError(code: "limit_exceeded", message: "\(field): \(count) characters; at most \(limits.textLength) are spoken (--max-text)")
        }
    }

    // MARK: Trees

    private func register(_ json: consuming RawJSON, ephemeral isEphemeral: Bool, from client: ClientID) throws -> Members {
        let document: TreeDocument
        do {
            document = try workspace.decoder.decode(json)
            // The request's document text is freed before the tree is compiled, so that the
            // two are never resident together: a lower peak.
            _ = consume json
        } catch {
            throw CommandError(
                code: "invalid_document", message: "the tree document is invalid (\(error.problems.count) problem(s)): " + error.problems.map(\.description).joined(separator: "; "),
                details: [.init(key: "problems", value: .array(error.problems.map(CommandError.problem)))])
        }
        let name = document.name
        if let owner = owners[name], owner != client, let state = clients[owner] {
            throw CommandError(
                code: "tree_owned",
                message: "tree \"\(name)\" is registered by another connection, \(state.label); unregister it first or use another name")
        }
        let owned = clients[client]?.ownedTrees ?? []
        if !owned.contains(name), owned.count >= limits.treesPerClient {
            throw CommandError(
                code: "limit_exceeded",
                message: "this connection already owns \(owned.count) trees, the most allowed (--max-trees); unregister one first")
        }
        // The last use of the document: its nodes move into the compiled tree, not copied.
        let replaced = workspace.register(document)
        if let previous = owners[name] { clients[previous]?.ownedTrees.remove(name) }
        owners[name] = client
        clients[client]?.ownedTrees.insert(name)
        if isEphemeral { ephemeral.insert(name) } else { ephemeral.remove(name) }
        let tree = workspace.trees[name]!
        logger.info("\(replaced ? "replaced" : "registered") tree \"\(name)\" (\(tree.nodeCount) nodes, \(tree.stopCount) stops) for \(clients[client]?.label ?? "\(client)")")
        return [
            .init(key: "tree", value: .string(name)), .init(key: "stops", value: .number(Double(tree.stopCount))),
            .init(key: "nodes", value: .number(Double(tree.nodeCount))), .init(key: "replaced", value: .bool(replaced)),
        ]
    }

    private func update(tree: String, _ update: TreeUpdate, announce: Bool, notify: LayoutNotification?) throws -> Members {
        let payloadKey: String
        switch update {
        case .setProperties: payloadKey = "set"
        case .replaceChildren: payloadKey = "children"
        case .remove: payloadKey = "remove"
        }
        let repaired = try workspace.update(tree: tree, update, path: [.key(payloadKey)])
        var members: Members = [.init(key: "tree", value: .string(tree)), .init(key: "element", value: .string(update.element))]
        if let notify {
            let outcome: FocusOutcome
            switch notify {
            case .screenChanged(let element), .layoutChanged(let element):
                if let element {
                    outcome = try workspace.focus(tree: tree, element: element)
                } else {
                    outcome = try workspace.move(.first, tree: tree)
                }
            }
            return members + speakFocus(outcome)
        }
        if let repaired {
            return members + speakFocus(repaired)
        }
        if announce, let focus = workspace.focus, focus.tree == tree {
            let element = try workspace.tree(tree)
            if case .stop(let position) = element.lookup(update.element), element.stopID(at: position) == focus.element {
                let text = element.spokenValue(atStop: position) ?? element.utterance(atStop: position).text
                say(text, .value, tree: tree, element: focus.element)
                members.append(.init(key: "utterance", value: .string(text)))
            }
        }
        return members
    }

    private func treeSummary(_ name: String) -> JSONValue {
        let tree = workspace.trees[name]!
        let owner = owners[name].flatMap { clients[$0] }
        return [
            "tree": .string(name), "title": .optional(tree.title), "language": .optional(tree.language),
            "nodes": .number(Double(tree.nodeCount)), "stops": .number(Double(tree.stopCount)),
            "owner": owner.map { ["pid": .number(Double($0.peer.pid)), "name": .optional($0.name)] } ?? .null,
            "ephemeral": .bool(ephemeral.contains(name)), "focused": .bool(workspace.focus?.tree == name),
        ]
    }

    // MARK: Focus and actions

    /// Speaks a focus move (unless it hit a boundary) and its hint, and builds the reply.
    func speakFocus(_ outcome: FocusOutcome) -> Members {
        if !outcome.boundary {
            desk.focusMoved(toTree: outcome.focus.tree, daemon: self)
            say(outcome.spokenText, .focus, tree: outcome.focus.tree, element: outcome.focus.element)
            if let hint = outcome.utterance.hint { say(hint, .hint, tree: outcome.focus.tree, element: outcome.focus.element) }
        }
        return [
            .init(key: "utterance", value: .string(outcome.boundary ? outcome.utterance.text : outcome.spokenText)),
            .init(key: "hint", value: .optional(outcome.utterance.hint)),
            .init(key: "focus", value: Self.focusJSON(outcome.focus)),
            .init(key: "boundary", value: .bool(outcome.boundary)),
        ]
    }

    /// Sends an action to the tree's owner, or fails when the owner is gone.
    private func deliver(_ loop: LoopContext, _ action: OwnerAction) throws -> Members {
        guard let owner = owners[action.tree], clients[owner] != nil else {
            throw CommandError.ownerGone(tree: action.tree, element: action.element, action: action.action)
        }
        var event = JSONObject(["event": "action", "tree": .string(action.tree), "element": .string(action.element), "action": .string(action.action)])
        if let point = action.point { event["point"] = [.number(point.x), .number(point.y)] }
        _ = loop.send(JSONValue.object(event).compactText, to: owner)
        return [
            .init(key: "action", value: .string(action.action)), .init(key: "element", value: .string(action.element)),
            .init(key: "focus", value: workspace.focus.map(Self.focusJSON) ?? .null), .init(key: "delivered", value: true),
        ]
    }

    private func status() -> Members {
        let speechStatus = speech.status
        let output = speechStatus.output
        return [
            .init(key: "version", value: .string(NarratorVersion.daemon)),
            .init(key: "pid", value: .number(Double(getpid()))),
            .init(key: "uptime", value: .number((Date().timeIntervalSince(started) * 1000).rounded() / 1000)),
            .init(key: "socket", value: .optional(socketPath)),
            .init(key: "clients", value: .number(Double(clients.count))),
            .init(key: "trees", value: .number(Double(workspace.trees.count))),
            .init(key: "focus", value: workspace.focus.map(Self.focusJSON) ?? .null),
            .init(
                key: "audio",
                value: [
                    "spec": .string(output.spec.description), "output": .string(output.active), "fallback": .bool(output.fallback),
                    "detail": .optional(output.detail),
                ]),
            .init(key: "voice", value: .string(speechStatus.voice)),
            .init(key: "speaking", value: .bool(speechStatus.playing != nil)),
            .init(key: "queue", value: .number(Double(speechStatus.waiting))),
        ]
    }

    static func focusJSON(_ focus: Focus) -> JSONValue {
        ["tree": .string(focus.tree), "element": .string(focus.element)]
    }

    static func stopJSON(_ stop: StopSummary) -> JSONValue {
        [
            "id": .string(stop.id), "utterance": .string(stop.utterance.text), "hint": .optional(stop.utterance.hint),
            "frame": stop.frame.map(TreeDocumentEncoder.json) ?? .null,
        ]
    }
}
