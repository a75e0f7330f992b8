import NarratorBase

/// A change an app makes to its registered tree.
public enum TreeUpdate: Equatable, Sendable {
    /// Set properties of an element: a JSON object of node keys; `null` clears a property.
    case setProperties(element: String, properties: JSONValue)
    /// Replace an element's children with new nodes (a JSON array of nodes).
    case replaceChildren(element: String, children: JSONValue)
    /// Remove an element and its subtree.
    case remove(element: String)
    /// Replace the characters `range` covers in the element's value (a text field's text) with
    /// `text`: an insertion where the range is empty, a deletion where the text is. A caret in
    /// the value moves to the end of what was put in. What an editor sends as each key is typed:
    /// a few bytes, whatever the length of its document, and exactly what changed.
    case editText(element: String, range: TextRange, text: String)
    /// Move the caret (an empty range) or the selection in the element's value to `range`,
    /// `unit` saying what the move was by (Left, Ctrl+Right, Down): what an announced move says
    /// (the character, the word, the line; what a selection took in or gave back).
    case moveCaret(element: String, range: TextRange, unit: CaretMotion.Unit?)
    /// Set the tree's title (nil: none), naming its root as the element: a window renamed (a web
    /// page's title coming as it loads, or set by its script) is a few bytes, where registering
    /// the document again would send all of a page of 10,000 objects.
    case retitle(element: String, title: String?)

    /// The request's key that holds this update's payload, where its problems are said to be.
    public var payloadKey: String {
        switch self {
        case .setProperties: "set"
        case .replaceChildren: "children"
        case .remove: "remove"
        case .editText: "edit"
        case .moveCaret: "caret"
        case .retitle: "title"
        }
    }

    public var element: String {
        switch self {
        case .setProperties(let element, _), .replaceChildren(let element, _), .remove(let element), .editText(let element, _, _),
            .moveCaret(let element, _, _), .retitle(let element, _):
            element
        }
    }
}

extension AccessibilityTree {
    /// Applies an update. On error the tree is unchanged. `path` locates the payload in the
    /// request, for messages (e.g. `["children"]`).
    public mutating func apply(
        _ update: TreeUpdate, decoder: TreeDocumentDecoder = TreeDocumentDecoder(), path: [JSONPathComponent] = []
    ) throws(NarratorError) {
        guard let slot = slotByID[update.element] else {
            throw .unknownElement(
                tree: name, element: update.element, suggestion: Suggestion.nearest(to: update.element, in: slotByID.keys))
        }
        switch update {
        case .setProperties(_, let properties):
            let changed: Node
            do {
                changed = try decoder.applyProperties(properties, to: nodes[Int(slot)], at: path)
            } catch {
                throw .invalidDocument(error)
            }
            let keepsIndex = changed.indexesLike(nodes[Int(slot)], hasChildren: !childSlots[Int(slot)].isEmpty)
            nodes[Int(slot)] = changed
            // A label, value or hint changed (what an app's updates mostly are): the stops, frames
            // and scopes stay as they were, and rebuilding them would cost O(n) on a large tree.
            if keepsIndex { return }
        case .replaceChildren(_, let children):
            var depth = 1
            var up = parentSlot[Int(slot)]
            while up >= 0 { depth += 1; up = parentSlot[Int(up)] }
            let newNodes: [Node]
            do {
                let tree = self
                newNodes = try decoder.decodeNodes(children, at: path, depth: depth) { id in
                    guard let existing = tree.slotByID[id] else { return false }
                    return !tree.isInSubtree(existing, of: slot) || existing == slot
                }
            } catch {
                throw .invalidDocument(error)
            }
            if nodeCount - subtreeSize(slot) + 1 + newNodes.reduce(0, { $0 + $1.subtreeCount }) > decoder.limits.maxNodes {
                throw .invalidDocument(
                    .invalid([DocumentProblem(path: path.rendered, message: "the tree would exceed \(decoder.limits.maxNodes) nodes")]))
            }
            for child in childSlots[Int(slot)] { kill(child) }
            childSlots[Int(slot)] = []
            for child in newNodes {
                let childSlot = append(child, parent: slot)
                childSlots[Int(slot)].append(childSlot)
            }
        case .editText(_, let range, let text):
            nodes[Int(slot)] = try edited(nodes[Int(slot)], range: range, text: text, limit: decoder.limits.valueLimit, path: path)
            return
        case .moveCaret(_, let range, _):
            let count = (nodes[Int(slot)].value ?? "").unicodeScalars.count
            guard range.location + range.length <= count else {
                throw .invalidDocument(.invalid([DocumentProblem(
                    path: (path + [.key("range")]).rendered, message: "[\(range.location), \(range.length)] is outside the value's \(count) characters")]))
            }
            nodes[Int(slot)].selectedTextRange = range
            return
        case .retitle(_, let title):
            guard parentSlot[Int(slot)] < 0 else {
                throw .invalidDocument(.invalid([DocumentProblem(
                    path: path.rendered, message: "the title is the tree's: name its root element, not \"\(update.element)\"")]))
            }
            self.title = title
            return
        case .remove:
            let parent = parentSlot[Int(slot)]
            guard parent >= 0 else { throw .cannotRemoveRoot(tree: name) }
            childSlots[Int(parent)].removeAll { $0 == slot }
            kill(slot)
        }
        reindex()
    }

