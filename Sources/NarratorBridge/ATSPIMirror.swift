import NarratorModel

/// What the AT-SPI bridge does, decided as a pure state machine: which trees to register, update
/// and unregister in narratord as an application's windows come, change and go; where Narrator's
/// focus goes when the application's focus moves; and what to do in the application when
/// narratord tells the trees' owner to act. The bridge's shell reads the windows, feeds the
/// changes in, and carries the effects out (requests to narratord, calls to libatspi).
public struct ATSPIMirror: Sendable {
    /// A top-level window: its application's D-Bus name (":1.42") and its object path there.
    public struct WindowID: Hashable, Sendable, CustomStringConvertible {
        public var application: String
        public var path: String

        public init(application: String, path: String) {
            self.application = application
            self.path = path
        }

        public var description: String { application + path }
    }

    /// One mirrored window: the tree it is registered as, the document last sent, and each
    /// element's AT-SPI actions (what `activate` and named actions are carried out with).
    struct Window: Sendable {
        var tree: String
        var document: TreeDocument
        var actions: [String: [String]]
        /// The ids that are focus stops, so that focus is moved only to where Narrator can go.
        var stops: Set<String>
        /// The object that had the application's focus when the window was last read.
        var focused: String?
        /// The alerts, notifications and info bars on show when it was last read, by path.
        var alerts: Set<String> = []
        /// The ids of the objects that can take the application's focus.
        var focusable: Set<String> = []
        /// Each web document's first stop: a page taking the focus (as it loads, as its window
        /// becomes active) is entered there, the document itself being no stop.
        var entries: [String: String] = [:]
        /// Each element inside a web document, with that document's id (the documents too): what
        /// browse mode asks at every key, answered without walking the page.
        var pages: [String: String] = [:]
        /// The elements that take keys themselves (fields, combo boxes, sliders).
        var takingKeys: Set<String> = []
        /// Each web document's lines as laid out, made the first time browse mode reads by line
        /// after the window was read (``lines(tree:page:)``).
        var lines: [String: PageLines] = [:]
        /// How many times the document was registered: narratord's refusal of an update sent
        /// before the latest registration is old news, and changes nothing.
        var generation = 1
        /// narratord refused the document last registered: updates wait until it changes.
        var refused = false
    }

    /// What the shell does for the mirror: requests to narratord on the connection that owns
    /// the trees (register as ephemeral, so that the trees go when the bridge does), and calls
    /// into the application.
    public enum Effect: Equatable, Sendable {
        case register(TreeDocument)
        /// `announce`: the change is one a user hears when the element is Narrator's focus (a
        /// new label, value or state: a check box the application cleared, a slider it moved).
        case update(tree: String, TreeUpdate, announce: Bool)
        case unregister(tree: String)
        /// Narrator's focus follows the application's (into the tree, where it was or at its
        /// first stop, when `element` is nil).
        case focus(tree: String, element: String?)
        /// An update that takes Narrator's focused element away, while the application's focus
        /// has already moved to `element` (a select's list closing onto the select): narratord
        /// moves its focus there with the update (its `layoutChanged` notification) instead of
        /// repairing it to the nearest stop, which would say a stop the user never went to.
        case updateFocusing(tree: String, TreeUpdate, element: String)
        /// Narrator's focus enters a web page on `element` under the window's title `title`, said
        /// first as entering a window says it (the tree's title set again on its `root`, with a
        /// `screenChanged` notification): a page loaded in the window Narrator is already in.
        case enterPage(tree: String, root: String, title: String?, element: String)
        /// An AT-SPI action of the element at `path`, by its name ("click", "Press").
        case perform(WindowID, path: String, action: String)
        /// The element's Value set.
        case setValue(WindowID, path: String, value: Double)
        /// The application's focus moved to the element (`grab_focus`).
        case grabFocus(WindowID, path: String)
        /// The application's caret moved to the start of the element's text (browse mode's
        /// cursor there), which is where Tab goes on from.
        case setCaret(WindowID, path: String)
        /// An alert, notification or info bar came on show: its text is announced through the
        /// queue (deduplicated, throttled and logged like every announcement), from its element.
        case announce(tree: String, element: String, text: String)
    }

