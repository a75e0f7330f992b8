import NarratorModel

/// One accessible object of a desktop application as read from AT-SPI2, with its subtree: the
/// facts Narrator's mirror of the application is made from (``ATSPIMapping``). Plain values, so
/// that the mapping is pure and tested without a desktop; the AT-SPI bridge fills them in.
public struct AccessibleSnapshot: Equatable, Sendable {
    /// Its D-Bus object path in its application ("/org/a11y/atspi/accessible/12"): unique there,
    /// and stable while the object lives.
    public var path: String
    public var role: ATSPIRole
    public var name: String
    public var description: String
    public var states: ATSPIStates
    /// In screen coordinates; nil where the toolkit reports none (a hidden GTK widget reports
    /// x = y = -2147483648).
    public var extents: Rect?
    /// The Action interface's action names, in order ("click", "press", "activate", "Toggle").
    public var actions: [String]
    /// The Value interface, for sliders, spin buttons, scroll bars and progress bars.
    public var value: ATSPIValue?
    /// An editable text's contents (the Text interface).
    public var text: String?
    /// The selected part of `text`, in characters.
    public var selection: TextRange?
    /// Its place among its list's rows, for a row read alone (its list manages its descendants,
    /// so the mirror holds only some of them).
    public var position: SetPosition?
    /// The paths of the objects that label this one (its `labelled-by` relation).
    public var labelledBy: [String]
    /// A text field's `placeholder-text` attribute ("Search"), its label when it has no other.
    public var placeholder: String?
    /// A heading's `level` attribute (a web page's h2 is 2).
    public var level: Int?
    /// The ARIA roles a web page gave the object (Gecko's `xml-roles` attribute: "navigation"),
    /// which tell one landmark from another.
    public var xmlRoles: String?
    /// A live region's `live` attribute ("polite", "assertive").
    public var live: String?
    public var children: [AccessibleSnapshot]

    public init(
        path: String, role: ATSPIRole, name: String = "", description: String = "", states: ATSPIStates = [.enabled, .sensitive, .showing, .visible],
        extents: Rect? = nil, actions: [String] = [], value: ATSPIValue? = nil, text: String? = nil, labelledBy: [String] = [],
        placeholder: String? = nil, children: [AccessibleSnapshot] = []
    ) {
        self.path = path
        self.role = role
        self.name = name
        self.description = description
        self.states = states
        self.extents = extents
        self.actions = actions
        self.value = value
        self.text = text
        self.labelledBy = labelledBy
        self.placeholder = placeholder
        self.children = children
    }
}

extension AccessibleSnapshot {
    /// The tree with each list that manages its own descendants given the rows the application
    /// made active (`descendants`, by the list's path, in the list's order) as its children: a
    /// 10,000-row list is mirrored as the rows the user has been on, each read as it became
    /// active, not as 10,000 rows.
    public func grafting(_ descendants: [String: [AccessibleSnapshot]]) -> AccessibleSnapshot {
        guard !descendants.isEmpty else { return self }
        var copy = self
        if states.contains(.managesDescendants), let rows = descendants[path] {
            copy.children = rows
        } else {
            copy.children = children.map { $0.grafting(descendants) }
        }
        return copy
    }

    /// The tree with the object at `path` given `object`'s own facts (its children stay): an
    /// object read again alone after an event that changed only it.
    public func replacing(_ path: String, with object: AccessibleSnapshot) -> AccessibleSnapshot {
        if self.path == path {
            var replaced = object
            replaced.children = children
            return replaced
        }
        var copy = self
        copy.children = children.map { $0.replacing(path, with: object) }
        return copy
    }

    /// The tree with the object at `path` and everything under it given as `subtree`: a part
    /// whose children changed (a web page's script rewrote it), read again alone.
    public func replacingSubtree(_ path: String, with subtree: AccessibleSnapshot) -> AccessibleSnapshot {
        if self.path == path { return subtree }
        var copy = self
        copy.children = children.map { $0.replacingSubtree(path, with: subtree) }
        return copy
    }

    /// Every object path of this tree.
    public var paths: Set<String> {
        var all: Set<String> = []
        func visit(_ node: AccessibleSnapshot) {
            all.insert(node.path)
            for child in node.children { visit(child) }
        }
        visit(self)
        return all
    }

    /// The text of every object of this tree (nil for one without), by path.
    public var texts: [String: String?] {
        var all: [String: String?] = [:]
        func visit(_ node: AccessibleSnapshot) {
            all[node.path] = .some(node.text)
            for child in node.children { visit(child) }
        }
        visit(self)
        return all
    }

    /// The first object of this tree, in reading order, that `matches`.
    public func first(where matches: (AccessibleSnapshot) -> Bool) -> AccessibleSnapshot? {
        if matches(self) { return self }
        for child in children {
            if let found = child.first(where: matches) { return found }
        }
        return nil
    }

    /// The object at `path` in this tree.
    public func object(at path: String) -> AccessibleSnapshot? { first { $0.path == path } }

    /// Whether an object at `path` is in this tree.
    public func contains(path: String) -> Bool { object(at: path) != nil }

    /// How many objects the tree holds.
    public var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

/// AT-SPI2's Value interface: a number within bounds, moved by a step.
public struct ATSPIValue: Equatable, Sendable {
    public var current: Double
    public var minimum: Double
    public var maximum: Double
    /// The toolkit's step; 0 when it gives none.
    public var increment: Double

    public init(current: Double, minimum: Double, maximum: Double, increment: Double) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.increment = increment
    }
}
