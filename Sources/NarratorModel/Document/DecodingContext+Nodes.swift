import NarratorBase

/// Nodes: the fields of each node object, its children, and the ids they claim.
extension DecodingContext {
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
            if field == .id && !isPatch { hasID = true }
            apply(field, member.value, to: &node, depth: depth, isPatch: isPatch)
        }
        if !isPatch && !hasID { problem("missing \"id\"") }
    }

    /// Reads one member's value into its field of `node` (the caller has matched the key and
    /// checked it is not given twice). Shared by the value-tree walk and the direct decoder.
    mutating func apply(_ field: NodeField, _ value: JSONValue, to node: inout Node, depth: Int, isPatch: Bool) {
        switch field {
        case .id:
            if isPatch {
                problem("an element's id cannot be changed; remove it and add a new one")
            } else if let id = identifier(value, what: "id") {
                node.id = id
            }
        case .label: node.label = optionalString(value)
        case .value: node.value = optionalString(value, limit: limits.valueLimit)
        case .hint: node.hint = optionalString(value)
        case .traits: node.traits = traits(value)
        case .children:
            if isPatch {
                problem("children cannot be set as a property; replace them with a \"children\" update")
            } else {
                node.children = children(value, depth: depth)
            }
        case .childBehavior:
            if value.isNull { node.childBehavior = nil; return }
            guard let name = string(value) else { return }
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
        case .selectedTextRange: node.selectedTextRange = value.isNull ? nil : textRange(value)
        case .positionInSet: node.positionInSet = value.isNull ? nil : setPosition(value)
        case .headingLevel: node.headingLevel = value.isNull ? nil : headingLevel(value)
        case .table:
            node.table = value.isNull ? nil : wholePair(value, what: "[rows, columns]", expected: "a count of rows and of columns (whole numbers, not negative)") {
                $0 >= 0 && $1 >= 0
            }.map { TableSize(rows: $0, columns: $1) }
        case .cell:
            if !value.isNull { holdsCells = true }
            node.tableCell = value.isNull ? nil : wholePair(value, what: "[row, column]", expected: "a row and a column counted from 0 (whole numbers, not negative)") {
                $0 >= 0 && $1 >= 0
            }.map { TableCell(row: $0, column: $1) }
        case .cellHeader:
            if value.isNull { node.cellHeader = nil; return }
            guard let name = string(value) else { return }
            if let header = CellHeader(rawValue: name) {
                node.cellHeader = header
            } else {
                problem(unknownName(name, kind: "cell header", in: CellHeader.allCases.map(\.rawValue)))
            }
        case .landmark: node.landmark = value.isNull ? nil : named(value, kind: "landmark", Landmark.self)
        case .list: node.listSize = value.isNull ? nil : itemCount(value)
        case .live: node.live = value.isNull ? nil : named(value, kind: "live setting", LiveSetting.self)
        case .block: node.block = value.isNull ? nil : named(value, kind: "block", TextBlock.self)
        }
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
}
