/// Decodes a tree document straight from its bytes, without building a JSON value tree first:
/// the node hierarchy is read member by member, and only each member's small value (a string,
/// a frame) is built and handed to the same readers as the value-tree walk. For a large tree
/// this saves most allocations and the reference counting of walking the value tree.
///
/// It takes only the happy path. At the first thing that would be a problem (a syntax error,
/// a wrong type, an unknown or repeated key, a limit, a duplicate id) it gives up, and the
/// caller decodes the document through the value tree, which reports every problem with its
/// path and place: one implementation of the messages, and the same messages either way.
struct DirectTreeDecoder {
    /// Why the direct path stopped; the value-tree path says what is wrong.
    struct GiveUp: Error {}

    var scanner: JSONScanner
    var context: DecodingContext

    init(bytes: UnsafeBufferPointer<UInt8>, limits: DocumentLimits, maxJSONDepth: Int) {
        scanner = JSONScanner(bytes: bytes, maxDepth: maxJSONDepth)
        context = DecodingContext(limits: limits, path: [])
    }

    /// The document and its id index, or `GiveUp`.
    mutating func document() throws(GiveUp) -> TreeDocument {
        context.slotOfID.reserveCapacity(min(estimatedNodeCount(), context.limits.maxNodes))
        scanner.skipWhitespace()
        var document = TreeDocument(name: "", root: Node(id: ""))
        var seenKeys: [String] = []
        try beginObject(depth: 1)
        repeat {
            let key = try key()
            guard !seenKeys.contains(key) else { throw GiveUp() }
            seenKeys.append(key)
            if key == "root" {
                var nodes: [Node] = []
                try node(depth: 1, jsonDepth: 1, appendingTo: &nodes)
                document.root = nodes.removeLast()
            } else {
                let value = try value(depth: 1)
                context.documentField(key, value, into: &document)
            }
        } while try moreMembers()
        scanner.skipWhitespace()
        guard seenKeys.contains("tree"), seenKeys.contains("root"), scanner.position == scanner.bytes.count, context.problems.isEmpty else { throw GiveUp() }
        // A cell outside its table: the value-tree walk says where.
        if context.holdsCells, !document.root.tableProblems(at: [.key("root")]).isEmpty { throw GiveUp() }
        document.idIndex = context.slotOfID
        return document
    }

    /// Reads one node object onto the end of `nodes`, in place (as `DecodingContext.node` does).
    /// `jsonDepth` is the nesting of the object holding this node's value.
    mutating func node(depth: Int, jsonDepth: Int, appendingTo nodes: inout [Node]) throws(GiveUp) {
        let objectDepth = jsonDepth + 1
        try beginObject(depth: objectDepth)
        context.nodeCount += 1
        guard context.nodeCount <= context.limits.maxNodes else { throw GiveUp() }
        let ordinal = context.nodeCount
        nodes.append(Node(bareID: ""))
        let last = nodes.count - 1
        var seen: UInt32 = 0
        var hasID = false
        repeat {
            guard let field = NodeField(key: try key()) else { throw GiveUp() }
            let bit = UInt32(1) << field.bitIndex
            guard seen & bit == 0 else { throw GiveUp() }
            seen |= bit
            if field == .children {
                nodes[last].children = try children(depth: depth, jsonDepth: objectDepth)
            } else {
                if field == .id { hasID = true }
                let value = try value(depth: objectDepth)
                context.apply(field, value, to: &nodes[last], depth: depth, isPatch: false)
            }
        } while try moreMembers()
        guard hasID, context.problems.isEmpty else { throw GiveUp() }
        guard context.slotOfID.updateValue(Int32(ordinal - 1), forKey: nodes[last].id) == nil else { throw GiveUp() }
    }

    mutating func children(depth: Int, jsonDepth: Int) throws(GiveUp) -> [Node] {
        guard scanner.position < scanner.bytes.count else { throw GiveUp() }
        if scanner.bytes[scanner.position] == UInt8(ascii: "n") {
            do { try scanner.literal("null") } catch { throw GiveUp() }
            return []
        }
        let arrayDepth = jsonDepth + 1
        guard scanner.bytes[scanner.position] == UInt8(ascii: "["), arrayDepth <= scanner.maxDepth else { throw GiveUp() }
        scanner.position += 1
        scanner.skipWhitespace()
        guard scanner.position < scanner.bytes.count else { throw GiveUp() }
        var nodes: [Node] = []
        if scanner.bytes[scanner.position] == UInt8(ascii: "]") {
            scanner.position += 1
            return nodes
        }
        guard depth + 1 <= context.limits.maxDepth else { throw GiveUp() }
        while true {
            scanner.skipWhitespace()
            try node(depth: depth + 1, jsonDepth: arrayDepth, appendingTo: &nodes)
            scanner.skipWhitespace()
            guard scanner.position < scanner.bytes.count else { throw GiveUp() }
            switch scanner.bytes[scanner.position] {
            case UInt8(ascii: ","): scanner.position += 1
            case UInt8(ascii: "]"): scanner.position += 1; return nodes
            default: throw GiveUp()
            }
        }
    }

    // MARK: Tokens

    /// Consumes `{` (checking the nesting bound as the parser does) and the whitespace after it.
    private mutating func beginObject(depth: Int) throws(GiveUp) {
        guard scanner.position < scanner.bytes.count, scanner.bytes[scanner.position] == UInt8(ascii: "{"),
            depth <= scanner.maxDepth
        else { throw GiveUp() }
        scanner.position += 1
        scanner.skipWhitespace()
        guard scanner.position < scanner.bytes.count else { throw GiveUp() }
    }

    /// A key and its colon, leaving the scanner at the value.
    private mutating func key() throws(GiveUp) -> String {
        guard scanner.position < scanner.bytes.count, scanner.bytes[scanner.position] == UInt8(ascii: "\"") else { throw GiveUp() }
        let key: String
        do { key = try scanner.string() } catch { throw GiveUp() }
        scanner.skipWhitespace()
        guard scanner.position < scanner.bytes.count, scanner.bytes[scanner.position] == UInt8(ascii: ":") else { throw GiveUp() }
        scanner.position += 1
        scanner.skipWhitespace()
        return key
    }

    private mutating func value(depth: Int) throws(GiveUp) -> JSONValue {
        do { return try scanner.value(depth: depth) } catch { throw GiveUp() }
    }

    /// After a member's value: `true` past a comma (another member follows), `false` past the
    /// closing brace.
    private mutating func moreMembers() throws(GiveUp) -> Bool {
        scanner.skipWhitespace()
        guard scanner.position < scanner.bytes.count else { throw GiveUp() }
        switch scanner.bytes[scanner.position] {
        case UInt8(ascii: ","):
            scanner.position += 1
            scanner.skipWhitespace()
            return true
        case UInt8(ascii: "}"):
            scanner.position += 1
            return false
        default: throw GiveUp()
        }
    }

    /// An upper bound on the nodes (objects outside strings), to size the id index once: growing
    /// it one node at a time rehashed every id some 17 times in a 100k-node tree.
    private func estimatedNodeCount() -> Int {
        var count = 0
        var inString = false
        var index = 0
        let bytes = scanner.bytes
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                count += 1
            }
            index += 1
        }
        return count
    }
}