    /// Whether applying `update` rebuilds the reading order (O(n)): a subtree replaced or
    /// removed, or a property the order depends on set. False for an update that would fail:
    /// it fails as quickly wherever it is applied.
    public func rebuildsIndex(_ update: TreeUpdate, decoder: TreeDocumentDecoder) -> Bool {
        guard let slot = slotByID[update.element] else { return false }
        switch update {
        case .replaceChildren: return true
        case .remove: return parentSlot[Int(slot)] >= 0
        case .editText, .moveCaret, .retitle: return false
        case .setProperties(_, let properties):
            guard let changed = try? decoder.applyProperties(properties, to: nodes[Int(slot)], at: []) else { return false }
            return !changed.indexesLike(nodes[Int(slot)], hasChildren: !childSlots[Int(slot)].isEmpty)
        }
    }

    /// Marks a subtree dead and forgets its ids.
    private mutating func kill(_ slot: Slot) {
        var stack = [slot]
        while let next = stack.popLast() {
            guard alive[Int(next)] else { continue }
            alive[Int(next)] = false
            deadCount += 1
            if slotByID[nodes[Int(next)].id] == next { slotByID[nodes[Int(next)].id] = nil }
            stack.append(contentsOf: childSlots[Int(next)])
            childSlots[Int(next)] = []
            nodes[Int(next)] = Node(id: nodes[Int(next)].id)
        }
    }

    private func subtreeSize(_ slot: Slot) -> Int {
        var count = 0
        var stack = [slot]
        while let next = stack.popLast() {
            count += 1
            stack.append(contentsOf: childSlots[Int(next)])
        }
        return count
    }

    /// Rebuilds the storage without dead slots once they outweigh the live ones.
    /// Slots change, so callers holding positions must re-resolve them by id.
    public mutating func compactIfNeeded() {
        guard deadCount > 64, deadCount * 2 > nodes.count else { return }
        self = AccessibilityTree(document: document)
    }

    /// The slot that stands for the stop at `position` (stable across updates until compaction).
    func slot(ofStop position: Int) -> Slot { stops[position] }

    /// After an update: the stop nearest to where `oldStops[position]` was, searching outward
    /// (after before before, at equal distance) through the old reading order.
    func nearestSurvivingStop(oldStops: [Slot], position: Int) -> Int? {
        guard !oldStops.isEmpty else { return stops.isEmpty ? nil : 0 }
        for distance in 0..<oldStops.count {
            for candidate in distance == 0 ? [position] : [position + distance, position - distance] {
                guard candidate >= 0, candidate < oldStops.count else { continue }
                let slot = oldStops[candidate]
                if Int(slot) < alive.count, alive[Int(slot)], stopOfSlot[Int(slot)] >= 0 {
                    return Int(stopOfSlot[Int(slot)])
                }
            }
        }
        return stops.isEmpty ? nil : 0
    }
}

extension Node {
    /// Nodes in this subtree, itself included.
    public var subtreeCount: Int {
        // Indexed, not `reduce`d: iterating the array copied every child node.
        var count = 1
        for index in children.indices { count += children[index].subtreeCount }
        return count
    }
}

extension AccessibilityTree {
    /// `node` with `range` of its value replaced by `text`, and a caret or selection in the value
    /// moved to just after what was put in.
    func edited(_ node: Node, range: TextRange, text: String, limit: Int, path: [JSONPathComponent]) throws(NarratorError) -> Node {
        func refuse(_ message: String) -> NarratorError {
            .invalidDocument(.invalid([DocumentProblem(path: (path + [.key("range")]).rendered, message: message)]))
        }
        guard node.adjustable == nil, node.representation == nil else {
            throw refuse("element \"\(node.id)\" has a declarative value, not text; set it with \"set\"")
        }
        var scalars = Array((node.value ?? "").unicodeScalars)
        guard range.location + range.length <= scalars.count else {
            throw refuse("[\(range.location), \(range.length)] is outside the value's \(scalars.count) characters")
        }
        let inserted = Array(text.unicodeScalars)
        scalars.replaceSubrange(range.location..<(range.location + range.length), with: inserted)
        guard scalars.count <= limit else { throw refuse("the value would be \(scalars.count) characters, over the limit of \(limit)") }
        var changed = node
        var value = String.UnicodeScalarView()
        value.append(contentsOf: scalars)
        changed.value = value.isEmpty ? nil : String(value)
        if changed.selectedTextRange != nil { changed.selectedTextRange = TextRange(location: range.location + inserted.count, length: 0) }
        return changed
    }
}
