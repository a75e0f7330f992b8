import NarratorBase

/// The screen reader's view of the desktop: the registered trees and the one focus cursor.
///
/// Every navigation command is a pure state transition here; the daemon serializes calls and
/// turns outcomes into speech, replies and events for tree owners.
public struct Workspace: Sendable {
    public private(set) var trees: [String: AccessibilityTree] = [:]
    /// Where focus is, if anywhere.
    public private(set) var focus: Focus?
    /// The last focused element of each tree, so returning to a tree resumes where the user was.
    private var lastFocus: [String: String] = [:]
    /// The action picked with the actions rotor; `activate` performs it. Reset when focus moves.
    public private(set) var selectedAction: String?
    public var decoder: TreeDocumentDecoder
    /// How much each move says (the user's `verbosity` setting): brief leaves out hints and a table's size.
    public var verbosity: Verbosity = .verbose
    /// Each tree's revision: a number it gets anew at every change (register, update), never
    /// given twice, so that a tree changed off the loop from one revision is swapped in only if
    /// it is still at that revision (``update(tree:_:path:prepared:)``).
    private var revisions: [String: UInt64] = [:]
    private var nextRevision: UInt64 = 1

    public init(decoder: TreeDocumentDecoder = TreeDocumentDecoder()) { self.decoder = decoder }

    // MARK: Trees

    /// Registers a tree, replacing one of the same name. Returns whether one was replaced.
    /// Takes the document, so that its nodes move into the tree instead of being copied.
    @discardableResult
    public mutating func register(_ document: consuming TreeDocument) -> Bool {
        register(AccessibilityTree(document: document))
    }

    /// Registers a compiled tree (compiled elsewhere, perhaps on another thread), replacing one
    /// of the same name. Returns whether one was replaced.
    @discardableResult
    public mutating func register(_ tree: consuming AccessibilityTree) -> Bool {
        let name = tree.name
        let replaced = trees[name] != nil
        trees[name] = tree
        revise(name)
        if let focus, focus.tree == name, let registered = trees[name] {
            repairFocus(in: name, tree: registered, oldStops: [], oldPosition: 0)
        }
        return replaced
    }

    public mutating func unregister(_ name: String) throws(NarratorError) {
        _ = try tree(name)
        trees[name] = nil
        revisions[name] = nil
        lastFocus[name] = nil
        if focus?.tree == name {
            focus = nil
            selectedAction = nil
        }
    }

    /// The tree's current revision; nil when no tree has the name.
    public func revision(of name: String) -> UInt64? { revisions[name] }

    private mutating func revise(_ name: String) {
        revisions[name] = nextRevision
        nextRevision += 1
    }

    public func tree(_ name: String) throws(NarratorError) -> AccessibilityTree {
        guard let tree = trees[name] else {
            throw .unknownTree(name, suggestion: Suggestion.nearest(to: name, in: trees.keys))
        }
        return tree
    }

    /// The focus stops of a tree in reading order, with utterances and screen frames.
    public func stops(of name: String) throws(NarratorError) -> [StopSummary] {
        let tree = try tree(name)
        return (0..<tree.stopCount).map { StopSummary(id: tree.stopID(at: $0), utterance: tree.utterance(atStop: $0), frame: tree.stopFrame(at: $0)) }
    }

    // MARK: Focus moves

    /// Focuses an element by id (an id inside a combined element focuses that element), or,
    /// without an id, the tree's last focused element or its first stop.
    ///
    /// `titled`: the tree's title is said first even when the focus is in the tree already (a
    /// window showing a new page under a new title: entering the page as entering a window).
    /// `saying`: the words said instead of the element's (browse mode's line, word or character
    /// there), after the landmarks the move left and entered.
    public mutating func focus(tree name: String, element: String? = nil, titled: Bool = false, saying: String? = nil) throws(NarratorError) -> FocusOutcome {
        let tree = try tree(name)
        let position: Int
        if let element {
            position = try resolve(element, in: tree)
        } else if let last = lastFocus[name], case .stop(let p) = tree.lookup(last) {
            position = p
        } else {
            guard tree.stopCount > 0 else { throw .emptyTree(name) }
            position = 0
        }
        // Within the tree, the landmarks left and entered are said first (Tab into a page's
        // navigation, Control+Home out of it), as for any move.
        var from: Int?
        if let focus, focus.tree == name, case .stop(let here) = tree.lookup(focus.element) { from = here }
        var outcome = moveFocus(to: position, in: tree, titled: titled)
        if let saying { outcome.say(instead: saying, hint: nil) }
        introduce(&outcome, at: position, from: from, in: tree)
        return outcome
    }

