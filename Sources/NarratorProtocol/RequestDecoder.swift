import NarratorBase
import NarratorModel
import NarratorSpeechPlan

/// Parses request lines. Pure: the daemon hands it bytes and gets a typed request or an error
/// it can send back (with the request's id when one could be read).
public struct RequestDecoder: Sendable {
    public var parser: JSONParser

    public init(parser: JSONParser = DocumentLimits.default.parser) { self.parser = parser }

    /// The outcome of one line: the request, or an error plus whatever id the line carried.
    public func decode(_ line: [UInt8]) -> Result<Request, RequestFailure> {
        line.withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes a line held in a String without copying it.
    public func decode(_ line: String) -> Result<Request, RequestFailure> {
        var line = line
        return line.withUTF8 { decode($0) }
    }

    public func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<Request, RequestFailure> {
        let json: JSONValue
        let document: RawJSON?
        do {
            (json, document) = try parser.parse(line, deferring: "document")
        } catch {
            return .failure(RequestFailure(id: nil, error: ProtocolError(.malformedJSON, "malformed JSON: \(error)")))
        }
        guard case .object(let object) = json else {
            return .failure(RequestFailure(id: nil, error: ProtocolError(.notAnObject, "a request must be a JSON object, got \(json.typeName)")))
        }
        let id = object["id"]
        do {
            var fields = Fields(object: object, document: document)
            let command = try fields.command()
            return .success(Request(id: id, command: command))
        } catch {
            return .failure(RequestFailure(id: id, error: error))
        }
    }
}

/// A request that could not be decoded, with its id (when readable) for the error reply.
public struct RequestFailure: Error, Equatable, Sendable {
    public var id: JSONValue?
    public var error: ProtocolError
}

/// Builds a request's command from its object: which fields each command takes, read through a
/// `FieldReader`, and the unknown ones reported with the nearest known name.
struct Fields {
    private var reader: FieldReader
    /// The value of "document", left as text by the parser (it stands as `null` in `object`).
    let document: RawJSON?
    private var cmd = ""

    init(object: JSONObject, document: RawJSON?) {
        reader = FieldReader(object, context: "")
        self.document = document
    }

    mutating func command() throws(ProtocolError) -> RequestCommand {
        guard let cmdValue = reader.value("cmd") else { throw ProtocolError(.missingField, "missing \"cmd\" (the command name)") }
        guard case .string(let name) = cmdValue else { throw ProtocolError(.invalidField, "cmd: expected a string, got \(cmdValue.typeName)") }
        cmd = name
        let object = reader.object
        var seen = Set<String>(minimumCapacity: object.members.count)
        for key in object.keys where !seen.insert(key).inserted {
            throw ProtocolError(.invalidField, "\(key): key given twice")
        }
        guard let known = CommandName(rawValue: name) else {
            let hint = Suggestion.hint(for: name, in: CommandName.allCases.map(\.rawValue))
            throw ProtocolError(.unknownCommand, "unknown command \"\(name)\"\(hint)")
        }
        reader = FieldReader(object, context: name)
        _ = reader.value("id")
        _ = reader.value("cmd")
        let command = try build(known)
        for key in object.keys where !reader.used.contains(key) {
            let fields = reader.used.subtracting(["id", "cmd"])
            throw ProtocolError(.unknownField, "\(name): unknown field \"\(key)\"" + Suggestion.hint(for: key, in: Array(fields)))
        }
        return command
    }

    private mutating func build(_ name: CommandName) throws(ProtocolError) -> RequestCommand {
        switch name {
        case .hello: return .hello(client: try reader.optionalString("client"))
        case .register:
            _ = try reader.required("document")
            // `required` found the key, so the parser kept its value's text.
            guard let document else { throw ProtocolError(.missingField, "\(cmd): missing \"document\"") }
            return .register(
                document: document, ephemeral: try reader.optionalBool("ephemeral") ?? false, focusEvents: try reader.optionalBool("focus_events") ?? false)
        case .update: return try update()
        case .unregister: return .unregister(tree: try reader.string("tree"))
        case .trees: return .trees
        case .show: return .show(tree: try reader.string("tree"))
        case .export: return .export(tree: try reader.string("tree"))
        case .focus: return .focus(tree: try reader.string("tree"), element: try reader.optionalString("element"), saying: try reader.optionalString("say"))
        case .next: return .move(.next, tree: try reader.optionalString("tree"))
        case .previous: return .move(.previous, tree: try reader.optionalString("tree"))
        case .first: return .move(.first, tree: try reader.optionalString("tree"))
        case .last: return .move(.last, tree: try reader.optionalString("tree"))
        case .touch: return .touch(x: try reader.number("x"), y: try reader.number("y"), tree: try reader.optionalString("tree"))
        case .activate: return .activate
        case .adjust:
            let direction = try reader.choice("direction", ["up", "down"])
            return .adjust(direction == "up" ? .up : .down)
        case .actions: return .actions
        case .action: return .action(name: try reader.string("name"))
        case .magicTap: return .magicTap
        case .escape: return .escape
        case .rotor:
            guard let rotor = try reader.optionalString("name") else { return .rotors }
            return .rotor(
                name: rotor, direction: try reader.optionalChoice("direction", Workspace.Move.self) ?? .next, within: try reader.optionalString("within"))
        case .cell:
            return .cell(try reader.choice("direction", Workspace.CellDirection.self))
        case .announce:
            let priority = try reader.optionalChoice("priority", AnnouncementPriority.allCases.map(\.rawValue)).flatMap(AnnouncementPriority.init(rawValue:))
            return .announce(
                text: try reader.text("text"), priority: priority ?? .default, tree: try reader.optionalString("tree"),
                element: try reader.optionalString("element"), key: try reader.optionalString("key"), language: try reader.optionalLanguage("language"))
        case .speak: return .speak(text: try reader.text("text"), language: try reader.optionalLanguage("language"))
        case .stop: return .stop
        case .status: return .status
        case .set: return .set(key: try reader.string("key"), value: try reader.required("value"))
        case .get: return .get(key: try reader.string("key"))
        case .voices: return .voices(try voiceQuery())
        case .subscribe: return .subscribe
        }
    }

