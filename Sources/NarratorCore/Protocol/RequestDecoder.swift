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

/// Reads typed fields from a request object, tracking which were used so that unknown ones
/// are reported with the nearest known name.
struct Fields {
    let object: JSONObject
    /// The value of "document", left as text by the parser (it stands as `null` in `object`).
    let document: RawJSON?
    var used: Set<String> = ["id", "cmd"]
    var cmd = ""

    init(object: JSONObject, document: RawJSON?) {
        self.object = object
        self.document = document
    }

    mutating func command() throws(ProtocolError) -> RequestCommand {
        guard let cmdValue = object["cmd"] else { throw ProtocolError(.missingField, "missing \"cmd\" (the command name)") }
        guard case .string(let name) = cmdValue else { throw ProtocolError(.invalidField, "cmd: expected a string, got \(cmdValue.typeName)") }
        cmd = name
        if let duplicate = Dictionary(grouping: object.keys, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw ProtocolError(.invalidField, "\(duplicate): key given twice")
        }
        let command = try build(name)
        for key in object.keys where !used.contains(key) {
            throw ProtocolError(.unknownField, "\(name): unknown field \"\(key)\"" + Suggestion.hint(for: key, in: Array(used.subtracting(["id", "cmd"]))))
        }
        return command
    }

    private mutating func build(_ name: String) throws(ProtocolError) -> RequestCommand {
        switch name {
        case "hello": return .hello(client: try optionalString("client"))
        case "register":
            _ = try required("document")
            // `required` found the key, so the parser kept its value's text.
            guard let document else { throw ProtocolError(.missingField, "\(cmd): missing \"document\"") }
            return .register(document: document, ephemeral: try optionalBool("ephemeral") ?? false)
        case "update": return try update()
        case "unregister": return .unregister(tree: try string("tree"))
        case "trees": return .trees
        case "show": return .show(tree: try string("tree"))
        case "export": return .export(tree: try string("tree"))
        case "focus": return .focus(tree: try string("tree"), element: try optionalString("element"))
        case "next": return .move(.next, tree: try optionalString("tree"))
        case "previous": return .move(.previous, tree: try optionalString("tree"))
        case "first": return .move(.first, tree: try optionalString("tree"))
        case "last": return .move(.last, tree: try optionalString("tree"))
        case "touch": return .touch(x: try number("x"), y: try number("y"), tree: try optionalString("tree"))
        case "activate": return .activate
        case "adjust":
            let direction = try choice("direction", ["up", "down"])
            return .adjust(direction == "up" ? .up : .down)
        case "actions": return .actions
        case "action": return .action(name: try string("name"))
        case "magic-tap": return .magicTap
        case "escape": return .escape
        case "rotor":
            guard let rotor = try optionalString("name") else { return .rotors }
            let direction = try optionalChoice("direction", ["next", "previous", "first", "last"]) ?? "next"
            return .rotor(name: rotor, direction: Workspace.Move(rawValue: direction)!)
        case "announce":
            let priority = try optionalChoice("priority", AnnouncementPriority.allCases.map(\.rawValue)).flatMap(AnnouncementPriority.init(rawValue:))
            return .announce(
                text: try string("text"), priority: priority ?? .default, tree: try optionalString("tree"),
                element: try optionalString("element"), key: try optionalString("key"))
        case "speak": return .speak(text: try string("text"))
        case "stop": return .stop
        case "status": return .status
        case "set": return .set(key: try string("key"), value: try required("value"))
        case "get": return .get(key: try string("key"))
        case "voices": return .voices
        case "subscribe": return .subscribe
        default:
            let hint = Suggestion.hint(for: name, in: RequestCommand.names)
            throw ProtocolError(.unknownCommand, "unknown command \"\(name)\"\(hint)")
        }
    }

    private mutating func update() throws(ProtocolError) -> RequestCommand {
        let tree = try string("tree")
        let element = try string("element")
        var kinds: [TreeUpdate] = []
        if let properties = value("set") { kinds.append(.setProperties(element: element, properties: properties)) }
        if let children = value("children") { kinds.append(.replaceChildren(element: element, children: children)) }
        if try optionalBool("remove") == true { kinds.append(.remove(element: element)) }
        guard kinds.count == 1 else {
            throw ProtocolError(
                kinds.isEmpty ? .missingField : .invalidField,
                "update: give exactly one of \"set\" (properties), \"children\" (new children) or \"remove\": true")
        }
        var notify: LayoutNotification?
        if let kind = try optionalChoice("notify", ["screenChanged", "layoutChanged"]) {
            let target = try optionalString("focus")
            notify = kind == "screenChanged" ? .screenChanged(element: target) : .layoutChanged(element: target)
        }
        return .update(tree: tree, update: kinds[0], announce: try optionalBool("announce") ?? false, notify: notify)
    }

    // MARK: Typed readers

    private mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        return object[key]
    }

    private mutating func required(_ key: String) throws(ProtocolError) -> JSONValue {
        guard let value = value(key) else { throw ProtocolError(.missingField, "\(cmd): missing \"\(key)\"") }
        return value
    }

    private mutating func string(_ key: String) throws(ProtocolError) -> String {
        let value = try required(key)
        guard case .string(let s) = value, !s.isEmpty else {
            throw ProtocolError(.invalidField, "\(cmd).\(key): expected a non-empty string, got \(value.typeName)")
        }
        return s
    }

    private mutating func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let value = value(key), !value.isNull else { return nil }
        guard case .string(let s) = value, !s.isEmpty else {
            throw ProtocolError(.invalidField, "\(cmd).\(key): expected a non-empty string, got \(value.typeName)")
        }
        return s
    }

    private mutating func number(_ key: String) throws(ProtocolError) -> Double {
        let value = try required(key)
        guard case .number(let n) = value else {
            throw ProtocolError(.invalidField, "\(cmd).\(key): expected a number, got \(value.typeName)")
        }
        return n
    }

    private mutating func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = value(key), !value.isNull else { return nil }
        guard case .bool(let b) = value else {
            throw ProtocolError(.invalidField, "\(cmd).\(key): expected true or false, got \(value.typeName)")
        }
        return b
    }

    private mutating func choice(_ key: String, _ choices: [String]) throws(ProtocolError) -> String {
        guard let chosen = try optionalChoice(key, choices) else { throw ProtocolError(.missingField, "\(cmd): missing \"\(key)\"") }
        return chosen
    }

    private mutating func optionalChoice(_ key: String, _ choices: [String]) throws(ProtocolError) -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard choices.contains(s) else {
            throw ProtocolError(
                .invalidField,
                "\(cmd).\(key): expected one of \(choices.joined(separator: ", ")), got \"\(s)\"" + Suggestion.hint(for: s, in: choices))
        }
        return s
    }
}