    public enum Move: String, Sendable, CaseIterable { case next, previous, first, last }

    /// Moves through the focused tree's stops (or `tree`'s, when given). At either end focus
    /// stays and the outcome reports a boundary.
    public mutating func move(_ move: Move, tree name: String? = nil) throws(NarratorError) -> FocusOutcome {
        let (tree, current) = try cursor(in: name)
        guard tree.stopCount > 0 else { throw .emptyTree(tree.name) }
        let target: Int
        switch move {
        case .first: target = 0
        case .last: target = tree.stopCount - 1
        case .next: target = current.map { $0 + 1 } ?? 0
        case .previous: target = current.map { $0 - 1 } ?? tree.stopCount - 1
        }
        // Out of range only from a stop (without one, each move has a target): focus stays there.
        if let current, target < 0 || target >= tree.stopCount {
            return boundary(in: tree, at: current)
        }
        let from = focus?.tree == tree.name ? current : nil
        var outcome = moveFocus(to: target, in: tree)
        introduce(&outcome, at: target, from: from, in: tree)
        return outcome
    }

    /// Focuses the deepest stop at a screen point in the focused tree (or `tree`).
    public mutating func touch(x: Double, y: Double, tree name: String? = nil) throws(NarratorError) -> FocusOutcome {
        let (tree, _) = try cursor(in: name)
        guard let position = tree.hitTest(Point(x: x, y: y)) else { throw .noTarget(x: x, y: y, tree: tree.name) }
        return moveFocus(to: position, in: tree)
    }

    // MARK: Acting on the focus

    /// Activates the focused element (or performs the action picked with the actions rotor).
    public mutating func activate() throws(NarratorError) -> OwnerAction {
        let (focus, tree, position) = try focused()
        if let selectedAction {
            return OwnerAction(tree: focus.tree, element: focus.element, action: selectedAction)
        }
        return OwnerAction(
            tree: focus.tree, element: focus.element, action: "activate", point: tree.activationPoint(atStop: position))
    }

    /// Increments or decrements the focused element. A declarative value changes here, within
    /// its bounds; any other adjustable element is delegated to its app.
    public mutating func adjust(_ direction: AdjustableValue.Direction) throws(NarratorError) -> AdjustOutcome {
        let (focus, slot, node, decimalSeparator) = try { () throws(NarratorError) in
            let (focus, tree, position) = try focused()
            let slot = tree.slot(ofStop: position)
            return (focus, slot, tree.nodes[Int(slot)], tree.phrases.decimalSeparator)
        }()
        guard let current = node.declarativeAdjustable else {
            guard node.effectiveTraits.contains(.adjustable) else {
                throw .notAdjustable(tree: focus.tree, element: focus.element)
            }
            return .delegated(OwnerAction(tree: focus.tree, element: focus.element, action: direction.actionName))
        }
        let next = current.adjusted(direction)
        // Modify in place: the tree may hold a million nodes, and a copy would cost them all.
        if node.representation?.adjustable != nil {
            trees[focus.tree]?.nodes[Int(slot)].representation?.adjustable = next
        } else {
            trees[focus.tree]?.nodes[Int(slot)].adjustable = next
        }
        let spoken = next.spoken(decimalSeparator: decimalSeparator)
        return .changed(focus: focus, value: next.value, spoken: spoken, atBound: next.value == current.value)
    }

    /// The custom actions of the focused element.
    public func actions() throws(NarratorError) -> [String] {
        let (_, tree, position) = try focused()
        return tree.actions(atStop: position)
    }

    /// Performs a named custom action of the focused element.
    public func perform(action name: String) throws(NarratorError) -> OwnerAction {
        let (focus, tree, position) = try focused()
        let available = tree.actions(atStop: position)
        guard !available.isEmpty else { throw .noActions(tree: focus.tree, element: focus.element) }
        guard available.contains(name) else {
            throw .unknownAction(name, tree: focus.tree, element: focus.element, available: available)
        }
        return OwnerAction(tree: focus.tree, element: focus.element, action: name)
    }

    public enum RoutedAction: String, Sendable { case magicTap, escape }