    var windows: [WindowID: Window] = [:]
    /// The element Narrator was last asked to focus, so that GTK's double focus event moves it once.
    var lastFocus: (window: WindowID, path: String)?
    /// The element Narrator gave the application's focus to (browse mode, a user's `focus`) whose
    /// focus event has not come back yet: that event, however late, says nothing; one after it
    /// is the user's (Tab back onto it after the cursor moved on).
    var awaitedEcho: (window: WindowID, path: String)?
    /// Each window's title as Narrator last said it, entering the window or a page in it.
    var saidTitles: [WindowID: String?] = [:]
    /// The window whose page Narrator's focus entered (the page's document took the focus) and
    /// has not left since: a title the page gets now is its title, said with the entry.
    var enteredPage: WindowID?
    /// The window Narrator's focus was last sent into (``lastFocus`` is cleared when a window
    /// is entered at its first stop).
    var focusedWindow: WindowID?
    /// A window activated with nothing focused in it yet, waiting for its focus event.
    private var activating: WindowID?
    /// The window where browse mode last moved the application's caret: the page document's
    /// taking the focus that follows is the caret's doing, not a page being entered.
    var browsing: WindowID?

    public init() {}

    /// The trees mirrored now, by window.
    public var trees: [WindowID: String] { windows.mapValues(\.tree) }

    // MARK: Windows

    /// `window` of the application `name` was read: registered if it is new, otherwise updated
    /// element by element (registered again when its root changed).
    ///
    /// `focusGoingTo`: the object the application's focus has moved to, where that move waits
    /// for this read (see ``handOver(_:_:from:stops:changes:to:)``).
    public mutating func windowRead(
        _ id: WindowID, application name: String, snapshot: AccessibleSnapshot, dialect: ATSPIDialect = .gtk3, focusGoingTo: String? = nil
    ) -> [Effect] {
        if var known = windows[id] {
            let previousStops = known.stops
            var document = ATSPIMapping.document(window: snapshot, application: name, taken: [], dialect: dialect)
            document.name = known.tree
            known.actions = Self.actions(in: snapshot)
            let compiled = AccessibilityTree(document: document)
            known.stops = Self.stops(of: compiled)
            known.focused = Self.focused(in: snapshot)
            let alerts = Self.alerts(in: snapshot)
            let announced = alerts.filter { !known.alerts.contains($0.path) }.map { Effect.announce(tree: known.tree, element: ATSPIMapping.id(of: $0.path), text: $0.text) }
            known.alerts = Set(alerts.map(\.path))
            known.focusable = Self.focusable(in: snapshot)
            known.entries = Self.entries(in: snapshot, tree: compiled)
            (known.pages, known.takingKeys) = Self.browseIndex(of: document, entries: known.entries)
            let lines = known.lines
            known.lines = [:]
            let previous = known.document
            known.document = document
            // A refused document is registered again once it changes, whole; until then there is
            // no tree in narratord to update.
            if known.refused {
                guard document != previous else {
                    windows[id] = known
                    return announced
                }
                known.refused = false
                known.generation += 1
                windows[id] = known
                return [.register(document)] + announced
            }
            // A new root is a new document.
            guard let changes = TreeDiff.changes(from: previous.root, to: document.root) else {
                known.generation += 1
                windows[id] = known
                return [.register(document)] + sayAgain(id, known, from: previous) + announced
            }
            // Read again with nothing changed: the page's lines stand.
            if changes.isEmpty { known.lines = lines }
            windows[id] = known
            // A new title (the window renamed: a page's title coming as it loads, or set by its
            // script) is the tree's, set on its root: the tree keeps its name and stays as it is.
            if document.title != previous.title, let entered = enteringTitled(id, known, changes: changes) { return entered + announced }
            let retitled: [Effect] = document.title == previous.title ? [] : [.update(tree: known.tree, .retitle(element: document.root.id, title: document.title), announce: false)]
            if let target = focusGoingTo, let handed = handOver(id, known, from: previous, stops: previousStops, changes: changes, to: target) {
                return retitled + handed + announced
            }
            return retitled + changes.map { .update(tree: known.tree, $0.update, announce: Self.heard($0)) } + announced
        }
        let taken = Set(windows.values.map(\.tree))
        let document = ATSPIMapping.document(window: snapshot, application: name, taken: taken, dialect: dialect)
        let compiled = AccessibilityTree(document: document)
        let alerts = Self.alerts(in: snapshot)
        var window = Window(
            tree: document.name, document: document, actions: Self.actions(in: snapshot), stops: Self.stops(of: compiled),
            focused: Self.focused(in: snapshot), alerts: Set(alerts.map(\.path)), focusable: Self.focusable(in: snapshot),
            entries: Self.entries(in: snapshot, tree: compiled))
        (window.pages, window.takingKeys) = Self.browseIndex(of: document, entries: window.entries)
        windows[id] = window
        return [.register(document)] + alerts.map { .announce(tree: document.name, element: ATSPIMapping.id(of: $0.path), text: $0.text) }
    }

