import NarratorModel
import NarratorDBus

/// Reading one application's windows from AT-SPI2 as ``AccessibleSnapshot``s, as a pure state
/// machine: it says which ``ATSPIRequest``s to send, takes their replies in any order, and says
/// what to ask next, until every answer is in.
///
/// Where the toolkit offers AT-SPI2's cache (GTK's `GetItems`), one reply carries every object's
/// name, role, description, states, interfaces and place in the tree, and the rest (extents,
/// actions, values, text, relations) is asked of every object at once: two round trips for the
/// whole application. Elsewhere (Qt 5's cache is empty) the tree is walked, but every object's
/// questions go out together and every level's objects together, so the walk costs two round trips
/// per level rather than several per object. Because nothing here waits on a reply, a hung
/// application delays only its own read: the bridge's other applications go on being served.
public struct ATSPIApplicationRead: Sendable {
    /// What the read found.
    public enum Outcome: Equatable, Sendable {
        /// The application's name and its top-level windows with their subtrees, in order.
        case read(name: String, windows: [AccessibleSnapshot])
        /// It left the bus during the read.
        case gone
        /// It did not answer in time (hung): what is mirrored of it stays as it was.
        case unresponsive
        /// It gave what no toolkit builds (why, for the journal): a child list that cycles back
        /// to an ancestor, more objects than the read holds, a reply over the connection's
        /// limit, or an error for every question. The bridge gives it up rather than follow it.
        case hostile(String)
    }

    /// The application's root object, whose children are its windows.
    public static let root = "/org/a11y/atspi/accessible/root"
    /// The path AT-SPI2 gives for no object at all.
    public static let null = "/org/a11y/atspi/null"
    /// `label-for` and `labelled-by` in AT-SPI2's relation types.
    static let labelForRelation = 1
    static let labelledByRelation = 2

    /// At most this deep: a tree deeper than any toolkit builds is cut rather than followed forever.
    public let maximumDepth: Int
    /// At most this many objects in one read, the children it leaves for later counted: an
    /// application with more (a million children, a tree that grows as it is asked) is
    /// ``Outcome/hostile(_:)``. Firefox's long test page is 12,569.
    public var maximumObjects = 50_000
    /// Names and descriptions longer than this many characters are cut: nobody listens to more,
    /// and each copy (the mirror, narratord's tree) would hold it all.
    public static let maximumNameLength = 10_000
    /// At most this many children of one object are walked by this read; the rest are left for
    /// later reads (``unreadChildren``). A web page's list of 2,500 items is mirrored as its first
    /// items at once, and the others as they are read after it, rather than all before anything.
    public var childrenAtOnce = Int.max
    /// The children this read left for later, by parent, in the order the parents were walked.
    public private(set) var unreadChildren: [(parent: String, children: [String])] = []
    /// Whether an object at ``maximumDepth`` has children, which the read left out (a chain
    /// 10,000 deep): said once by the bridge, since what is deeper is never heard.
    public private(set) var cutAtDepth = false

    private struct Node: Sendable {
        var depth: Int
        var index = 0
        var parent: String?
        var role: ATSPIRole?
        var name: String?
        var description: String?
        var states: ATSPIStates?
        var interfaces: Set<String>?
        var children: [String]?
        var extents: Rect?
        var actions: [String] = []
        var text: String?
        var selection: TextRange?
        var caret: Int?
        var value: [ATSPIRequest.ValueField: Double] = [:]
        var labelledBy: [String] = []
        var placeholder: String?
        var level: Int?
        var xmlRoles: String?
        var live: String?
        /// Its place among its siblings as its attributes say it (`posinset`, `setsize`).
        var place: SetPosition?
        /// Its extents, actions, value and text were asked for (once its states and interfaces were known).
        var detailsAsked = false
        /// Found by walking (asked what it is, one question at a time) rather than in the cache.
        var walked = false
        /// How many children the cache (or `GetAll`) says it has.
        var childCount = 0
        /// Its attributes came with its other properties (``ATSPIRequest/properties(_:)``).
        var attributesRead = false
    }