    /// Magic tap or escape: routed to the nearest element, from the focus up, that handles it.
    public func route(_ action: RoutedAction) throws(NarratorError) -> OwnerAction {
        let (focus, tree, position) = try focused()
        for slot in tree.ancestry(ofStop: position) {
            let node = tree.nodes[Int(slot)]
            if action == .magicTap ? node.magicTap : node.escape {
                return OwnerAction(tree: focus.tree, element: node.id, action: action.rawValue)
            }
        }
        throw .noHandler(action: action == .magicTap ? "magic tap" : "escape", tree: focus.tree, element: focus.element)
    }

    // MARK: Rotors

    /// The rotors available at the focus: headings and links when the tree has any, its form
    /// controls when it has a field to fill in (a web page's form), the focused element's
    /// actions, and the tree's custom rotors. (The links by visit are listed once one was visited:
    /// before, they are the links again; ``rotor(_:_:within:)`` turns them all the same.)
    public func rotors(tree name: String? = nil) throws(NarratorError) -> [RotorSummary] {
        try rotors(tree: name, listingEvery: false)
    }

    func rotors(tree name: String?, listingEvery: Bool) throws(NarratorError) -> [RotorSummary] {
        let (tree, current) = try cursor(in: name)
        var rotors: [RotorSummary] = []
        let headings = tree.stopIDs(withTrait: .header)
        if !headings.isEmpty { rotors.append(RotorSummary(name: "headings", kind: .headings, items: headings)) }
        let links = tree.stopIDs(withTrait: .link)
        if !links.isEmpty { rotors.append(RotorSummary(name: "links", kind: .links, items: links)) }
        let controls = tree.formControlIDs()
        if !controls.isEmpty { rotors.append(RotorSummary(name: "controls", kind: .controls, items: controls)) }
        for (name, items) in tree.structureIDs() + tree.regionRotorIDs(linksByVisit: listingEvery) where !items.isEmpty {
            rotors.append(RotorSummary(name: name, kind: .structure, items: items))
        }
        if let current {
            let actions = tree.actions(atStop: current)
            if !actions.isEmpty { rotors.append(RotorSummary(name: "actions", kind: .actions, items: actions)) }
        }
        for rotor in tree.customRotors() {
            rotors.append(RotorSummary(name: rotor.name, kind: .custom, items: rotor.targets))
        }
        return rotors
    }

    /// Turns a rotor: moves focus to the next or previous target after the focus in reading
    /// order, or, for the actions rotor, picks the next or previous action. With `within`, only
    /// the targets inside that element count (none there: as if the rotor had none).
    public mutating func rotor(_ name: String, _ direction: Move, within: String? = nil) throws(NarratorError) -> RotorOutcome {
        let available = try rotors(tree: nil, listingEvery: true)
        guard let rotor = available.first(where: { $0.name == name }) else {
            throw .unknownRotor(name, available: try rotors().map(\.name))
        }
        let (tree, current) = try cursor(in: nil)
        if rotor.kind == .actions {
            let (focus, _, _) = try focused()
            let items = rotor.items
            let index = selectedAction.flatMap { items.firstIndex(of: $0) }
            let next: Int
            switch direction {
            case .next: next = index.map { ($0 + 1) % items.count } ?? 0
            case .previous: next = index.map { ($0 + items.count - 1) % items.count } ?? items.count - 1
            case .first: next = 0
            case .last: next = items.count - 1
            }
            selectedAction = items[next]
            return .selectedAction(name: items[next], focus: focus)
        }
        let positions = rotor.items.compactMap { id -> Int? in
            guard case .stop(let p) = tree.lookup(id), within.map({ tree.isStop(p, inside: $0) }) ?? true else { return nil }
            return p
        }.sorted()
        guard !positions.isEmpty else { throw .unknownRotor(name, available: try rotors().map(\.name)) }
        let here = current ?? -1
        let target: Int?
        switch direction {
        case .next: target = positions.first { $0 > here }
        case .previous: target = current == nil ? positions.last : positions.last { $0 < here }
        case .first: target = positions.first
        case .last: target = positions.last
        }
        guard let target else {
            guard let current else { throw .emptyTree(tree.name) }
            // Past its last (or first) target the rotor goes round and says so, as Orca's
            // structural navigation does: silence at the end would tell the user nothing. With
            // one target, already focused, it goes round to that one and says it again.
            let round = direction == .next ? positions.first : direction == .previous ? positions.last : nil
            guard let round else { return .moved(boundary(in: tree, at: current)) }
            var outcome = moveFocus(to: round, in: tree)
            introduce(&outcome, at: round, from: current, in: tree, rotor: name)
            outcome.wrap(saying: tree.phrases[direction == .next ? .wrappedToTop : .wrappedToBottom])
            return .moved(outcome)
        }
        var outcome = moveFocus(to: target, in: tree)
        // A table is reached at its first cell, said after the table's name and size (a list,
        // after its size), and the landmarks entered and left before them.
        introduce(&outcome, at: target, from: current, in: tree, rotor: name)
        return .moved(outcome)
    }