    /// The registration of `tree` its requests belong to now.
    public func generation(of tree: String) -> Int? {
        windows.values.first { $0.tree == tree }?.generation
    }

    /// narratord refused a request about `tree` sent at `generation`. A refused update leaves
    /// narratord's tree and the mirror out of step (an id moved elsewhere in the tree, which
    /// `update` cannot say): the window is registered again whole, once, and the refusals of
    /// the updates sent before that registration change nothing more. A refused registration
    /// leaves no tree to update: the window waits until what the application shows changes.
    public mutating func refused(tree: String, generation: Int, registration: Bool) -> [Effect] {
        guard let (id, window) = window(showing: tree), window.generation == generation, !window.refused else { return [] }
        if registration {
            windows[id]?.refused = true
            return []
        }
        windows[id]?.generation += 1
        return [.register(window.document)]
    }

    /// Every window's document, to register again whole (narratord restarted).
    public mutating func resendAll() -> [Effect] {
        for id in windows.keys {
            windows[id]?.generation += 1
            windows[id]?.refused = false
        }
        return windows.sorted { $0.value.tree < $1.value.tree }.map { .register($0.value.document) }
    }

    /// Narrator's focus where the application's last was (narratord restarted and lost it).
    public func focusAgain() -> [Effect] {
        guard let last = lastFocus, let window = windows[last.window] else { return [] }
        return [.focus(tree: window.tree, element: ATSPIMapping.id(of: last.path))]
    }

    /// After `window` is registered again (renamed: a page's title came as it loaded), what
    /// Narrator's focus there says now, if it says something new: a heading the page named only
    /// after the focus entered it. An update would have said it; a new registration says nothing.
    private func sayAgain(_ id: WindowID, _ window: Window, from previous: TreeDocument) -> [Effect] {
        guard let last = lastFocus, last.window == id else { return [] }
        var element = ATSPIMapping.id(of: last.path)
        if !window.stops.contains(element), let entry = window.entries[element] { element = entry }
        guard window.stops.contains(element), let now = window.document.root.find(element) else { return [] }
        let before = previous.root.find(element)
        guard before?.label != now.label || before?.value != now.value || before?.traits != now.traits else { return [] }
        return [.focus(tree: window.tree, element: element)]
    }

