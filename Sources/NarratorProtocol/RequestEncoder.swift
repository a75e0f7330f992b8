import NarratorModel

/// Writes requests as protocol lines: the inverse of ``RequestDecoder``, for `narratorctl` and
/// any Swift client. `RequestDecoder().decode(request.line)` gives the request back.
extension Request {
    /// The request as one line of compact JSON (no newline): `id`, `cmd`, then the command's fields.
    public var line: String {
        var members: [JSONObject.Member] = []
        if let id { members.append(.init(key: "id", value: id)) }
        members.append(.init(key: "cmd", value: .string(command.name.rawValue)))
        members += command.fields
        var line = "{"
        for (index, member) in members.enumerated() {
            if index > 0 { line += "," }
            JSONWriter.quote(member.key, into: &line)
            line += ":"
            if member.key == "document", case .register(let document, _, _) = command {
                line += Self.singleLine(document)
            } else {
                line += member.value.compactText
            }
        }
        return line + "}"
    }

    /// A document's text as it came, unless it spans lines (a file written for people), which
    /// would break the framing: then it is written compactly.
    private static func singleLine(_ document: RawJSON) -> String {
        if document.bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }), let value = try? JSONParser().parse(document.bytes) {
            return value.compactText
        }
        return String(decoding: document.bytes, as: UTF8.self)
    }
}

extension RequestCommand {
    /// The command's fields as the decoder reads them (after `id` and `cmd`). A register
    /// request's document stands as `null` here: ``Request/line`` writes its text.
    public var fields: [JSONObject.Member] {
        func member(_ key: String, _ value: JSONValue) -> JSONObject.Member { .init(key: key, value: value) }
        func optional(_ key: String, _ value: String?) -> [JSONObject.Member] { value.map { [member(key, .string($0))] } ?? [] }
        switch self {
        case .hello(let client): return optional("client", client)
        case .register(_, let ephemeral, let focusEvents):
            return [member("document", .null)] + (ephemeral ? [member("ephemeral", true)] : []) + (focusEvents ? [member("focus_events", true)] : [])
        case .update(let tree, let update, let announce, let notify):
            var fields = [member("tree", .string(tree)), member("element", .string(update.element))]
            switch update {
            case .setProperties(_, let properties): fields.append(member("set", properties))
            case .replaceChildren(_, let children): fields.append(member("children", children))
            case .remove: fields.append(member("remove", true))
            case .editText(_, let range, let text):
                let edit: JSONValue = ["range": .array([.number(Double(range.location)), .number(Double(range.length))]), "text": .string(text)]
                fields.append(member("edit", edit))
            case .moveCaret(_, let range, let unit):
                var caret = [member("range", .array([.number(Double(range.location)), .number(Double(range.length))]))]
                if let unit { caret.append(member("unit", .string(unit.rawValue))) }
                fields.append(member("caret", .object(JSONObject(caret))))
            case .retitle(_, let title): fields.append(member("title", title.map(JSONValue.string) ?? .null))
            }
            if announce { fields.append(member("announce", true)) }
            switch notify {
            case .screenChanged(let element)?: fields += [member("notify", "screenChanged")] + optional("focus", element)
            case .layoutChanged(let element)?: fields += [member("notify", "layoutChanged")] + optional("focus", element)
            case nil: break
            }
            return fields
        case .unregister(let tree), .show(let tree), .export(let tree): return [member("tree", .string(tree))]
        case .focus(let tree, let element, let saying): return [member("tree", .string(tree))] + optional("element", element) + optional("say", saying)
        case .move(_, let tree): return optional("tree", tree)
        case .touch(let x, let y, let tree): return [member("x", .number(x)), member("y", .number(y))] + optional("tree", tree)
        case .adjust(let direction): return [member("direction", .string(direction == .up ? "up" : "down"))]
        case .action(let name): return [member("name", .string(name))]
        case .rotor(let name, let direction, let within):
            return [member("name", .string(name)), member("direction", .string(direction.rawValue))] + (within.map { [member("within", .string($0))] } ?? [])
        case .cell(let direction): return [member("direction", .string(direction.rawValue))]
        case .announce(let text, let priority, let tree, let element, let key, let language):
            return [member("text", .string(text)), member("priority", .string(priority.rawValue))] + optional("tree", tree)
                + optional("element", element) + optional("key", key) + optional("language", language)
        case .speak(let text, let language): return [member("text", .string(text))] + optional("language", language)
        case .set(let key, let value): return [member("key", .string(key)), member("value", value)]
        case .get(let key): return [member("key", .string(key))]
        case .voices(let query):
            return optional("language", query.language) + optional("name", query.name) + (query.variants ? [member("variants", .bool(true))] : [])
                + (query.offset > 0 ? [member("offset", .number(Double(query.offset)))] : [])
                + (query.limit.map { [member("limit", .number(Double($0)))] } ?? []) + optional("engine", query.engine)
        case .trees, .activate, .actions, .magicTap, .escape, .rotors, .stop, .status, .subscribe: return []
        }
    }
}
