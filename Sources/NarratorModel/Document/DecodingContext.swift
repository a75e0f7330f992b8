import NarratorBase

/// The mutable state of one decoding pass.
struct DecodingContext {
    let limits: DocumentLimits
    var path: [JSONPathComponent]
    var problems: [DocumentProblem] = []
    /// A cell was decoded: the document is checked for cells outside their tables (``Node/tableProblems(at:)``).
    var holdsCells = false
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
            if member.key == "root" {
                hasRoot = true
                if let root = node(member.value, depth: 1) { document.root = root }
            } else {
                if member.key == "tree" { hasTree = true }
                documentField(member.key, member.value, into: &document)
            }
        }
        if !hasTree { problem("missing \"tree\" (the tree's name)") }
        if !hasRoot { problem("missing \"root\" (the root node)") }
        return document
    }

    /// Reads one top-level member other than `root` (which the value-tree walk and the direct
    /// decoder each read their own way) into `document`.
    mutating func documentField(_ key: String, _ value: JSONValue, into document: inout TreeDocument) {
        switch key {
        case "version":
            if let v = number(value), v != Double(NarratorVersion.treeFormat) {
                problem("unsupported format version \(JSONWriter.format(v)); this build reads version \(NarratorVersion.treeFormat)")
            }
        case "tree":
            if let name = identifier(value, what: "tree name") { document.name = name }
        case "title": document.title = optionalString(value)
        case "language":
            document.language = optionalString(value)
            if let tag = document.language, !Self.isLanguageTag(tag) {
                problem("\"\(tag)\" is not a language tag such as \"en\" or \"de-DE\"")
            }
        case "audit": document.auditIgnore = auditSettings(value)
        default:
            problem("unknown key" + Suggestion.hint(for: key, in: TreeDocumentDecoder.documentKeys))
        }
    }

    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }
    }
}
