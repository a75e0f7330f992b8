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
        var text = text
        return try text.withUTF8 { buffer in Result { () throws(DocumentError) in try decode(buffer, maxJSONDepth: limits.parser.maxDepth) } }.get()
    }

    public func decode(bytes: [UInt8]) throws(DocumentError) -> TreeDocument {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(DocumentError) in try decode(buffer, maxJSONDepth: limits.parser.maxDepth) } }.get()
    }

    /// Decodes a document the request parser has already checked (a register request's): its
    /// nesting was bounded there, so it is not bounded again here, just as a document handed
    /// over as a value tree is not.
    public func decode(_ document: RawJSON) throws(DocumentError) -> TreeDocument {
        try document.bytes.withUnsafeBufferPointer { buffer in Result { () throws(DocumentError) in try decode(buffer, maxJSONDepth: .max) } }.get()
    }

    /// Straight from the bytes when the document is valid; through the value tree, which says
    /// what is wrong and where, when it is not (see `DirectTreeDecoder`).
    func decode(_ buffer: UnsafeBufferPointer<UInt8>, maxJSONDepth: Int) throws(DocumentError) -> TreeDocument {
        var direct = DirectTreeDecoder(bytes: buffer, limits: limits, maxJSONDepth: maxJSONDepth)
        if let document = try? direct.document() { return document }
        let json: JSONValue
        do { json = try JSONParser(maxDepth: maxJSONDepth).parse(buffer) } catch { throw .syntax(error) }
        return try decode(json)
    }

    public func decode(_ json: JSONValue) throws(DocumentError) -> TreeDocument {
        var context = DecodingContext(limits: limits, path: [])
        if case .object(let object) = json, let root = object["root"] {
            context.reserveIDs(for: CollectionOfOne(root))
        }
        let decoded = context.document(json)
        try context.finish(json: json, rootPath: [])
        guard var document = decoded else { throw .invalid([DocumentProblem(path: "", message: "the document could not be decoded")]) }
        if context.holdsCells, case let problems = document.root.tableProblems(at: [.key("root")]), !problems.isEmpty { throw .invalid(problems) }
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
            nodes.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                context.path.append(.index(index))
                context.node(item, depth: depth, appendingTo: &nodes)
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
            if let value = object["value"], !value.isNull { context.at("value") { $0.checkSpokenValue(of: copy) } }
        } else {
            context.problem("expected an object of properties, got \(json.typeName)")
        }
        try context.finish(json: json, rootPath: path)
        return copy
    }
}

extension DecodingContext {
    /// Refuses a `value` set on an element that speaks another one instead, naming what to set:
    /// a declarative value (an `adjustable` block, its own or its representation's), or a
    /// representation's own `value`. Set silently, it would never be heard.
    mutating func checkSpokenValue(of node: Node) {
        if let adjustable = node.representation?.adjustable {
            problem(
                "this element's value is declarative (its representation's \"adjustable\" block), so a \"value\" would never be spoken; "
                    + "set \"representation\" again with a new \"adjustable\" block instead (now \(TreeDocumentEncoder.json(adjustable).compactText))")
        } else if let adjustable = node.adjustable {
            var example = adjustable
            example.value = adjustable.adjusted(.up).value
            problem(
                "this element's value is declarative (its \"adjustable\" block), so a \"value\" would never be spoken; "
                    + "set the block instead, e.g. {\"adjustable\": \(TreeDocumentEncoder.json(example).compactText)}")
        } else if node.representation?.value != nil {
            problem("this element's representation has its own \"value\", which is spoken instead; set \"representation\" again with the new value")
        }
    }
}