    /// Whether the application's focus Narrator follows last was on `path` of `application`, or
    /// on what stands for the same stop: a page's document taking the focus again as it loads is
    /// entered at the stop Narrator is on, so what changes there (the heading's name, come late)
    /// is said rather than quieted as left behind.
    public func hasFocus(application: String, path: String) -> Bool {
        guard let last = lastFocus, last.window.application == application else { return false }
        if last.path == path { return true }
        guard let window = windows[last.window] else { return false }
        func stop(_ path: String) -> String? {
            let id = ATSPIMapping.id(of: path)
            return window.stops.contains(id) ? id : window.entries[id]
        }
        guard let here = stop(last.path), let there = stop(path) else { return false }
        return here == there
    }

    /// The window closed (or its object went defunct): its tree goes.
    public mutating func windowGone(_ id: WindowID) -> [Effect] {
        guard let window = windows.removeValue(forKey: id) else { return [] }
        if lastFocus?.window == id { lastFocus = nil }
        if enteredPage == id { enteredPage = nil }
        if focusedWindow == id { focusedWindow = nil }
        saidTitles.removeValue(forKey: id)
        return [.unregister(tree: window.tree)]
    }

    /// The application left the bus: every tree of its windows goes.
    public mutating func applicationGone(_ application: String) -> [Effect] {
        windows.keys.filter { $0.application == application }.sorted { $0.path < $1.path }.flatMap { windowGone($0) }
    }

    // MARK: Focus

    /// The application's focus moved to `path` in `window` (`object:state-changed:focused`):
    /// Narrator's focus follows, once, when the element is one of the tree's stops.
    public mutating func focusMoved(_ window: WindowID, path: String) -> [Effect] {
        guard let mirrored = windows[window] else { return [] }
        var element = ATSPIMapping.id(of: path)
        var page = false
        if !mirrored.stops.contains(element), let entry = mirrored.entries[element] {
            if browsing == window { return [] }
            element = entry
            page = true
        }
        guard mirrored.stops.contains(element) else { return [] }
        if activating == window { activating = nil }
        // (The echo of a focus browse mode gave, come late, leaves the caret's mark standing: the
        // page document's focus that the caret's move brings next is still no page entered.)
        if let echo = awaitedEcho, echo.window == window, echo.path == path {
            awaitedEcho = nil
            return []
        }
        awaitedEcho = nil
        if let last = lastFocus, last.window == window, last.path == path { return [] }
        let entering = focusedWindow != window
        focusedWindow = window
        browsing = nil
        lastFocus = (window, path)
        enteredPage = page ? window : nil
        // A page entered under a title Narrator has not said (the window it is in was entered
        // before the page loaded): the title first, as entering the window says it.
        if page, !entering, saidTitles[window] != mirrored.document.title {
            saidTitles.updateValue(mirrored.document.title, forKey: window)
            return [.enterPage(tree: mirrored.tree, root: mirrored.document.root.id, title: mirrored.document.title, element: element)]
        }
        if entering { saidTitles.updateValue(mirrored.document.title, forKey: window) }
        return [.focus(tree: mirrored.tree, element: element)]
    }

    /// The window became the active one (`window:activate`): Narrator's focus enters its tree,
    /// which says its title, on the object the application has focused. Toolkits move the focus
    /// into a window just after activating it, so when no object is focused yet the mirror waits
    /// for that focus event (``focusMoved(_:path:)`` then enters the tree on it) rather than enter
    /// on a guess and be corrected a moment later, which would cut the title off.
    public mutating func windowActivated(_ window: WindowID) -> [Effect] {
        browsing = nil
        guard let mirrored = windows[window] else { return [] }
        if let focused = mirrored.focused, mirrored.stops.contains(ATSPIMapping.id(of: focused)) || mirrored.entries[ATSPIMapping.id(of: focused)] != nil {
            activating = nil
            return focusMoved(window, path: focused)
        }
        activating = window
        return []
    }