    // MARK: Updates

    /// Applies an app's update to its tree. When the focused element disappears (or becomes
    /// hidden), focus moves to the nearest remaining stop and the new focus is returned.
    ///
    /// `prepared` is the tree with the update already applied (off the loop, the session's `PreparedUpdate`):
    /// it is swapped in if the tree is still at the revision it was made from, and the update is
    /// applied here otherwise.
    public mutating func update(
        tree name: String, _ update: TreeUpdate, path: [JSONPathComponent] = [], prepared: PreparedTree? = nil
    ) throws(NarratorError) -> FocusOutcome? {
        _ = try tree(name)
        // Take the tree out while it changes, so that it is not copied.
        guard var tree = trees.removeValue(forKey: name) else { throw .unknownTree(name, suggestion: nil) }
        defer { trees[name] = tree }
        var oldStops: [AccessibilityTree.Slot] = []
        var oldPosition = 0
        var focusLost = false
        if let focus, focus.tree == name, case .stop(let position) = tree.lookup(focus.element) {
            oldStops = tree.stops
            oldPosition = position
        }
        if let prepared, prepared.revision == revisions[name] {
            tree = prepared.tree
        } else {
            try tree.apply(update, decoder: decoder, path: path)
        }
        revise(name)
        if let focus, focus.tree == name {
            if case .stop(let position) = tree.lookup(focus.element), tree.stopID(at: position) == focus.element {
                focusLost = false
            } else {
                focusLost = true
            }
        }
        var outcome: FocusOutcome?
        if focusLost { outcome = repairFocus(in: name, tree: tree, oldStops: oldStops, oldPosition: oldPosition) }
        // After the repair, which finds the old stops by their slots; compacting renumbers them.
        tree.compactIfNeeded()
        return outcome
    }

    @discardableResult
    private mutating func repairFocus(
        in name: String, tree: AccessibilityTree, oldStops: [AccessibilityTree.Slot], oldPosition: Int
    ) -> FocusOutcome? {
        if let focus, case .stop(let position) = tree.lookup(focus.element), oldStops.isEmpty {
            self.focus = Focus(tree: name, element: tree.stopID(at: position))
            return nil
        }
        guard let position = tree.nearestSurvivingStop(oldStops: oldStops, position: oldPosition) else {
            focus = nil
            selectedAction = nil
            return nil
        }
        return moveFocus(to: position, in: tree, speaksTitle: false)
    }

    // MARK: Helpers

    private func resolve(_ element: String, in tree: AccessibilityTree) throws(NarratorError) -> Int {
        switch tree.lookup(element) {
        case .stop(let position): return position
        case .unknown:
            throw .unknownElement(tree: tree.name, element: element, suggestion: Suggestion.nearest(to: element, in: tree.ids))
        case .hidden: throw .hiddenElement(tree: tree.name, element: element)
        case .outsideModal(let modal): throw .outsideModal(tree: tree.name, element: element, modal: modal)
        case .noStop: throw .notFocusable(tree: tree.name, element: element)
        }
    }

    /// The tree to navigate (given, or the focused one) and the focus position in it, if any.
    func cursor(in name: String?) throws(NarratorError) -> (AccessibilityTree, Int?) {
        if let name, name != focus?.tree {
            let tree = try tree(name)
            if let last = lastFocus[name], case .stop(let p) = tree.lookup(last) { return (tree, p) }
            return (tree, nil)
        }
        guard let focus else { throw .noFocus }
        let tree = try tree(focus.tree)
        if case .stop(let position) = tree.lookup(focus.element) { return (tree, position) }
        return (tree, nil)
    }

