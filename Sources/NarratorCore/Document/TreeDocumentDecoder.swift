/// Turns JSON into a `TreeDocument`, listing every problem with its JSON path.
///
/// One pass over each object's members both reads the values and catches unknown keys
/// (with the nearest known key), keys given twice, wrong types and out-of-range numbers.
public struct TreeDocumentDecoder: Sendable {
    public var limits: DocumentLimits

    public init(limits: DocumentLimits = .default) { self.limits = limits }

    /// Keys a document may have at the top level.
    public static let documentKeys = ["version", "tree", "title", "language", "root", "audit"]
    /// Keys a node may have.
    public static let nodeKeys = NodeField.allCases.map(\.rawValue)
    static let adjustableKeys = ["value", "min", "max", "step", "format"]
    static let representationKeys = ["control", "label", "value", "isOn", "adjustable"]
    static let rotorKeys = ["name", "targets"]

    public func decode(text: String) throws(DocumentError) -> TreeDocument {
        let json: JSONValue
        do { json = try limits.parser.parse(text) } catch { throw .syntax(error) }
        return try decode(json)
    }

    public func decode(bytes: [UInt8]) throws(DocumentError) -> TreeDocument {
        let json: JSONValue
        do { json = try limits.parser.parse(bytes) } catch { throw .syntax(error) }
        return try decode(json)
    }

    public func decode(_ json: JSONValue) throws(DocumentError) -> TreeDocument {
        var context = DecodingContext(limits: limits, path: [])
        if case .object(let object) = json, let root = object["root"] {
            context.reserveIDs(for: CollectionOfOne(root))
        }
        let decoded = context.document(json)
        try context.finish(json: json, rootPath: [])
        var document = decoded!
        // Every node was decoded without a problem, so the index holds each id at its slot.
        document.idIndex = context.slotOfID
        return document
    }

    /// Decodes nodes that will replace an element's children in an existing tree.
    /// `path` is where they sit in the request, for messages; `existingIDs` must not be reused.
    public func decodeNodes(
        _ json: JSONValue, at path: [JSONPathComponent], depth: Int, existingIDs: @escaping (String) -> Bool
    ) throws(DocumentError) -> [Node] {
        var context = DecodingContext(limits: limits, path: path)
        context.isTaken = existingIDs
        var nodes: [Node] = []
        if case .array(let items) = json {
            context.reserveIDs(for: items)
            for (index, item) in items.enumerated() {
                context.path.append(.index(index))
                if let node = context.node(item, depth: depth) { nodes.append(node) }
                context.path.removeLast()
            }
        } else {
            context.problem("expected an array of nodes, got \(json.typeName)")
        }
        try context.finish(json: json, rootPath: path, nodesAreArray: true)
        return nodes
    }

    /// Applies a set of properties (an object with node keys other than `id` and `children`,
    /// `null` clearing a property) to a copy of `node`.
    public func applyProperties(
        _ json: JSONValue, to node: Node, at path: [JSONPathComponent]
    ) throws(DocumentError) -> Node {
        var context = DecodingContext(limits: limits, path: path)
        var copy = node
        if case .object(let object) = json {
            context.fields(object, into: &copy, depth: 1, isPatch: true)
        } else {
            context.problem("expected an object of properties, got \(json.typeName)")
        }
        try context.finish(json: json, rootPath: path)
        return copy
    }
}

/// The keys of a node, so that one string comparison chain (no hashing) finds each member's
/// meaning and its bit in the "seen" mask.
public enum NodeField: String, CaseIterable, Sendable {
    case id, label, value, hint, traits, children, childBehavior, isElement, hidden, sortPriority, modal, frame
    case activationPoint, actions, magicTap, escape, adjustable, representation, rotors

