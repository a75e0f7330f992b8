/// Writes trees back as JSON in the document format, omitting properties at their defaults,
/// so that a decoded document encodes to an equivalent document.
public enum TreeDocumentEncoder {
    public static func json(_ document: TreeDocument) -> JSONValue {
        var object = JSONObject()
        object.members.append(.init(key: "tree", value: .string(document.name)))
        if let title = document.title { object.members.append(.init(key: "title", value: .string(title))) }
        if let language = document.language { object.members.append(.init(key: "language", value: .string(language))) }
        if !document.auditIgnore.isEmpty { object.members.append(.init(key: "audit", value: auditSettings(document))) }
        object.members.append(.init(key: "root", value: json(document.root)))
        return .object(object)
    }

    public static func json(_ node: Node) -> JSONValue {
        var o = JSONObject()
        func put(_ key: String, _ value: JSONValue) { o.members.append(.init(key: key, value: value)) }
        put("id", .string(node.id))
        if let label = node.label { put("label", .string(label)) }
        if let value = node.value { put("value", .string(value)) }
        if let hint = node.hint { put("hint", .string(hint)) }
        if !node.traits.isEmpty { put("traits", .array(node.traits.list.map { .string($0.rawValue) })) }
        if let behavior = node.childBehavior { put("childBehavior", .string(behavior.rawValue)) }
        if let isElement = node.isElement { put("isElement", .bool(isElement)) }
        if node.hidden { put("hidden", true) }
        if node.sortPriority != 0 { put("sortPriority", .number(node.sortPriority)) }
        if node.modal { put("modal", true) }
        if let frame = node.frame { put("frame", json(frame)) }
        if let point = node.activationPoint { put("activationPoint", [.number(point.x), .number(point.y)]) }
        func pair(_ a: Int, _ b: Int) -> JSONValue { [.number(Double(a)), .number(Double(b))] }
        if let position = node.positionInSet { put("positionInSet", pair(position.index, position.count)) }
        if let level = node.headingLevel { put("headingLevel", .number(Double(level))) }
        if let table = node.table { put("table", pair(table.rows, table.columns)) }
        if let cell = node.tableCell { put("cell", pair(cell.row, cell.column)) }
        if let header = node.cellHeader { put("cellHeader", .string(header.rawValue)) }
        if let landmark = node.landmark { put("landmark", .string(landmark.rawValue)) }
        if let size = node.listSize { put("list", .number(Double(size))) }
        if let live = node.live { put("live", .string(live.rawValue)) }
        if let block = node.block { put("block", .string(block.rawValue)) }
        if let range = node.selectedTextRange { put("selectedTextRange", pair(range.location, range.length)) }
        if !node.actions.isEmpty { put("actions", .array(node.actions.map(JSONValue.string))) }
        if node.magicTap { put("magicTap", true) }
        if node.escape { put("escape", true) }
        if let adjustable = node.adjustable { put("adjustable", json(adjustable)) }
        if let representation = node.representation {
            var r = JSONObject()
            r.members.append(.init(key: "control", value: .string(representation.control.rawValue)))
            if let label = representation.label { r.members.append(.init(key: "label", value: .string(label))) }
            if let value = representation.value { r.members.append(.init(key: "value", value: .string(value))) }
            if let isOn = representation.isOn { r.members.append(.init(key: "isOn", value: .bool(isOn))) }
            if let adjustable = representation.adjustable {
                r.members.append(.init(key: "adjustable", value: json(adjustable)))
            }
            put("representation", .object(r))
        }
        if !node.rotors.isEmpty {
            put(
                "rotors",
                .array(
                    node.rotors.map {
                        .object(JSONObject(["name": .string($0.name), "targets": .array($0.targets.map(JSONValue.string))]))
                    }))
        }
        if !node.children.isEmpty { put("children", .array(node.children.map { json($0) })) }
        return .object(o)
    }

    public static func json(_ rect: Rect) -> JSONValue {
        [.number(rect.x), .number(rect.y), .number(rect.width), .number(rect.height)]
    }

    public static func json(_ adjustable: AdjustableValue) -> JSONValue {
        var a = JSONObject()
        a.members.append(.init(key: "value", value: .number(adjustable.value)))
        if let min = adjustable.min { a.members.append(.init(key: "min", value: .number(min))) }
        if let max = adjustable.max { a.members.append(.init(key: "max", value: .number(max))) }
        if adjustable.step != 1 { a.members.append(.init(key: "step", value: .number(adjustable.step))) }
        if adjustable.format != .number { a.members.append(.init(key: "format", value: .string(adjustable.format.name))) }
        return .object(a)
    }
}