    func focused() throws(NarratorError) -> (Focus, AccessibilityTree, Int) {
        guard let focus else { throw .noFocus }
        let tree = try tree(focus.tree)
        guard case .stop(let position) = tree.lookup(focus.element) else { throw .noFocus }
        return (focus, tree, position)
    }

    mutating func moveFocus(to position: Int, in tree: AccessibilityTree, speaksTitle: Bool = true, titled: Bool = false) -> FocusOutcome {
        let entering = focus?.tree != tree.name
        let target = Focus(tree: tree.name, element: tree.stopID(at: position))
        if target != focus { selectedAction = nil }
        focus = target
        lastFocus[tree.name] = target.element
        let title = (entering && speaksTitle) || titled ? tree.title : nil
        let (utterance, spokenText) = tree.utterance(atStop: position, enteringWithTitle: title, verbosity: verbosity)
        return FocusOutcome(focus: target, utterance: utterance, title: title, spokenText: spokenText, boundary: false)
    }

    mutating func boundary(in tree: AccessibilityTree, at position: Int) -> FocusOutcome {
        let target = Focus(tree: tree.name, element: tree.stopID(at: position))
        focus = target
        lastFocus[tree.name] = target.element
        return FocusOutcome(focus: target, utterance: tree.utterance(atStop: position, verbosity: verbosity), title: nil, boundary: true)
    }
}

extension AccessibilityTree {
    /// Ids of the stops that carry a trait, in reading order (the headings and links rotors).
    func stopIDs(withTrait trait: Trait) -> [String] {
        stops.compactMap { nodes[Int($0)].effectiveTraits.contains(trait) ? nodes[Int($0)].id : nil }
    }

    /// The stops a form is filled in with (fields, check boxes, radio buttons, combo boxes,
    /// sliders, and the buttons among them), when there is a field at all: none otherwise.
    func formControlIDs() -> [String] {
        let fields = Traits([.textField, .searchField, .checkBox, .radioButton, .comboBox])
        let controls = fields.union(Traits([.adjustable, .button, .toggle]))
        guard stops.contains(where: { !nodes[Int($0)].effectiveTraits.intersection(fields).isEmpty }) else { return [] }
        return stops.compactMap { nodes[Int($0)].effectiveTraits.intersection(controls).isEmpty ? nil : nodes[Int($0)].id }
    }

    /// The stops of each kind a screen reader's structural keys jump between, by rotor name:
    /// buttons, fields, check boxes, radio buttons, combo boxes, images, list items, and the
    /// headings of each level (`headings-2`). One pass over the stops.
    func structureIDs() -> [(name: String, items: [String])] {
        let kinds: [(String, Traits)] = [
            ("buttons", Traits([.button])), ("text-fields", Traits([.textField, .searchField])), ("check-boxes", Traits([.checkBox])),
            ("radio-buttons", Traits([.radioButton])), ("combo-boxes", Traits([.comboBox])), ("images", Traits([.image])),
        ]
        var found = Array(repeating: [String](), count: kinds.count)
        var levels = Array(repeating: [String](), count: 6)
        for stop in stops {
            let node = nodes[Int(stop)]
            let traits = node.effectiveTraits
            for (index, kind) in kinds.enumerated() where !traits.intersection(kind.1).isEmpty { found[index].append(node.id) }
            if traits.contains(.header), let level = node.headingLevel, (1...6).contains(level) { levels[level - 1].append(node.id) }
        }
        return zip(kinds, found).map { ($0.0.0, $0.1) } + levels.enumerated().map { ("headings-\($0.offset + 1)", $0.element) }
            + [("list-items", listItemSlots.map { nodes[Int($0)].id }),
               ("tables", tableSlots.compactMap { firstCellStop(ofTable: $0).map { nodes[Int(stops[$0])].id } })]
    }

    /// The custom rotors of every visible node, in document order (indexed at reindex, so a
    /// rotor command does not walk a million nodes).
    func customRotors() -> [CustomRotor] {
        rotorSlots.flatMap { nodes[Int($0)].rotors }
    }
}

extension Workspace {
    /// A tree with an update already applied to a copy of it, and the revision of the tree it
    /// was applied to: swapped in by ``update(tree:_:path:prepared:)`` only if the tree is still
    /// at that revision.
    public struct PreparedTree: Sendable {
        public let tree: AccessibilityTree
        public let revision: UInt64

        public init(tree: AccessibilityTree, revision: UInt64) {
            self.tree = tree
            self.revision = revision
        }
    }
}