    /// The field a key names, or nil. Written out by length because the synthesised
    /// `init(rawValue:)` hashes the key into a cache, which cost more than all the comparisons.
    init?(key: String) {
        let field: NodeField?
        switch key.utf8.count {
        case 2: field = key == "id" ? .id : nil
        case 4: field = key == "hint" ? .hint : nil
        case 5:
            switch key {
            case "label": field = .label
            case "value": field = .value
            case "frame": field = .frame
            case "modal": field = .modal
            default: field = nil
            }
        case 6:
            switch key {
            case "traits": field = .traits
            case "hidden": field = .hidden
            case "escape": field = .escape
            case "rotors": field = .rotors
            default: field = nil
            }
        case 7: field = key == "actions" ? .actions : nil
        case 8:
            switch key {
            case "children": field = .children
            case "magicTap": field = .magicTap
            default: field = nil
            }
        case 9: field = key == "isElement" ? .isElement : nil
        case 10: field = key == "adjustable" ? .adjustable : nil
        case 12: field = key == "sortPriority" ? .sortPriority : nil
        case 13: field = key == "childBehavior" ? .childBehavior : nil
        case 14: field = key == "representation" ? .representation : nil
        case 15: field = key == "activationPoint" ? .activationPoint : nil
        default: field = nil
        }
        guard let field else { return nil }
        self = field
    }

    var bitIndex: UInt32 {
        switch self {
        case .id: 0
        case .label: 1
        case .value: 2
        case .hint: 3
        case .traits: 4
        case .children: 5
        case .childBehavior: 6
        case .isElement: 7
        case .hidden: 8
        case .sortPriority: 9
        case .modal: 10
        case .frame: 11
        case .activationPoint: 12
        case .actions: 13
        case .magicTap: 14
        case .escape: 15
        case .adjustable: 16
        case .representation: 17
        case .rotors: 18
        }
    }
}

/// The mutable state of one decoding pass.
struct DecodingContext {
    let limits: DocumentLimits
    var path: [JSONPathComponent]
    var problems: [DocumentProblem] = []
    var nodeCount = 0
    var reportedTooMany = false
    /// For each id, the pre-order position (ordinal - 1) of its first node: on success, the
    /// slot it gets in `AccessibilityTree`, which takes this index instead of hashing every id again.
    var slotOfID: [String: Int32] = [:]
    var duplicates: [(id: String, first: Int, secondPath: String)] = []
    /// Ids already used elsewhere in the tree (for updates).
    var isTaken: ((String) -> Bool)?

    init(limits: DocumentLimits, path: [JSONPathComponent]) {
        self.limits = limits
        self.path = path
    }

    /// Sizes the id index for the nodes in `nodes` and below (up to the node limit) before decoding:
    /// growing it one node at a time rehashed every id some 17 times in a 100k-node tree.
    mutating func reserveIDs<C: Collection<JSONValue>>(for nodes: C) {
        var count = 0
        // Members and children are read through buffers, in place: this walk must cost little
        // next to the hashing it saves. A "children" key given twice only over-reserves.
        func visit(_ value: JSONValue) {
            guard count <= limits.maxNodes, case .object(let object) = value else { return }
            count += 1
            object.members.withUnsafeBufferPointer { members in
                for index in members.indices where members[index].key.utf8.count == 8 && members[index].key == "children" {
                    guard case .array(let children) = members[index].value else { continue }
                    children.withUnsafeBufferPointer { children in
                        for child in children.indices { visit(children[child]) }
                    }
                }
            }
        }
        for node in nodes { visit(node) }
        slotOfID.reserveCapacity(min(count, limits.maxNodes))
    }

    mutating func problem(_ message: String) {
        problems.append(DocumentProblem(path: path.rendered, message: message))
    }

    /// The object's members with each key once: a key given again is reported at its path and
    /// skipped, so that every object in a document is checked for duplicates the same way.
    mutating func distinctMembers(_ object: JSONObject) -> [JSONObject.Member] {
        var seen = Set<String>()
        var members: [JSONObject.Member] = []
        for member in object.members {
            if seen.insert(member.key).inserted {
                members.append(member)
            } else {
                at(member.key) { $0.problem("key given twice") }
            }
        }
        return members
    }

    mutating func at<T>(_ key: String, _ body: (inout DecodingContext) -> T) -> T {
        path.append(.key(key))
        defer { path.removeLast() }
        return body(&self)
    }