    /// The moment for the activated window's focus event has passed (the shell's timer): with
    /// none, Narrator's focus enters the tree where it last was in it, else at its first stop.
    public mutating func activationSettled(_ window: WindowID) -> [Effect] {
        guard activating == window, let mirrored = windows[window] else { return [] }
        activating = nil
        lastFocus = nil
        enteredPage = nil
        focusedWindow = window
        saidTitles.updateValue(mirrored.document.title, forKey: window)
        return [.focus(tree: mirrored.tree, element: nil)]
    }

    // MARK: Acting for narratord

    /// narratord asked the trees' owner to act on an element (`activate`, a named action, or an
    /// adjustment of an element without a declarative value).
    public mutating func ownerAction(tree: String, element: String, action: String) -> [Effect] {
        guard let (id, window) = window(showing: tree) else { return [] }
        let path = ATSPIMapping.path(of: element)
        let available = window.actions[element] ?? []
        switch action {
        case "activate":
            if let primary = ATSPIMapping.defaultAction(in: available) { return [.perform(id, path: path, action: primary)] }
            return [.grabFocus(id, path: path)]
        case "increment", "decrement":
            let wanted = action == "increment" ? "increase" : "decrease"
            if let found = available.first(where: { $0.lowercased() == wanted }) { return [.perform(id, path: path, action: found)] }
            return []
        default:
            guard let found = available.first(where: { $0 == action }) ?? available.first(where: { $0.lowercased() == action.lowercased() }) else {
                return []
            }
            return [.perform(id, path: path, action: found)]
        }
    }

    /// A user moved Narrator's focus to an element of a mirrored window (narratord's `focus`
    /// event): the application's focus follows where the element can take it, and the focus
    /// event that comes back from the application says nothing more.
    public mutating func ownerFocus(tree: String, element: String) -> [Effect] {
        guard let (id, window) = window(showing: tree), window.focusable.contains(element) else { return [] }
        let path = ATSPIMapping.path(of: element)
        if focusedWindow != id { saidTitles.updateValue(window.document.title, forKey: id) }
        focusedWindow = id
        lastFocus = (id, path)
        awaitedEcho = (id, path)
        enteredPage = nil
        return [.grabFocus(id, path: path)]
    }

    /// Whether a focus event for `path` is the one Narrator's own move of the focus awaits.
    public func awaitsFocus(_ window: WindowID, path: String) -> Bool {
        guard let echo = awaitedEcho else { return false }
        return echo.window == window && echo.path == path
    }

    /// narratord changed a declarative value (`adjust up` on a slider): the application's
    /// Value follows.
    public mutating func ownerValue(tree: String, element: String, value: Double) -> [Effect] {
        guard let (id, _) = window(showing: tree) else { return [] }
        return [.setValue(id, path: ATSPIMapping.path(of: element), value: value)]
    }

    // MARK: Helpers

    static let alertRoles: Set<ATSPIRole> = [.alert, .notification, .infoBar]

    /// The alerts on show in a window (the window itself, when it is one), each with what it
    /// says: its name and the texts inside it, once each ("Warning, Disk almost full"). A GTK
    /// bar says its message in a label's name; Firefox's notification bar (a pop-up blocked) in
    /// the text of a section without a name, which is read as a page's paragraph is.
    static func alerts(in snapshot: AccessibleSnapshot) -> [(path: String, text: String)] {
        var found: [(path: String, text: String)] = []
        func visit(_ node: AccessibleSnapshot, isWindow: Bool) {
            guard isWindow || node.states.contains(.showing) else { return }
            if alertRoles.contains(node.role) {
                var texts: [String] = []
                func collect(_ n: AccessibleSnapshot, isAlert: Bool) {
                    var text = n.name.trimmingWhitespace
                    if text.isEmpty, n.role != .label, ATSPIMapping.textRoles.contains(n.role), let own = n.text {
                        text = ATSPIMapping.runs(of: own).compactMap { $0 }.joined(separator: " ")
                    }
                    let says = isAlert || n.role == .label || (n.name.trimmingWhitespace.isEmpty && ATSPIMapping.textRoles.contains(n.role))
                    if !text.isEmpty, !texts.contains(text), says { texts.append(text) }
                    for child in n.children where child.states.contains(.showing) { collect(child, isAlert: false) }
                }
                collect(node, isAlert: true)
                if !texts.isEmpty { found.append((node.path, texts.joined(separator: ", "))) }
                return
            }
            for child in node.children { visit(child, isWindow: false) }
        }
        visit(snapshot, isWindow: true)
        return found
    }

