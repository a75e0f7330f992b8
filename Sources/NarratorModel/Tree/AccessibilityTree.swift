/// A registered tree compiled for navigation: nodes in flat arrays, indexed by id, with the
/// focus stops in reading order and every frame converted to screen space.
///
/// The flat layout keeps a million-element tree compact and makes every lookup O(1);
/// the derived index is rebuilt (O(n)) after each update.
public struct AccessibilityTree: Sendable {
    package typealias Slot = Int32

    public let name: String
    public var title: String?
    public var language: String?
    /// Audit rules the document switched off.
    public var auditIgnore: [AuditRule]

    /// Node properties by slot. `children` is always empty here: structure is in `childSlots`.
    package var nodes: [Node] = []
    var childSlots: [[Slot]] = []
    var parentSlot: [Slot] = []
    var alive: [Bool] = []
    var deadCount = 0
    var slotByID: [String: Slot] = [:]
    let rootSlot: Slot = 0

    // Derived by `reindex()`.
    /// Focus stops (slots) in reading order.
    package private(set) var stops: [Slot] = []
    /// The tree depth of each stop, for hit testing.
    package private(set) var stopDepths: [Int32] = []
    /// For each slot, the position in `stops` of the stop that speaks for it (itself, or the
    /// combine/ignore element that contains it); -1 when hidden or outside the modal scope.
    private(set) var stopOfSlot: [Int32] = []
    /// Screen-space frame of each slot (nil when the node has no frame).
    private(set) var screenFrames: [Rect?] = []
    /// Whether each slot is hidden, by itself or by an ancestor.
    private(set) var hiddenSlots: [Bool] = []
    /// The modal node that confines navigation, if one is present.
    package private(set) var modalSlot: Slot?
    /// Visible nodes that define custom rotors, in document order.
    package private(set) var rotorSlots: [Slot] = []
    /// Visible tables, in document order (the tables rotor's, indexed so a rotor command does not walk every node).
    package private(set) var tableSlots: [Slot] = []
    /// Visible landmarks, lists, live regions and blocks of text, in document order (the structure rotors' that reach a region).
    package private(set) var regionSlots: [Slot] = []
    /// Visible list items, in document order: the list items rotor's, each reached at its first
    /// stop (an item holding only a link is no stop of its own; the link is).
    package private(set) var listItemSlots: [Slot] = []

    /// Takes the document: its nodes are moved into the flat storage rather than copied, so
    /// pass the last use of a document to spare copying every node (and peak memory).
    public init(document: consuming TreeDocument) {
        name = document.name
        title = document.title
        language = document.language
        auditIgnore = document.auditIgnore
        // The decoder's index already maps each id to the slot `append` gives it (both count
        // nodes in pre-order), one entry per node; it is nil when the document was built or
        // changed otherwise (`TreeDocument.root` drops it), and then the nodes are counted.
        let index = document.idIndex.take()
        assert(index.map { $0.count == document.root.subtreeCount } ?? true, "a stale id index")
        let count = index?.count ?? document.root.subtreeCount
        nodes.reserveCapacity(count)
        childSlots.reserveCapacity(count)
        parentSlot.reserveCapacity(count)
        alive.reserveCapacity(count)
        if let index {
            slotByID = index
        } else {
            slotByID.reserveCapacity(count)
        }
        let indexIDs = slotByID.isEmpty
        _ = append(document.root, parent: -1, indexIDs: indexIDs)
        reindex()
    }

    /// Appends a subtree in pre-order and returns the slot of its root.
    ///
    /// Each node is moved, not copied: its children are taken out of it and popped off their
    /// array (last first, so that the stack yields them first first). When the caller owns the
    /// only copy of the subtree, no node is copied and each child array is freed as it empties.
    mutating func append(_ node: consuming Node, parent: Slot, indexIDs: Bool = true) -> Slot {
        var stack: [(node: Node, parent: Slot)] = [(node, parent)]
        var first: Slot = -1
        while case (var node, let parent)? = stack.popLast() {
            let slot = Slot(nodes.count)
            if first < 0 { first = slot }
            var children: [Node] = []
            swap(&children, &node.children)
            if indexIDs { slotByID[node.id] = slot }
            nodes.append(consume node)
            var kids: [Slot] = []
            kids.reserveCapacity(children.count)
            childSlots.append(kids)
            parentSlot.append(parent)
            alive.append(true)
            if parent >= 0 && slot != first { childSlots[Int(parent)].append(slot) }
            while let child = children.popLast() { stack.append((child, slot)) }
        }
        return first
    }