    mutating func finish(json: JSONValue, rootPath: [JSONPathComponent], nodesAreArray: Bool = false) throws(DocumentError) {
        if !duplicates.isEmpty {
            // Render the first occurrence's path only now, by walking the JSON once more.
            let wanted = Set(duplicates.map(\.first))
            var found: [Int: String] = [:]
            var ordinal = 0
            func walk(_ value: JSONValue, _ path: inout [JSONPathComponent]) {
                guard case .object(let object) = value else { return }
                ordinal += 1
                if wanted.contains(ordinal) { found[ordinal] = (path + [.key("id")]).rendered }
                if case .array(let children)? = object["children"] {
                    path.append(.key("children"))
                    for (index, child) in children.enumerated() {
                        path.append(.index(index))
                        walk(child, &path)
                        path.removeLast()
                    }
                    path.removeLast()
                }
            }
            var walkPath = rootPath
            if nodesAreArray, case .array(let items) = json {
                for (index, item) in items.enumerated() {
                    walkPath.append(.index(index))
                    walk(item, &walkPath)
                    walkPath.removeLast()
                }
            } else if case .object(let object) = json, let root = object["root"], !nodesAreArray, rootPath.isEmpty {
                walkPath.append(.key("root"))
                walk(root, &walkPath)
            } else {
                walk(json, &walkPath)
            }
            for duplicate in duplicates {
                let first = found[duplicate.first] ?? "an earlier node"
                problems.append(
                    DocumentProblem(
                        path: duplicate.secondPath,
                        message: "duplicate id \"\(duplicate.id)\" (also at \(first))"))
            }
        }
        if !problems.isEmpty { throw .invalid(problems) }
    }

    // MARK: Document