    private mutating func voiceQuery() throws(ProtocolError) -> VoiceQuery {
        let limit = try reader.optionalUnsigned("limit")
        if limit == 0 { throw ProtocolError(.invalidField, "voices.limit: expected a whole number from 1 (leave it out for every voice)") }
        return VoiceQuery(
            language: try reader.optionalLanguage("language"), name: try reader.optionalString("name"),
            variants: try reader.optionalBool("variants") ?? false, offset: Int(clamping: try reader.optionalUnsigned("offset") ?? 0),
            limit: limit.map { Int(clamping: $0) }, engine: try reader.optionalString("engine"))
    }

    private mutating func update() throws(ProtocolError) -> RequestCommand {
        let tree = try reader.string("tree")
        let element = try reader.string("element")
        var kinds: [TreeUpdate] = []
        if let properties = reader.value("set") { kinds.append(.setProperties(element: element, properties: properties)) }
        if let children = reader.value("children") { kinds.append(.replaceChildren(element: element, children: children)) }
        if try reader.optionalBool("remove") == true { kinds.append(.remove(element: element)) }
        if let edit = reader.value("edit") { kinds.append(try TreeUpdate.edit(edit, element: element)) }
        if let caret = reader.value("caret") { kinds.append(try TreeUpdate.caret(caret, element: element)) }
        switch reader.value("title") {
        case nil: break
        case .string(let title)?: kinds.append(.retitle(element: element, title: title))
        case .null?: kinds.append(.retitle(element: element, title: nil))
        case let other?: throw FieldReader.invalid("update.title", "a string, or null for none", other)
        }
        guard kinds.count == 1 else {
            throw ProtocolError(
                kinds.isEmpty ? .missingField : .invalidField,
                "update: give exactly one of \"set\" (properties), \"children\" (new children), \"edit\" (a text edit), \"caret\" (a caret move), \"title\" (the tree's, on its root) or \"remove\": true")
        }
        var notify: LayoutNotification?
        if let kind = try reader.optionalChoice("notify", ["screenChanged", "layoutChanged"]) {
            let target = try reader.optionalString("focus")
            notify = kind == "screenChanged" ? .screenChanged(element: target) : .layoutChanged(element: target)
        }
        return .update(tree: tree, update: kinds[0], announce: try reader.optionalBool("announce") ?? false, notify: notify)
    }
}

extension TreeUpdate {
    /// `{"range": [location, length], "text": "..."}`: characters of the value replaced.
    public static func edit(_ value: JSONValue, element: String) throws(ProtocolError) -> TreeUpdate {
        guard case .object(let object) = value else {
            throw FieldReader.invalid("update.edit", #"an object such as {"range": [5, 0], "text": "x"}"#, value)
        }
        for member in object.members where member.key != "range" && member.key != "text" {
            throw ProtocolError(.invalidField, "update.edit.\(member.key): unknown key; an edit has \"range\" and \"text\"")
        }
        let range = try textRange(object["range"], at: "update.edit.range")
        let text: String
        switch object["text"] {
        case .string(let s)?: text = s
        case nil, .null?: text = ""
        case let other?: throw FieldReader.invalid("update.edit.text", "a string (empty to delete)", other)
        }
        return .editText(element: element, range: range, text: text)
    }

    /// `{"range": [location, length], "unit": "word"}`: the caret or selection moved.
    public static func caret(_ value: JSONValue, element: String) throws(ProtocolError) -> TreeUpdate {
        guard case .object(let object) = value else {
            throw FieldReader.invalid("update.caret", #"an object such as {"range": [5, 0], "unit": "character"}"#, value)
        }
        for member in object.members where member.key != "range" && member.key != "unit" {
            throw ProtocolError(.invalidField, "update.caret.\(member.key): unknown key; a caret move has \"range\" and \"unit\"")
        }
        let range = try textRange(object["range"], at: "update.caret.range")
        var unit: CaretMotion.Unit?
        switch object["unit"] {
        case nil, .null?: unit = nil
        case .string(let name)? where CaretMotion.Unit(rawValue: name) != nil: unit = CaretMotion.Unit(rawValue: name)
        case let other?:
            throw FieldReader.invalid("update.caret.unit", "one of " + CaretMotion.Unit.allCases.map(\.rawValue).joined(separator: ", "), other)
        }
        return .moveCaret(element: element, range: range, unit: unit)
    }

    /// `[location, length]` in characters.
    static func textRange(_ value: JSONValue?, at path: String) throws(ProtocolError) -> TextRange {
        guard let value else { throw ProtocolError(.missingField, "\(path): missing ([location, length] in characters)") }
        guard case .array(let numbers) = value, numbers.count == 2,
            case .number(let location) = numbers[0], case .number(let length) = numbers[1],
            let start = Int(exactly: location), let count = Int(exactly: length), start >= 0, count >= 0
        else {
            throw FieldReader.invalid(path, "[location, length]: two whole numbers, not negative", value)
        }
        return TextRange(location: start, length: count)
    }
}