    /// Whether an update changes what its element says (narratord speaks it only when the
    /// element is focused): a frame or a hint moving is not worth interrupting for, and neither is
    /// the focused element giving up the choice of a single-choice group (see `gaveUpChoice`).
    static func heard(_ change: TreeDiff.Change) -> Bool {
        guard case .setProperties(_, let properties) = change.update, case .object(let changed) = properties,
            changed.members.contains(where: { ["label", "value", "traits", "adjustable"].contains($0.key) })
        else { return false }
        guard let old = change.before, let new = change.after else { return true }
        return !gaveUpChoice(from: old, to: new)
    }

    /// A tab no longer selected, a radio button no longer checked, and nothing else it says
    /// changed. One tab of a tab list and one button of a radio group is always the chosen one, so
    /// this is the choice moving to a sibling (Right in a tab list, Down in a radio group), whose
    /// focus speech comes next and says "selected": speaking the old one first ("General, tab,
    /// 1 of 2") is a stale focus read out. Orca likewise keeps quiet about a selection that
    /// follows the focus.
    static func gaveUpChoice(from old: Node, to new: Node) -> Bool {
        guard old.label == new.label else { return false }
        if old.traits.contains(.tab), old.traits.contains(.selected), !new.traits.contains(.selected) {
            return old.value == new.value
        }
        if old.traits.contains(.radioButton), old.value == ATSPIMapping.checkedValue, new.value != ATSPIMapping.checkedValue {
            return old.traits == new.traits
        }
        return false
    }

    static func actions(in snapshot: AccessibleSnapshot) -> [String: [String]] {
        var actions: [String: [String]] = [:]
        func visit(_ node: AccessibleSnapshot) {
            if !node.actions.isEmpty { actions[ATSPIMapping.id(of: node.path)] = node.actions }
            node.children.forEach(visit)
        }
        visit(snapshot)
        return actions
    }

    static func focusable(in snapshot: AccessibleSnapshot) -> Set<String> {
        var ids: Set<String> = []
        func visit(_ node: AccessibleSnapshot) {
            if node.states.contains(.focusable) { ids.insert(ATSPIMapping.id(of: node.path)) }
            node.children.forEach(visit)
        }
        visit(snapshot)
        return ids
    }

    /// The path of the object with the `focused` state, if any.
    static func focused(in snapshot: AccessibleSnapshot) -> String? {
        snapshot.first { $0.states.contains(.focused) }?.path
    }

    /// The first stop inside each web document of the window, by the document's id.
    static func entries(in snapshot: AccessibleSnapshot, tree: AccessibilityTree) -> [String: String] {
        var documents: [String] = []
        func visit(_ node: AccessibleSnapshot) {
            if node.role == .documentWeb || node.role == .documentFrame { documents.append(ATSPIMapping.id(of: node.path)) }
            node.children.forEach(visit)
        }
        visit(snapshot)
        guard !documents.isEmpty else { return [:] }
        var entries: [String: String] = [:]
        for id in documents {
            guard let first = (0..<tree.stops.count).first(where: { tree.isStop($0, inside: id) }) else { continue }
            entries[id] = tree.stopID(at: first)
        }
        return entries
    }

    static func stops(of tree: AccessibilityTree) -> Set<String> {
        return Set((0..<tree.stops.count).map { tree.stopID(at: $0) })
    }
}