    // MARK: Reading order

    /// Rebuilds stops, screen frames and the modal scope from the nodes.
    mutating func reindex() {
        let count = nodes.count
        var frames = [Rect?](repeating: nil, count: count)
        var hidden = [Bool](repeating: false, count: count)
        var modal: Slot?
        var rotorSlots: [Slot] = []
        var tableSlots: [Slot] = []
        var regionSlots: [Slot] = []
        var listItemSlots: [Slot] = []
        // Pass 1, document order: screen frames, hidden flags, the last present modal node.
        var stack: [(slot: Slot, origin: Point, hidden: Bool)] = [(rootSlot, Point(x: 0, y: 0), false)]
        while let (slot, origin, hiddenAbove) = stack.popLast() {
            // Fields are read in place: copying the node retained each of its strings.
            let frame = nodes[Int(slot)].frame?.offset(by: origin)
            frames[Int(slot)] = frame
            let isHidden = hiddenAbove || nodes[Int(slot)].hidden
            hidden[Int(slot)] = isHidden
            if nodes[Int(slot)].modal && !isHidden { modal = slot }
            if !isHidden && !nodes[Int(slot)].rotors.isEmpty { rotorSlots.append(slot) }
            if !isHidden && nodes[Int(slot)].table != nil { tableSlots.append(slot) }
            if !isHidden && nodes[Int(slot)].isPageRegion { regionSlots.append(slot) }
            if !isHidden && nodes[Int(slot)].traits.contains(.listItem) { listItemSlots.append(slot) }
            let childOrigin = frame?.origin ?? origin
            for child in childSlots[Int(slot)].reversed() { stack.append((child, childOrigin, isHidden)) }
        }
        // Pass 2, reading order from the scope root: the focus stops.
        var stops: [Slot] = []
        var depths: [Int32] = []
        var stopOf = [Int32](repeating: -1, count: count)
        var walk: [(slot: Slot, inherited: Int32, depth: Int32)] = [(modal ?? rootSlot, -1, 1)]
        while let (slot, inherited, depth) = walk.popLast() {
            if nodes[Int(slot)].hidden { continue }
            let kids = childSlots[Int(slot)]
            if inherited >= 0 {
                stopOf[Int(slot)] = inherited
                for child in kids { walk.append((child, inherited, depth + 1)) }
            } else if nodes[Int(slot)].isAccessibilityElement(hasChildren: !kids.isEmpty) {
                let position = Int32(stops.count)
                stops.append(slot)
                depths.append(depth)
                stopOf[Int(slot)] = position
                for child in kids { walk.append((child, position, depth + 1)) }
            } else {
                for child in orderedChildren(slot).reversed() { walk.append((child, -1, depth + 1)) }
            }
        }
        self.stops = stops
        self.stopDepths = depths
        self.stopOfSlot = stopOf
        self.screenFrames = frames
        self.hiddenSlots = hidden
        self.modalSlot = modal
        self.rotorSlots = rotorSlots
        self.tableSlots = tableSlots
        self.regionSlots = regionSlots
        self.listItemSlots = listItemSlots
    }

    /// Children in reading order: higher `sortPriority` first, document order for ties.
    func orderedChildren(_ slot: Slot) -> [Slot] {
        let kids = childSlots[Int(slot)]
        guard kids.count > 1 else { return kids }
        let first = nodes[Int(kids[0])].sortPriority
        guard kids.contains(where: { nodes[Int($0)].sortPriority != first }) else { return kids }
        return kids.enumerated().sorted { a, b in
            let pa = nodes[Int(a.element)].sortPriority, pb = nodes[Int(b.element)].sortPriority
            return pa != pb ? pa > pb : a.offset < b.offset
        }.map(\.element)
    }

    /// Live descendants of `slot` in reading order (hidden ones skipped), not including itself.
    func descendantsInReadingOrder(of slot: Slot) -> [Slot] {
        var result: [Slot] = []
        var walk = orderedChildren(slot).reversed().map { $0 }
        while let next = walk.popLast() {
            if nodes[Int(next)].hidden { continue }
            result.append(next)
            walk.append(contentsOf: orderedChildren(next).reversed())
        }
        return result
    }