    mutating func document(_ json: JSONValue) -> TreeDocument? {
        guard case .object(let object) = json else {
            problem("expected a tree document (an object with \"tree\" and \"root\"), got \(json.typeName)")
            return nil
        }
        var document = TreeDocument(name: "", root: Node(id: ""))
        var hasTree = false, hasRoot = false
        for member in distinctMembers(object) {
            path.append(.key(member.key))
            defer { path.removeLast() }
            switch member.key {
            case "version":
                if let v = number(member.value), v != Double(NarratorVersion.treeFormat) {
                    problem("unsupported format version \(JSONWriter.format(v)); this build reads version \(NarratorVersion.treeFormat)")
                }
            case "tree":
                hasTree = true
                if let name = identifier(member.value, what: "tree name") { document.name = name }
            case "title": document.title = optionalString(member.value)
            case "language":
                document.language = optionalString(member.value)
                if let tag = document.language, !Self.isLanguageTag(tag) {
                    problem("\"\(tag)\" is not a language tag such as \"en\" or \"de-DE\"")
                }
            case "root":
                hasRoot = true
                if let root = node(member.value, depth: 1) { document.root = root }
            case "audit": document.auditIgnore = auditSettings(member.value)
            default:
                problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.documentKeys))
            }
        }
        if !hasTree { problem("missing \"tree\" (the tree's name)") }
        if !hasRoot { problem("missing \"root\" (the root node)") }
        return document
    }

    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }
    }

    // MARK: Nodes

    mutating func node(_ json: JSONValue, depth: Int) -> Node? {
        var nodes: [Node] = []
        node(json, depth: depth, appendingTo: &nodes)
        return nodes.popLast()
    }

    /// Decodes one node at the end of `nodes`, in place: a node is 136 bytes, and building it
    /// elsewhere then appending it copied every node of a large tree once more.
    mutating func node(_ json: JSONValue, depth: Int, appendingTo nodes: inout [Node]) {
        guard case .object(let object) = json else {
            problem("expected a node (an object with an \"id\"), got \(json.typeName)")
            return
        }
        nodeCount += 1
        if nodeCount > limits.maxNodes {
            if !reportedTooMany {
                reportedTooMany = true
                problem("more than \(limits.maxNodes) nodes in one tree")
            }
            return
        }
        let ordinal = nodeCount
        nodes.append(Node(bareID: ""))
        let last = nodes.count - 1
        fields(object, into: &nodes[last], depth: depth, isPatch: false)
        let id = nodes[last].id
        if !id.isEmpty {
            // One hash lookup on the happy path: insert, and put the first ordinal back on a repeat.
            if let first = slotOfID.updateValue(Int32(ordinal - 1), forKey: id) {
                slotOfID[id] = first
                duplicates.append((id, Int(first) + 1, (path + [.key("id")]).rendered))
            } else if let isTaken, isTaken(id) {
                at("id") { $0.problem("id \"\(id)\" is already used elsewhere in the tree") }
            }
        }
    }

    /// Reads every member of a node object into `node`. In a patch, `null` resets a property
    /// and `id`/`children` are refused.
    mutating func fields(_ object: JSONObject, into node: inout Node, depth: Int, isPatch: Bool) {
        // Keys seen so far, as bits in `nodeKeys` order: no allocation per node.
        var seen: UInt32 = 0
        var hasID = false
        for member in object.members {
            path.append(.key(member.key))
            defer { path.removeLast() }
            guard let field = NodeField(key: member.key) else {
                problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.nodeKeys))
                continue
            }
            let bit = UInt32(1) << field.bitIndex
            if seen & bit != 0 {
                problem("key given twice")
                continue
            }
            seen |= bit
            let value = member.value
            // On the field, not the key again: the key's string comparisons were done once above.
            switch field {
            case .id:
                if isPatch {
                    problem("an element's id cannot be changed; remove it and add a new one")
                } else {
                    hasID = true
                    if let id = identifier(value, what: "id") { node.id = id }
                }
            case .label: node.label = optionalString(value)
            case .value: node.value = optionalString(value)
            case .hint: node.hint = optionalString(value)
            case .traits: node.traits = traits(value)
            case .children:
                if isPatch {
                    problem("children cannot be set as a property; replace them with a \"children\" update")
                } else {
                    node.children = children(value, depth: depth)
                }
            case .childBehavior:
                if value.isNull { node.childBehavior = nil; continue }
                guard let name = string(value) else { continue }
                if let behavior = ChildBehavior(rawValue: name) {
                    node.childBehavior = behavior
                } else {
                    problem(unknownName(name, kind: "child behavior", in: ChildBehavior.allCases.map(\.rawValue)))
                }
            case .isElement: node.isElement = value.isNull ? nil : bool(value)
            case .hidden: node.hidden = value.isNull ? false : bool(value) ?? false
            case .sortPriority: node.sortPriority = value.isNull ? 0 : number(value) ?? 0
            case .modal: node.modal = value.isNull ? false : bool(value) ?? false
            case .frame: node.frame = value.isNull ? nil : frame(value)
            case .activationPoint: node.activationPoint = value.isNull ? nil : point(value)
            case .actions: node.actions = value.isNull ? [] : actions(value)
            case .magicTap: node.magicTap = value.isNull ? false : bool(value) ?? false
            case .escape: node.escape = value.isNull ? false : bool(value) ?? false
            case .adjustable: node.adjustable = value.isNull ? nil : adjustable(value)
            case .representation: node.representation = value.isNull ? nil : representation(value)
            case .rotors: node.rotors = value.isNull ? [] : rotors(value)
            }
        }
        if !isPatch && !hasID { problem("missing \"id\"") }
    }

    mutating func children(_ value: JSONValue, depth: Int) -> [Node] {
        guard case .array(let items) = value else {
            if !value.isNull { problem("expected an array of nodes, got \(value.typeName)") }
            return []
        }
        if !items.isEmpty, depth + 1 > limits.maxDepth {
            problem("nodes nested deeper than \(limits.maxDepth) levels")
            return []
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            node(item, depth: depth + 1, appendingTo: &nodes)
            path.removeLast()
        }
        return nodes
    }

    // MARK: Values

    mutating func string(_ value: JSONValue) -> String? {
        guard case .string(let s) = value else {
            problem("expected a string, got \(value.typeName)")
            return nil
        }
        if s.utf8.count > limits.maxStringLength, s.count > limits.maxStringLength {
            problem("string longer than \(limits.maxStringLength) characters")
            return nil
        }
        return s
    }

    /// A string or null; empty strings count as absent.
    mutating func optionalString(_ value: JSONValue) -> String? {
        if value.isNull { return nil }
        guard let s = string(value) else { return nil }
        return s.isEmpty ? nil : s
    }

    /// A non-empty name without control characters (ids, tree names).
    mutating func identifier(_ value: JSONValue, what: String) -> String? {
        guard let s = string(value) else { return nil }
        if s.isEmpty {
            problem("\(what) must not be empty")
            return nil
        }
        if let bad = s.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            problem("\(what) contains the control character U+\(String(bad.value, radix: 16, uppercase: true))")
            return nil
        }
        return s
    }

    mutating func bool(_ value: JSONValue) -> Bool? {
        guard case .bool(let b) = value else {
            problem("expected true or false, got \(value.typeName)")
            return nil
        }
        return b
    }

    mutating func number(_ value: JSONValue) -> Double? {
        guard case .number(let n) = value else {
            problem("expected a number, got \(value.typeName)")
            return nil
        }
        return n
    }

    func unknownName(_ name: String, kind: String, in candidates: [String]) -> String {
        let hint = Suggestion.nearest(to: name, in: candidates).map { "did you mean \"\($0)\"? " } ?? ""
        return "unknown \(kind) \"\(name)\"; \(hint)expected one of \(candidates.joined(separator: ", "))"
    }

    mutating func traits(_ value: JSONValue) -> Traits {
        if value.isNull { return [] }
        guard case .array(let items) = value else {
            problem("expected an array of trait names, got \(value.typeName)")
            return []
        }
        var traits = Traits()
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            defer { path.removeLast() }
            guard let name = string(item) else { continue }
            if let trait = Trait(rawValue: name) {
                traits.insert(trait)
            } else {
                let hint = Suggestion.nearest(to: name, in: Trait.allCases.map(\.rawValue))
                problem("unknown trait \"\(name)\"" + (hint.map { "; did you mean \"\($0)\"?" } ?? ""))
            }
        }
        return traits
    }

    /// `count` numbers (2 or 4) in a tuple, the rest 0: a frame on every node must not allocate.
    mutating func numbers(_ value: JSONValue, count: Int, what: String) -> (Double, Double, Double, Double)? {
        guard case .array(let items) = value else {
            problem("expected \(what): \(count) numbers, got \(value.typeName)")
            return nil
        }
        guard items.count == count else {
            problem("expected \(count) numbers, got \(items.count)")
            return nil
        }
        var result = (0.0, 0.0, 0.0, 0.0)
        for (index, item) in items.enumerated() {
            guard case .number(let n) = item else {
                path.append(.index(index))
                problem("expected a number, got \(item.typeName)")
                path.removeLast()
                return nil
            }
            switch index {
            case 0: result.0 = n
            case 1: result.1 = n
            case 2: result.2 = n
            default: result.3 = n
            }
        }
        return result
    }

    mutating func frame(_ value: JSONValue) -> Rect? {
        guard let n = numbers(value, count: 4, what: "[x, y, width, height]") else { return nil }
        if n.2 < 0 || n.3 < 0 {
            problem("width and height must not be negative, got \(JSONWriter.format(n.2)) x \(JSONWriter.format(n.3))")
            return nil
        }
        return Rect(x: n.0, y: n.1, width: n.2, height: n.3)
    }

    mutating func point(_ value: JSONValue) -> Point? {
        guard let n = numbers(value, count: 2, what: "[x, y]") else { return nil }
        return Point(x: n.0, y: n.1)
    }

    mutating func actions(_ value: JSONValue) -> [String] {
        guard case .array(let items) = value else {
            problem("expected an array of action names, got \(value.typeName)")
            return []
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            defer { path.removeLast() }
            guard let name = string(item) else { continue }
            if name.isEmpty {
                problem("action name must not be empty")
            } else if names.contains(name) {
                problem("action \"\(name)\" listed twice")
            } else {
                names.append(name)
            }
        }
        return names
    }

    mutating func adjustable(_ value: JSONValue) -> AdjustableValue? {
        guard case .object(let object) = value else {
            problem("expected an object such as {\"value\": 3, \"min\": 1, \"max\": 5}, got \(value.typeName)")
            return nil
        }
        var result = AdjustableValue(value: 0)
        var hasValue = false
        var ok = true
        for member in distinctMembers(object) {
            path.append(.key(member.key))
            defer { path.removeLast() }
            switch member.key {
            case "value":
                hasValue = true
                if let n = number(member.value) { result.value = n } else { ok = false }
            case "min": if member.value.isNull { result.min = nil } else if let n = number(member.value) { result.min = n } else { ok = false }
            case "max": if member.value.isNull { result.max = nil } else if let n = number(member.value) { result.max = n } else { ok = false }
            case "step":
                guard let n = number(member.value) else { ok = false; continue }
                if n <= 0 {
                    problem("step must be greater than 0, got \(JSONWriter.format(n))")
                    ok = false
                } else {
                    result.step = n
                }
            case "format":
                guard let name = string(member.value) else { ok = false; continue }
                if let format = ValueFormat(name: name) {
                    result.format = format
                } else {
                    ok = false
                    problem(
                        "unknown format \"\(name)\"; expected number, percent, time, or a template containing {value}"
                            + Suggestion.hint(for: name, in: ["number", "percent", "time"]))
                }
            default:
                problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.adjustableKeys))
            }
        }
        if !hasValue {
            problem("missing \"value\"")
            return nil
        }
        guard ok else { return nil }
        if let min = result.min, let max = result.max {
            if min > max {
                problem("min (\(JSONWriter.format(min))) is greater than max (\(JSONWriter.format(max)))")
                return nil
            }
            if result.value < min || result.value > max {
                at("value") {
                    $0.problem(
                        "\(JSONWriter.format(result.value)) is outside \(JSONWriter.format(min))...\(JSONWriter.format(max))")
                }
                return nil
            }
        }
        if result.format == .percent, result.min == nil || result.max == nil {
            at("format") { $0.problem("percent needs both \"min\" and \"max\"") }
            return nil
        }
        return result
    }

    mutating func representation(_ value: JSONValue) -> Representation? {
        guard case .object(let object) = value else {
            problem("expected an object such as {\"control\": \"slider\", ...}, got \(value.typeName)")
            return nil
        }
        var control: Representation.Control?
        var result = Representation(control: .button)
        for member in distinctMembers(object) {
            path.append(.key(member.key))
            defer { path.removeLast() }
            switch member.key {
            case "control":
                guard let name = string(member.value) else { continue }
                control = Representation.Control(rawValue: name)
                if control == nil {
                    problem(unknownName(name, kind: "control", in: Representation.Control.allCases.map(\.rawValue)))
                }
            case "label": result.label = optionalString(member.value)
            case "value": result.value = optionalString(member.value)
            case "isOn": result.isOn = member.value.isNull ? nil : bool(member.value)
            case "adjustable": result.adjustable = member.value.isNull ? nil : adjustable(member.value)
            default:
                problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.representationKeys))
            }
        }
        guard let control else {
            if object["control"] == nil { problem("missing \"control\" (slider, stepper, button, toggle or link)") }
            return nil
        }
        result.control = control
        if result.isOn != nil, control != .toggle {
            at("isOn") { $0.problem("only a toggle has \"isOn\"; this is a \(control.rawValue)") }
        }
        if result.adjustable != nil, control != .slider && control != .stepper {
            at("adjustable") { $0.problem("only a slider or stepper is adjustable; this is a \(control.rawValue)") }
        }
        return result
    }

    mutating func rotors(_ value: JSONValue) -> [CustomRotor] {
        guard case .array(let items) = value else {
            problem("expected an array of rotors, got \(value.typeName)")
            return []
        }
        var rotors: [CustomRotor] = []
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            defer { path.removeLast() }
            guard case .object(let object) = item else {
                problem("expected a rotor such as {\"name\": \"Unread\", \"targets\": [...]}, got \(item.typeName)")
                continue
            }
            var name: String?
            var targets: [String] = []
            for member in distinctMembers(object) {
                path.append(.key(member.key))
                defer { path.removeLast() }
                switch member.key {
                case "name": name = identifier(member.value, what: "rotor name")
                case "targets":
                    guard case .array(let ids) = member.value else {
                        problem("expected an array of element ids, got \(member.value.typeName)")
                        continue
                    }
                    var seen: [String: Int] = [:]
                    for (i, id) in ids.enumerated() {
                        path.append(.index(i))
                        if let target = identifier(id, what: "target id") {
                            // Targets are visited in reading order, once each: a repeat would be the
                            // only way to write a loop, so it is refused rather than skipped.
                            if let first = seen[target] {
                                problem("target \"\(target)\" listed twice (also at index \(first))")
                            } else {
                                seen[target] = i
                                targets.append(target)
                            }
                        }
                        path.removeLast()
                    }
                default:
                    problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.rotorKeys))
                }
            }
            guard let name else {
                if object["name"] == nil { problem("missing \"name\"") }
                continue
            }
            if rotors.contains(where: { $0.name == name }) {
                at("name") { $0.problem("rotor \"\(name)\" defined twice on this node") }
                continue
            }
            rotors.append(CustomRotor(name: name, targets: targets))
        }
        return rotors
    }
}