    private var nodes: [String: Node] = [:]
    private var windows: [String]?
    /// The application's own name, once it said it (even in a read that went no further).
    public private(set) var applicationName: String?
    /// nil until `GetItems` answered: true when it held the tree, false when the tree is walked.
    private var cached: Bool?
    private var outstanding = 0
    private var failure: Outcome?
    /// How many replies were answers, and how many errors: an application that answers nothing
    /// but errors is hostile.
    private var answers = 0, errors = 0
    /// How many children ``unreadChildren`` holds.
    private var unreadCount = 0
    private var toolkitName: String?, toolkitVersion: String?

    /// The dialect of AT-SPI2 the application speaks, once its toolkit answered.
    public var dialect: ATSPIDialect { ATSPIDialect(toolkit: toolkitName ?? "", version: toolkitVersion ?? "") }

    /// Only this object, without its children: the row a list that manages its descendants has
    /// just made active. Nil for a whole application.
    private let object: String?
    /// For a read of several subtrees: their roots.
    private var objects: [String] = []
    /// For a row read alone: its list and its index there, and what the list said of its rows.
    private let row: (list: String, index: Int)?
    private var tableRow: Int?, rowCount: Int?, childCount: Int?

    public init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
        object = nil
        row = nil
    }

    /// A read of one object alone; its outcome holds it as the only "window".
    public init(object path: String) {
        maximumDepth = 0
        object = path
        row = nil
    }

    /// A read of the object at `path` and everything under it, walked (its outcome holds it as
    /// the only "window"): a part of a window whose children changed, read without the rest.
    public init(subtree path: String, maximumDepth: Int = 64) {
        self.init(subtrees: [path], maximumDepth: maximumDepth)
    }

    /// A read of the objects at `paths` (siblings, in order) and everything under each: the
    /// outcome holds them as its "windows", in that order.
    public init(subtrees paths: [String], maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
        object = paths.first
        objects = paths
        row = nil
    }

    /// A read of the row at `index` in `list` (a list that manages its descendants), with its
    /// place among the list's rows ("2 of 10000"): the list's table row for the index and its
    /// number of rows, or, where the list is no table, the index among its children.
    public init(row path: String, index: Int, of list: String) {
        maximumDepth = 0
        object = path
        row = (list, index)
    }

    /// The first requests: the cache, the application's name and its windows (or the object's
    /// own questions).
    public mutating func start() -> [ATSPIRequest] {
        if let object {
            cached = false
            let roots = objects.isEmpty ? [object] : objects
            windows = roots
            applicationName = ""
            let position: [ATSPIRequest] = row.map { [.rowAtIndex($0.list, $0.index), .rowCount($0.list), .childCount($0.list)] } ?? []
            return walk(roots, depth: 0, parent: "") + ask(position)
        }
        // The toolkit before the windows: an application answers in order, so the walk that the
        // windows start knows which dialect it walks.
        return ask([.items, .name(Self.root), .toolkitName, .toolkitVersion, .children(Self.root)])
    }

    /// Where the row read alone stands: its table row of the table's rows (none for a column
    /// header), else its index among the list's children.
    private var position: SetPosition? {
        guard let row else { return nil }
        if let tableRow, let rowCount {
            return tableRow >= 0 && tableRow < rowCount ? SetPosition(index: tableRow + 1, count: rowCount) : nil
        }
        if let childCount, row.index >= 0, row.index < childCount { return SetPosition(index: row.index + 1, count: childCount) }
        return nil
    }

    /// Whether the tree came from the toolkit's cache rather than a walk.
    public var fromCache: Bool { cached == true }

    /// Whether a read of an application's windows got nothing but errors back.
    public var answeredOnlyErrors: Bool { object == nil && answers == 0 && errors > 0 }

    /// True once every request sent has been answered.
    public var isComplete: Bool { outstanding == 0 }

    /// What the read found; meaningful once ``isComplete``.
    public var outcome: Outcome {
        if let failure { return failure }
        if answeredOnlyErrors { return .hostile("it answered each of its \(errors) questions with an error") }
        var windows = (windows ?? []).compactMap { nodes[$0] != nil ? snapshot($0) : nil }
        if row != nil, !windows.isEmpty { windows[0].position = position }
        return .read(name: applicationName ?? "", windows: windows)
    }

    /// Takes the reply to `request` and returns what to ask next.
    public mutating func take(_ request: ATSPIRequest, _ reply: Result<DBusValue, DBusFailure>) -> [ATSPIRequest] {
        outstanding -= 1
        let value: DBusValue?
        var arguments: DBusValue?
        switch reply {
        case .success(let reply):
            // The reply is the tuple of out arguments; every call but GetSelection has one.
            value = reply[0]
            arguments = reply
            answers += 1
        case .failure(.error(DBusIncoming.tooLarge, let message)):
            // Too large to keep: a text (a huge document) is left out, a cache read by walking;
            // anything else (a name, a child list) no toolkit sends.
            value = nil
            switch request {
            case .text, .items: errors += 1
            default: failure = .hostile("its answer to \(request.call.method) on \(request.path) was refused: \(message)")
            }
        case .failure(.timedOut):
            if failure == nil { failure = .unresponsive }
            value = nil
        case .failure(.gone):
            failure = .gone
            value = nil
        case .failure(.error):
            // An interface or object this one lacks: the fact is absent, the read goes on.
            value = nil
            errors += 1
        }
        if failure != nil { return [] }
        switch request {
        case .items:
            return takeItems(value)
        case .name(let path):
            if path == Self.root {
                applicationName = Self.cut(value?.string ?? "")
                return []
            }
            update(path) { $0.name = Self.cut(value?.string ?? "") }
        case .children(let path):
            let children = value?.items?.compactMap(\.objectPath) ?? []
            if let excess = tooMany(children.count) { return excess }
            if path == Self.root {
                windows = children
                return cached == false ? walk(children, depth: 0, parent: Self.root) : []
            }
            // No answer keeps what the cache said; an answer is the order, and what to walk.
            guard let node = nodes[path], value != nil else { return [] }
            if let ancestor = children.first(where: { isAncestor($0, of: path) }) {
                failure = .hostile("\(path) lists \(ancestor), itself or one of its ancestors, among its children")
                return []
            }
            var walked = children
            if node.walked, children.count > childrenAtOnce {
                walked = Array(children.prefix(childrenAtOnce))
                unreadChildren.append((path, Array(children.dropFirst(childrenAtOnce))))
                unreadCount += children.count - childrenAtOnce
            }
            update(path) { $0.children = walked }
            return walk(walked, depth: node.depth + 1, parent: path)
        case .role(let path):
            update(path) { $0.role = ATSPIRole(code: UInt32(value?.int ?? 0)) }
        case .states(let path):
            update(path) { $0.states = ATSPIStates(words: Self.words(value)) }
        case .interfaces(let path):
            update(path) { $0.interfaces = Set((value?.items ?? []).compactMap(\.string)) }
        case .description(let path):
            update(path) { $0.description = Self.cut(value?.string ?? "") }
        case .properties(let path):
            var properties: [String: DBusValue] = [:]
            for entry in value?.items ?? [] {
                if let key = entry[0]?.string, let property = entry[1] { properties[key] = property.unwrapped }
            }
            let attributes = Self.attributes(properties["Attributes"])
            update(path) { node in
                node.name = Self.cut(properties["Name"]?.string ?? "")
                node.description = Self.cut(properties["Description"]?.string ?? "")
                // Not answered: asked for its children, as if it had some.
                node.childCount = properties["ChildCount"]?.int ?? 1
                node.placeholder = attributes.placeholder
                node.level = attributes.level
                node.xmlRoles = attributes.xmlRoles
                node.live = attributes.live
                node.place = attributes.place
                node.attributesRead = value != nil
            }
        case .relations(let path):
            // Both directions: a label says what it labels (label-for), a control what labels it.
            for label in Self.targets(of: Self.labelledByRelation, in: value) { addLabel(label, to: path) }
            for target in Self.targets(of: Self.labelForRelation, in: value) { addLabel(path, to: target) }
            return []
        case .extents(let path):
            let fields = (value?.items ?? []).compactMap(\.double)
            update(path) { node in
                guard fields.count == 4, fields[0] != Double(Int32.min), fields[1] != Double(Int32.min) else { return }
                node.extents = Rect(x: fields[0], y: fields[1], width: fields[2], height: fields[3])
            }
            return []
        case .actions(let path):
            let names = (value?.items ?? []).compactMap { $0[0]?.string }.filter { !$0.isEmpty }
            update(path) { $0.actions = names }
            return []
        case .text(let path):
            let text = value?.string ?? ""
            update(path) { $0.text = text.isEmpty ? nil : text }
            return []
        case .selection(let path):
            let start = arguments?[0]?.int ?? 0, end = arguments?[1]?.int ?? 0
            update(path) { $0.selection = end > start && start >= 0 ? TextRange(location: start, length: end - start) : nil }
            return []
        case .caret(let path):
            update(path) { $0.caret = value?.int.flatMap { $0 >= 0 ? $0 : nil } }
            return []
        case .attributes(let path):
            let attributes = Self.attributes(value)
            update(path) {
                $0.placeholder = attributes.placeholder
                $0.level = attributes.level
                $0.xmlRoles = attributes.xmlRoles
                $0.live = attributes.live
                $0.place = attributes.place
            }
            return []
        case .value(let path, let field):
            update(path) { $0.value[field] = value?.double ?? 0 }
            return []
        case .rowAtIndex:
            tableRow = value?.int
            return []
        case .rowCount:
            rowCount = value?.int
            return []
        case .childCount(let path):
            // Asked of an object as deep as the read goes: whether it was cut.
            if maximumDepth > 0, let node = nodes[path], node.depth >= maximumDepth {
                if (value?.int ?? 0) > 0 { cutAtDepth = true }
                return []
            }
            childCount = value?.int
            return []
        case .toolkitName:
            toolkitName = value?.string
            return []
        case .toolkitVersion:
            toolkitVersion = value?.string
            return []
        }
        return nodes[request.path]?.walked == true ? detailsOrChildren(request.path) : []
    }

    // MARK: The cache

    private mutating func takeItems(_ value: DBusValue?) -> [ATSPIRequest] {
        // Each item: (object, application, parent, index in parent, child count, interfaces, name,
        // role, description, states). Qt 5's older layout puts a child list at field 3; it sends none.
        let items = value?.items ?? []
        if let excess = tooMany(items.count) { return excess }
        guard !items.isEmpty, items.allSatisfy({ $0.items?.count == 10 && $0[3]?.int != nil }) else {
            cached = false
            return windows.map { walk($0, depth: 0, parent: Self.root) } ?? []
        }
        cached = true
        var children: [String: [(Int, String)]] = [:]
        for item in items {
            guard let path = item[0]?.objectPath, path != Self.root else { continue }
            var node = Node(depth: 0)
            node.parent = item[2]?.objectPath
            node.index = item[3]?.int ?? 0
            node.childCount = item[4]?.int ?? 0
            node.interfaces = Set(item[5]?.items?.compactMap(\.string) ?? [])
            node.name = Self.cut(item[6]?.string ?? "")
            node.role = ATSPIRole(code: UInt32(item[7]?.int ?? 0))
            node.description = Self.cut(item[8]?.string ?? "")
            node.states = ATSPIStates(words: Self.words(item[9]))
            nodes[path] = node
            if let parent = node.parent { children[parent, default: []].append((node.index, path)) }
        }
        for (parent, list) in children where nodes[parent] != nil {
            nodes[parent]?.children = list.sorted { $0 < $1 }.map(\.1)
        }
        // Only what is under a window and not under a list that manages its own descendants is
        // asked about further (the walk would not reach the rest either).
        var requests: [ATSPIRequest] = []
        var stack = (windows ?? children[Self.root]?.sorted { $0 < $1 }.map(\.1) ?? []).map { ($0, 0) }
        if windows == nil { windows = stack.map(\.0) }
        while let (path, depth) = stack.popLast() {
            guard var node = nodes[path] else { continue }
            node.depth = depth
            nodes[path] = node
            requests += details(path)
            if depth < maximumDepth, !(node.states ?? []).contains(.managesDescendants) {
                let cachedChildren = node.children ?? []
                // The cache's indices are the toolkit's word for the order, and it may leave a
                // child out (GTK caches an object once it has been asked about or shown): where
                // they are not exactly 0 to count - 1, the object is asked for its children, in
                // order, and those the cache lacks are walked.
                let indices = cachedChildren.compactMap { nodes[$0]?.index }
                if indices != Array(0..<max(0, node.childCount)) { requests.append(.children(path)) }
                stack += cachedChildren.map { ($0, depth + 1) }
            } else {
                if depth >= maximumDepth, node.childCount > 0 { cutAtDepth = true }
                nodes[path]?.children = []
            }
        }
        return ask(requests)
    }

    // MARK: The walk

    private mutating func walk(_ paths: [String], depth: Int, parent: String) -> [ATSPIRequest] {
        var requests: [ATSPIRequest] = []
        for (index, path) in paths.enumerated() where nodes[path] == nil {
            var node = Node(depth: depth)
            node.index = index
            node.parent = parent
            node.walked = true
            nodes[path] = node
            // Gecko answers GetAll cheaply and its child count spares a leaf the children's
            // question; Qt 5 drops off the bus when asked GetAll, and others are left as they are.
            guard dialect == .gecko else {
                requests += [.role(path), .name(path), .description(path), .states(path), .interfaces(path)]
                continue
            }
            requests += [.role(path), .properties(path), .states(path), .interfaces(path)]
        }
        return ask(requests)
    }

    /// Once an object's states and interfaces are known: its details, and its children unless it
    /// manages them itself or is as deep as the read goes.
    private mutating func detailsOrChildren(_ path: String) -> [ATSPIRequest] {
        guard let node = nodes[path], !node.detailsAsked, let states = node.states, node.interfaces != nil, node.role != nil, node.name != nil
        else { return [] }
        var requests = details(path)
        if node.attributesRead, node.childCount == 0 {
            nodes[path]?.children = []
        } else if node.depth < maximumDepth, !states.contains(.managesDescendants) {
            requests.append(.children(path))
        } else {
            nodes[path]?.children = []
            if maximumDepth > 0, node.depth >= maximumDepth, !states.contains(.managesDescendants) {
                if node.attributesRead { cutAtDepth = true } else { requests.append(.childCount(path)) }
            }
        }
        return ask(requests)
    }

    /// The questions an object's interfaces and states call for (and, read from the cache, its
    /// relations, which the cache does not carry).
    private mutating func details(_ path: String) -> [ATSPIRequest] {
        guard let node = nodes[path], !node.detailsAsked else { return [] }
        nodes[path]?.detailsAsked = true
        let interfaces = node.interfaces ?? []
        let states = node.states ?? []
        // Relations are asked only of labels (which name what they label) and of controls with
        // no name of their own: no other object's relations change what is said.
        let control = states.contains(.focusable) || !interfaces.isDisjoint(with: ["org.a11y.atspi.Action", "org.a11y.atspi.Value", "org.a11y.atspi.Text"])
        let wantsRelations = node.role == .label || ((node.name ?? "").isEmpty && control)
        var requests: [ATSPIRequest] = wantsRelations ? [.relations(path)] : []
        if interfaces.contains("org.a11y.atspi.Component"), states.contains(.showing) { requests.append(.extents(path)) }
        if interfaces.contains("org.a11y.atspi.Action") { requests.append(.actions(path)) }
        if interfaces.contains("org.a11y.atspi.Value") { requests += ATSPIRequest.ValueField.allCases.map { .value(path, $0) } }
        if interfaces.contains("org.a11y.atspi.Text") {
            if states.contains(.editable) || node.role == .text || node.role == .entry {
                requests += [.text(path), .selection(path), .caret(path)] + (node.attributesRead ? [] : [.attributes(path)])
            } else if (node.name ?? "").isEmpty, ATSPIMapping.textRoles.contains(node.role ?? .unknown) {
                // What a web page's paragraph says is its text, not its name (it has none).
                requests.append(.text(path))
            }
        }
        // A heading's level is an attribute ("level:2").
        if node.role == .heading, !node.attributesRead { requests.append(.attributes(path)) }
        // So are a landmark's kind ("xml-roles:navigation", a named form's or section's too) and a
        // live region's setting ("live:polite", a page's `div` being a section).
        if [.landmark, .form, .section].contains(node.role ?? .unknown), !node.attributesRead { requests.append(.attributes(path)) }
        // So is a menu item's place (a select's option: "posinset", "setsize"), which Firefox's
        // `GetAll` does not carry, nor a read of a part (or of one object) ask.
        if Self.placedRoles.contains(node.role ?? .unknown), node.place == nil { requests.append(.attributes(path)) }
        return requests
    }

    // MARK: Bounds

    /// Whether `count` more objects would take the read past ``maximumObjects``: then the read
    /// is over (what it asks next is nothing) and the application hostile.
    private mutating func tooMany(_ count: Int) -> [ATSPIRequest]? {
        guard nodes.count + unreadCount + count > maximumObjects else { return nil }
        failure = .hostile("it has more than \(maximumObjects) objects (\(count) more were listed after \(nodes.count + unreadCount))")
        return []
    }

    /// Whether `candidate` is `path` or above it, by the parents this read found.
    private func isAncestor(_ candidate: String, of path: String) -> Bool {
        var current: String? = path
        // A parent chain longer than the read goes deep is no chain this read made.
        for _ in 0...(maximumDepth + 2) {
            guard let here = current else { return false }
            if here == candidate { return true }
            current = nodes[here]?.parent
        }
        return false
    }

    /// `text`, cut to ``maximumNameLength`` characters.
    static func cut(_ text: String) -> String {
        text.utf8.count <= maximumNameLength ? text : String(text.prefix(maximumNameLength))
    }

    // MARK: Parts

    private mutating func ask(_ requests: [ATSPIRequest]) -> [ATSPIRequest] {
        outstanding += requests.count
        return requests
    }

    private mutating func update(_ path: String, _ change: (inout Node) -> Void) {
        guard var node = nodes[path] else { return }
        change(&node)
        nodes[path] = node
    }

    /// Each object once, however many child lists name it (the first, depth first), and no
    /// deeper than the read goes: an application that lists one object under two parents, or
    /// under itself, cannot make the snapshot loop or grow without end.
    private func snapshot(_ path: String) -> AccessibleSnapshot {
        var seen: Set<String> = []
        return snapshot(path, depth: 0, seen: &seen)
    }

    private func snapshot(_ path: String, depth: Int, seen: inout Set<String>) -> AccessibleSnapshot {
        seen.insert(path)
        let node = nodes[path] ?? Node(depth: 0)
        var snapshot = AccessibleSnapshot(
            path: path, role: node.role ?? .unknown, name: node.name ?? "", description: node.description ?? "", states: node.states ?? [])
        snapshot.extents = node.extents
        snapshot.actions = node.actions
        if let current = node.value[.current] {
            snapshot.value = ATSPIValue(
                current: current, minimum: node.value[.minimum] ?? 0, maximum: node.value[.maximum] ?? 0, increment: node.value[.increment] ?? 0)
        }
        snapshot.text = node.text
        // A selection, else the caret as an empty one (within the text: a caret past it is none).
        snapshot.selection = node.selection ?? node.caret.flatMap { $0 <= (node.text ?? "").unicodeScalars.count ? TextRange(location: $0, length: 0) : nil }
        snapshot.labelledBy = node.labelledBy
        snapshot.placeholder = node.placeholder
        snapshot.level = node.level
        snapshot.xmlRoles = node.xmlRoles
        snapshot.live = node.live
        // An option of a list that opened (a select's) says where it is among them, as Orca says
        // it ("Keelboat, 2 of 3"); other objects' places are not said (a page's list items).
        if let place = node.place, ATSPIApplicationRead.placedRoles.contains(snapshot.role) { snapshot.position = place }
        var children: [AccessibleSnapshot] = []
        if depth <= maximumDepth {
            for child in node.children ?? [] where nodes[child] != nil && !seen.contains(child) {
                children.append(self.snapshot(child, depth: depth + 1, seen: &seen))
            }
        }
        snapshot.children = children
        if snapshot.role == .comboBox { Self.placeOptions(in: &snapshot) }
        return snapshot
    }

    /// The options of a combo box's list (a select's, opened) that said no place of their own:
    /// each its place among them. Firefox gives a select's options their place only once they
    /// show, and a read as the list opens can find them without it.
    static func placeOptions(in combo: inout AccessibleSnapshot) {
        for index in combo.children.indices where combo.children[index].role == .menu {
            let items = combo.children[index].children.indices.filter { placedRoles.contains(combo.children[index].children[$0].role) }
            for (place, item) in items.enumerated() where combo.children[index].children[item].position == nil {
                combo.children[index].children[item].position = SetPosition(index: place + 1, count: items.count)
            }
        }
    }

    /// What the bridge reads of an object's attributes (`a{ss}`): a field's placeholder, a
    /// heading's level, a page's ARIA roles (a landmark's kind), a live region's setting, and an
    /// item's place among its siblings (Gecko's `posinset` and `setsize`).
    static func attributes(_ value: DBusValue?) -> (placeholder: String?, level: Int?, xmlRoles: String?, live: String?, place: SetPosition?) {
        let attributes = value?.items ?? []
        func named(_ name: String) -> String? { attributes.first { $0[0]?.string == name }?[1]?.string }
        func number(_ name: String) -> Int? { named(name).flatMap { Int($0) } }
        let place = number("posinset").flatMap { index in number("setsize").map { SetPosition(index: index, count: $0) } }
        return (named("placeholder-text"), number("level"), named("xml-roles"), named("live"), place)
    }

    /// Roles whose place among their siblings is read from their attributes: menu items (the
    /// options of an open select).
    static let placedRoles: Set<ATSPIRole> = [.menuItem, .checkMenuItem, .radioMenuItem]

    /// A state set's two 32-bit words.
    static func words(_ value: DBusValue?) -> [UInt32] {
        (value?.items ?? []).compactMap { $0.int.flatMap { UInt32(exactly: $0) } }
    }

    /// The targets of a relation set's relations of `type`: `a(ua(so))`.
    static func targets(of type: Int, in value: DBusValue?) -> [String] {
        (value?.items ?? []).flatMap { relation -> [String] in
            guard relation[0]?.int == type else { return [] }
            return relation[1]?.items?.compactMap(\.objectPath) ?? []
        }
    }

    private mutating func addLabel(_ label: String, to path: String) {
        update(path) { node in
            if !node.labelledBy.contains(label) { node.labelledBy.append(label) }
        }
    }
}