    // MARK: Queries

    /// Number of nodes in the tree (hidden ones included).
    public var nodeCount: Int { nodes.count - deadCount }
    /// Number of focus stops.
    public var stopCount: Int { stops.count }

    /// The node with `id` (its `children` empty; see `document` for the whole tree).
    public func node(_ id: String) -> Node? {
        slotByID[id].map { nodes[Int($0)] }
    }

    public func contains(_ id: String) -> Bool { slotByID[id] != nil }

    /// All element ids, for "did you mean" suggestions.
    public var ids: Dictionary<String, Int32>.Keys { slotByID.keys }

    /// The id of the stop at a reading-order position.
    public func stopID(at position: Int) -> String { nodes[Int(stops[position])].id }

    /// Where focus lands for `id`, or why it cannot.
    public enum StopLookup: Equatable, Sendable {
        /// The position of the stop in reading order (the element itself or the element containing it).
        case stop(Int)
        case unknown
        /// The node or one of its ancestors is hidden.
        case hidden
        /// A modal node is present and this node is outside it.
        case outsideModal(modal: String)
        /// Neither an element nor a container of any.
        case noStop
    }

    public func lookup(_ id: String) -> StopLookup {
        guard let slot = slotByID[id] else { return .unknown }
        if hiddenSlots[Int(slot)] { return .hidden }
        let position = stopOfSlot[Int(slot)]
        if position >= 0 { return .stop(Int(position)) }
        // A container: its first stop in reading order.
        for descendant in descendantsInReadingOrder(of: slot) where stopOfSlot[Int(descendant)] >= 0 {
            return .stop(Int(stopOfSlot[Int(descendant)]))
        }
        if let modalSlot, !isInSubtree(slot, of: modalSlot) {
            return .outsideModal(modal: nodes[Int(modalSlot)].id)
        }
        return .noStop
    }

    /// The screen-space frame of a node.
    public func screenFrame(_ id: String) -> Rect? {
        slotByID[id].flatMap { screenFrames[Int($0)] }
    }

    /// The screen frame of the stop at a position.
    public func stopFrame(at position: Int) -> Rect? { screenFrames[Int(stops[position])] }

    /// Where a tap activates the stop at a position, in screen coordinates: the element's
    /// activation point (given in its own space) or the centre of its frame; nil without a frame.
    public func activationPoint(atStop position: Int) -> Point? {
        let slot = stops[position]
        guard let frame = screenFrames[Int(slot)] else { return nil }
        guard let point = nodes[Int(slot)].activationPoint else { return frame.center }
        return Point(x: frame.x + point.x, y: frame.y + point.y)
    }

    /// Whether the stop at `position` is the element `id` or inside it.
    package func isStop(_ position: Int, inside id: String) -> Bool {
        guard let ancestor = slotByID[id] else { return false }
        return isInSubtree(stops[position], of: ancestor)
    }

    func isInSubtree(_ slot: Slot, of ancestor: Slot) -> Bool {
        var current = slot
        while current >= 0 {
            if current == ancestor { return true }
            current = parentSlot[Int(current)]
        }
        return false
    }

    /// The chain from the stop at `position` up to the root: the element first.
    func ancestry(ofStop position: Int) -> [Slot] {
        var chain: [Slot] = []
        var current = stops[position]
        while current >= 0 {
            chain.append(current)
            current = parentSlot[Int(current)]
        }
        return chain
    }

    /// The deepest stop whose screen frame contains `point` (the last one in reading order among
    /// equally deep stops, as it is drawn on top).
    public func hitTest(_ point: Point) -> Int? {
        var best: (position: Int, depth: Int32)?
        for (position, slot) in stops.enumerated() {
            guard let frame = screenFrames[Int(slot)], frame.contains(point) else { continue }
            let depth = stopDepths[position]
            if depth >= best?.depth ?? depth { best = (position, depth) }
        }
        return best?.position
    }

    /// The whole tree as a document again.
    public var document: TreeDocument {
        func build(_ slot: Slot) -> Node {
            var node = nodes[Int(slot)]
            node.children = childSlots[Int(slot)].map(build)
            return node
        }
        return TreeDocument(name: name, title: title, language: language, root: build(rootSlot), auditIgnore: auditIgnore)
    }
}
