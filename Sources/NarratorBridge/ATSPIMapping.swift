import NarratorModel

/// How an application's AT-SPI2 objects become a Narrator tree: one tree per top-level window,
/// each accessible a node (docs/atspi.md has the table). Pure, so that every rule is tested
/// without a desktop; the AT-SPI bridge reads the snapshots and registers what this returns.
public enum ATSPIMapping {
    /// The traits an object's role brings (none for containers: frames, panels, fillers...).
    public static func traits(of role: ATSPIRole) -> Traits {
        switch role {
        case .pushButton, .pushButtonMenu: Traits(.button)
        case .toggleButton: Traits([.toggle, .button])
        case .checkBox: Traits(.checkBox)
        case .checkMenuItem: Traits([.checkBox, .menuItem])
        case .radioButton: Traits(.radioButton)
        case .radioMenuItem: Traits([.radioButton, .menuItem])
        case .comboBox: Traits(.comboBox)
        case .text, .entry, .passwordText: Traits(.textField)
        case .slider, .spinButton, .scrollBar: Traits(.adjustable)
        case .label, .static, .caption, .paragraph: Traits(.staticText)
        case .heading: Traits(.header)
        case .link: Traits(.link)
        case .image, .icon, .animation: Traits(.image)
        case .menu, .popupMenu: Traits(.menu)
        case .menuItem, .tearoffMenuItem: Traits(.menuItem)
        case .listItem, .treeItem: Traits(.listItem)
        case .pageTab: Traits(.tab)
        case .pageTabList: Traits(.tabBar)
        case .progressBar, .levelBar: Traits(.progressBar)
        case .dialog, .fileChooser, .colorChooser, .fontChooser: Traits(.dialog)
        case .alert, .notification: Traits(.alert)
        default: []
        }
    }

    /// The traits an object's states bring, given the traits of its role.
    public static func traits(of states: ATSPIStates, role: Traits) -> Traits {
        var traits: Traits = []
        // GTK 3 and Qt clear both for a widget that cannot be used; GTK 4 never reports `enabled`,
        // and LibreOffice's paragraphs never `sensitive`: one of them is enough.
        if !states.contains(.enabled) && !states.contains(.sensitive) { traits.insert(.notEnabled) }
        // A selected check box or tab says so once: the check box by its value, the tab by "selected".
        if states.contains(.selected), role.intersection(.checkable).isEmpty, !role.contains(.toggle) { traits.insert(.selected) }
        if states.contains(.expandable) || states.contains(.expanded) || states.contains(.collapsed) {
            traits.insert(states.contains(.expanded) ? .expanded : .collapsed)
        }
        // A text that cannot be edited is read, not typed into.
        if role.contains(.textField), !states.contains(.editable) {
            traits.remove(.textField)
            traits.insert(.staticText)
        }
        return traits
    }

    /// Narrator's id for an object: its path without AT-SPI's common prefix ("12", "root").
    public static func id(of path: String) -> String {
        path.hasPrefix(pathPrefix) && path.count > pathPrefix.count ? String(path.dropFirst(pathPrefix.count)) : path
    }

    /// The object path an id stands for (the inverse of ``id(of:)``).
    public static func path(of id: String) -> String {
        id.hasPrefix("/") ? id : pathPrefix + id
    }

    static let pathPrefix = "/org/a11y/atspi/accessible/"

    /// The action Narrator's `activate` performs: the first of the toolkits' usual default
    /// actions (GTK's click, press, activate, toggle; Qt's Press, Toggle), else the first one.
    public static func defaultAction(in actions: [String]) -> String? {
        for usual in ["click", "press", "activate", "toggle", "jump", "open"] {
            if let found = actions.first(where: { $0.lowercased() == usual }) { return found }
        }
        return actions.first { !ignoredActions.contains($0.lowercased()) }
    }

    /// Actions that are not the user's to choose: focusing is what navigation does.
    static let ignoredActions: Set<String> = ["setfocus"]

    /// The tree of one top-level window: named "application: window" (unique among `taken`,
    /// with " (2)" and so on), titled with the window's name, each object a node.
    public static func document(
        window: AccessibleSnapshot, application: String, taken: Set<String> = [], dialect: ATSPIDialect = .gtk3, limits: DocumentLimits = .default
    ) -> TreeDocument {
        mapped(window: window, application: application, taken: taken, dialect: dialect, limits: limits).document
    }

    /// The tree of one top-level window, with what the toolkit reported that no document may
    /// hold and what was made of it instead: whatever the toolkit says, the document is one
    /// narratord takes.
    public static func mapped(
        window: AccessibleSnapshot, application: String, taken: Set<String> = [], dialect: ATSPIDialect = .gtk3, limits: DocumentLimits = .default
    ) -> (document: TreeDocument, oddities: [ATSPIOddity]) {
        var context = MappingContext(limits: limits, dialect: dialect, window: window.name.trimmingWhitespace)
        collect(window, context: &context)
        var root = node(for: window, parent: nil, inDocument: false, context: &context) ?? Node(id: id(of: window.path))
        // The window is the tree's root: its frame is the screen's, its name the title.
        root.isElement = root.children.isEmpty ? nil : false
        var windowName = window.name
        if windowName.unicodeScalars.contains(where: isControl) {
            context.note(window, .controlCharacterInName)
            windowName = String(String.UnicodeScalarView(windowName.unicodeScalars.map { isControl($0) ? " " : $0 }))
        }
        let name = treeName(application: clean(application), window: context.cut(windowName.trimmingWhitespace, field: "name", of: window), taken: taken)
        var title = title(of: window)
        if let full = title { title = context.cut(full, field: "title", of: window) }
        return (TreeDocument(name: name, title: title, root: root), context.oddities)
    }

    /// What the mapping carries from object to object: every object's name (labels name
    /// others), the ids already used, and the oddities met.
    struct MappingContext {
        let limits: DocumentLimits
        let dialect: ATSPIDialect
        /// The window's name: GTK names a dialog's stock icon after its kind ("Question",
        /// "Warning"), which the dialog's title already says, so such an icon is no stop.
        let window: String
        var names: [String: String] = [:]
        /// The paths of objects that label another one: a label that names a field is read as
        /// part of the field ("Name, Ada, text field"), not once more on its own.
        var labels: Set<String> = []
        var ids: Set<String> = []
        var oddities: [ATSPIOddity] = []
        /// The place of each cell of the tables mapped so far, by id (set as a table is reached, read as its cells are).
        var cells: [String: TableCell] = [:]

        mutating func note(_ snapshot: AccessibleSnapshot, _ kind: ATSPIOddity.Kind) {
            oddities.append(ATSPIOddity(element: ATSPIMapping.id(of: snapshot.path), role: snapshot.role, kind: kind))
        }

        /// `text` within the limit for `field` (a value may be longer than a label: an editor's text).
        mutating func cut(_ text: String, field: String, of snapshot: AccessibleSnapshot) -> String {
            let limit = field == "value" ? limits.valueLimit : limits.maxStringLength
            guard text.utf8.count > limit, text.count > limit else { return text }
            note(snapshot, .longText(field: field, characters: text.count, limit: limit))
            return String(text.prefix(limit))
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }

    /// An application's name, fit to name a tree: control characters as spaces, never empty.
    static func clean(_ application: String) -> String {
        String(String.UnicodeScalarView(application.unicodeScalars.map { isControl($0) ? " " : $0 })).trimmingWhitespace
    }

    /// What is said when focus enters the window: its name, and for a dialog or an alert that it
    /// is one ("Question, dialog"), since the window itself is a container and never a stop.
    public static func title(of window: AccessibleSnapshot) -> String? {
        let name = window.name.trimmingWhitespace
        guard !name.isEmpty else { return nil }
        let role = traits(of: window.role)
        let phrases = PhraseTable.english
        if role.contains(.dialog) { return name + ", " + phrases[.dialog] }
        if role.contains(.alert) { return name + ", " + phrases[.alert] }
        return name
    }

    /// "zenity: Question", or "zenity" for a window without a name; " (2)" for a second one.
    public static func treeName(application: String, window: String, taken: Set<String>) -> String {
        let app = application.isEmpty ? "application" : application
        let base = window.isEmpty ? app : "\(app): \(window)"
        guard taken.contains(base) else { return base }
        var number = 2
        while taken.contains("\(base) (\(number))") { number += 1 }
        return "\(base) (\(number))"
    }

    /// Every object's name by path, and the paths of the objects that label another one.
    static func collect(_ snapshot: AccessibleSnapshot, context: inout MappingContext) {
        let name = ownName(of: snapshot, dialect: context.dialect)
        if !name.isEmpty { context.names[snapshot.path] = name }
        context.labels.formUnion(snapshot.labelledBy)
        for child in snapshot.children { collect(child, context: &context) }
    }

    /// The object's own name, as the user should hear it: without the padding GTK puts after a
    /// menu item's name, and in GTK 4 without the widget's class standing for a name ("GtkButton")
    /// or a label's text said twice ("4 4").
    static func ownName(of snapshot: AccessibleSnapshot, dialect: ATSPIDialect) -> String {
        let name = snapshot.name.trimmingWhitespace
        guard dialect.namesByClass, !name.isEmpty else { return name }
        if isClassName(name) { return "" }
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        if words.count % 2 == 0, words.count >= 2 {
            let half = words.count / 2
            if Array(words[..<half]) == Array(words[half...]) { return words[..<half].joined(separator: " ") }
        }
        return name
    }

    /// A widget class's name ("GtkButton", "AdwGizmo", "HistoryView"): one word in CamelCase,
    /// two humps at least, letters and digits only.
    static func isClassName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first),
            name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        else { return false }
        let humps = name.unicodeScalars.enumerated().filter { index, scalar in
            index > 0 && ("A"..."Z").contains(scalar)
        }
        return !humps.isEmpty && name.unicodeScalars.contains { ("a"..."z").contains($0) }
    }

    /// The names of what a control shows inside it (GTK 4 puts a button's label in a child),
    /// for a control that has no name of its own.
    static func content(of snapshot: AccessibleSnapshot, context: MappingContext) -> String? {
        var parts: [String] = []
        func visit(_ node: AccessibleSnapshot) {
            for child in node.children {
                let name = ownName(of: child, dialect: context.dialect)
                let text = name.isEmpty && child.role == .label ? (child.text ?? "").trimmingWhitespace : name
                if !text.isEmpty, !parts.contains(text) { parts.append(text) } else { visit(child) }
            }
        }
        visit(snapshot)
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// Whether something inside `snapshot` takes the focus itself (GTK 4's menu button holds the
    /// button that does): then `snapshot` is a container, not the control.
    static func holdsAControl(_ snapshot: AccessibleSnapshot) -> Bool {
        snapshot.children.contains { $0.states.contains(.focusable) || holdsAControl($0) }
    }

    /// The node for `snapshot` and its subtree, its frame in its parent's space; nil for an
    /// object already mirrored elsewhere in the window (two parents listing it).
    ///
    /// - Parameter parent: the space the parent places its children in (`.some(nil)`: none); nil for the window.
    static func node(for snapshot: AccessibleSnapshot, parent: Rect??, inDocument: Bool, context: inout MappingContext) -> Node? {
        let nodeID = id(of: snapshot.path)
        guard context.ids.insert(nodeID).inserted else {
            context.note(snapshot, .repeatedObject)
            return nil
        }
        let roleTraits = traits(of: snapshot.role)
        var traits = roleTraits.union(traits(of: snapshot.states, role: roleTraits))
        if traits.contains(.staticText) { traits.remove(.textField) }
        var node = Node(id: nodeID, traits: traits)
        var label = label(of: snapshot, context: context)
        // A control with nothing else to call it by is called by what it shows, else by what it
        // is for: its description ("Primary menu"), which is then no hint.
        var describes = false
        if label == nil, !traits.intersection(Self.namedByContent).isEmpty { label = content(of: snapshot, context: context) }
        if label == nil, !traits.intersection(.needsLabel).isEmpty, !snapshot.description.trimmingWhitespace.isEmpty {
            label = snapshot.description.trimmingWhitespace
            describes = true
        }
        // A web page's paragraph says its text; a text with children in it (a link inside a
        // paragraph) is read as its runs between them, below.
        let runs = value(of: snapshot, traits: traits) == nil ? snapshot.text.map(runs(of:)) : nil
        if label == nil, snapshot.children.isEmpty, let runs {
            let text = runs.compactMap { $0 }.joined(separator: " ")
            if !text.isEmpty { label = text }
        }
        node.label = label.map { context.cut($0, field: "name", of: snapshot) }
        let value = value(of: snapshot, traits: traits)
        node.value = value.map { context.cut($0, field: "value", of: snapshot) }
        // A selection in a field's text ("Name, Ada, selected, text field": typing replaces it),
        // and the caret of an empty field, so that the caret it reports as it takes the focus is
        // no move (it would say "blank" after the focus).
        let fieldText = node.value ?? (snapshot.states.contains(.editable) && (snapshot.text ?? "").isEmpty ? "" : nil)
        if let text = fieldText, value == snapshot.text, let selection = snapshot.selection {
            if selection.location >= 0, selection.length >= 0, selection.location + selection.length <= text.unicodeScalars.count {
                node.selectedTextRange = selection
            } else {
                context.note(snapshot, .selection(selection))
            }
        }
        if let level = snapshot.level, traits.contains(.header), (1...6).contains(level) { node.headingLevel = level }
        if let position = snapshot.position {
            if position.index >= 1, position.index <= position.count { node.positionInSet = position } else { context.note(snapshot, .position(position)) }
        }
        if traits.contains(.adjustable), let value = snapshot.value {
            node.adjustable = adjustable(value, of: snapshot, context: &context)
        }
        // GTK describes a scale by its value ("40"): a description that says the name or the
        // value again is no hint.
        let description = snapshot.description.trimmingWhitespace
        let said = [node.label, node.value, node.adjustable?.spoken()].compactMap { $0 }
        if !describes, !description.isEmpty, !said.contains(description) { node.hint = context.cut(description, field: "description", of: snapshot) }
        // What is not on screen (a notebook's other pages) is hidden; the window itself never is.
        // A web page keeps what is scrolled away `visible` but not `showing`, and it is there to
        // be read; GTK 4 never says `showing`, and a closed popover is `visible` at 0 x 0.
        let inDocument = inDocument || snapshot.role == .documentWeb || snapshot.role == .documentFrame
        if inDocument { markRegions(&node, of: snapshot) }
        let onShow: Bool
        if inDocument {
            onShow = snapshot.states.contains(.visible) || snapshot.states.contains(.showing)
        } else if context.dialect.reportsShowing {
            onShow = snapshot.states.contains(.showing)
        } else {
            onShow = snapshot.states.contains(.visible) && !(snapshot.extents.map { $0.width == 0 && $0.height == 0 } ?? false)
        }
        node.hidden = parent != nil && !onShow
        node.modal = roleTraits.contains(.dialog) || snapshot.states.contains(.modal)
        let extents = onScreen(snapshot.extents)
        if let reported = snapshot.extents, extents == nil, !isOffScreenMark(reported) { context.note(snapshot, .extents(reported)) }
        if let extents {
            if let parentExtents = parent ?? nil {
                node.frame = Rect(x: extents.x - parentExtents.x, y: extents.y - parentExtents.y, width: extents.width, height: extents.height)
            } else {
                node.frame = extents
            }
        }
        let primary = defaultAction(in: snapshot.actions)
        var actions: [String] = []
        for action in snapshot.actions where action != primary && !ignoredActions.contains(action.lowercased()) {
            if action.isEmpty || actions.contains(action) {
                context.note(snapshot, .badAction(action))
            } else {
                actions.append(context.cut(action, field: "action", of: snapshot))
            }
        }
        node.actions = actions
        if context.labels.contains(snapshot.path), traits.contains(.staticText) { node.isElement = false }
        if snapshot.role == .icon, !snapshot.states.contains(.focusable), !context.window.isEmpty, node.label == context.window { node.isElement = false }
        // A row or cell without a name of its own is read by what it shows.
        if node.label == nil, !snapshot.children.isEmpty, !traits.intersection(Traits([.listItem, .menuItem])).isEmpty {
            node.childBehavior = .combine
        }
        // A text field is one stop: the icons GTK puts inside an entry are part of it, as Orca reads them.
        if traits.contains(.textField), !snapshot.children.isEmpty { node.childBehavior = .ignore }
        // So is a closed combo box (a web page's select): its label, its role and the option
        // chosen, not each option as a stop of its own. Opened, its options are read as a list.
        if traits.contains(.comboBox), !snapshot.children.isEmpty, !traits.contains(.expanded) {
            node.childBehavior = .ignore
            if node.value == nil, let chosen = chosenOption(in: snapshot) { node.value = context.cut(chosen, field: "value", of: snapshot) }
        }
        // So is a button: what it shows inside it (GTK 4's label and icon) is its name, not more
        // stops; one that holds a control of its own (GTK 4's menu button) is only its container.
        if !traits.intersection(Traits([.button, .toggle])).isEmpty, !snapshot.children.isEmpty {
            if holdsAControl(snapshot) { node.isElement = false } else { node.childBehavior = .ignore }
        }
        // A table of rows (a web page's); a toolkit's table without rows stays a container.
        if snapshot.role == .table, case let layout = tableLayout(snapshot), layout.size.rows > 0 {
            node.table = layout.size
            node.label = tableName(snapshot, context: context).map { context.cut($0, field: "name", of: snapshot) }
            context.cells.merge(layout.cells) { _, new in new }
        }
        if let cell = context.cells[nodeID] {
            node.tableCell = cell
            node.cellHeader = cellHeader(of: snapshot.role)
        }
        // Children are placed in this node's space, or in the nearest ancestor's that has one.
        let space: Rect? = extents ?? (parent ?? nil)
        var children = pagesAfterTheirTabs(snapshot.children).compactMap {
            self.node(for: $0, parent: .some(space), inDocument: inDocument, context: &context)
        }
        if !children.isEmpty, let runs, runs.count > 1, node.label == nil {
            children = interleave(runs, with: children, id: nodeID)
        }
        node.children = children
        // A text that says nothing (an empty result line), or an alert with nothing in it
        // (Firefox's region for its own announcements), is no stop.
        if node.label == nil, node.value == nil, children.isEmpty,
            traits.subtracting(Traits([.notEnabled])) == Traits(.staticText) || traits.subtracting(Traits([.notEnabled])) == Traits(.alert)
        {
            node.isElement = false
        }
        return node
    }

    /// A Value as a declarative adjustable value the daemon takes: bounds the right way round,
    /// the value within them, a step above zero.
    static func adjustable(_ value: ATSPIValue, of snapshot: AccessibleSnapshot, context: inout MappingContext) -> AdjustableValue? {
        guard value.current.isFinite else {
            context.note(snapshot, .valueOutOfBounds(value))
            return nil
        }
        var minimum: Double? = value.minimum.isFinite ? value.minimum : nil
        var maximum: Double? = value.maximum.isFinite ? value.maximum : nil
        var odd = false
        if let low = minimum, let high = maximum, low > high {
            odd = true
            (minimum, maximum) = (high, low)
        }
        var current = value.current
        if let low = minimum, current < low { current = low; odd = true }
        if let high = maximum, current > high { current = high; odd = true }
        if odd { context.note(snapshot, .valueOutOfBounds(value)) }
        let range = (maximum ?? 0) - (minimum ?? 0)
        let step = value.increment.isFinite && value.increment > 0 ? value.increment : max(range.isFinite ? range / 20 : 1, 1)
        return AdjustableValue(value: current, min: minimum, max: maximum, step: step)
    }

    /// GTK puts a notebook's pages inside their page tabs; a tab with children would be a
    /// container, never a stop. Each tab becomes a stop of its own ("General, tab, 1 of 2") and
    /// the pages follow the tab list, in order (the ones not shown are hidden).
    static func pagesAfterTheirTabs(_ children: [AccessibleSnapshot]) -> [AccessibleSnapshot] {
        guard children.contains(where: { $0.role == .pageTabList }) else { return children }
        var arranged: [AccessibleSnapshot] = []
        for child in children {
            guard child.role == .pageTabList else {
                arranged.append(child)
                continue
            }
            var list = child
            var pages: [AccessibleSnapshot] = []
            list.children = child.children.map { tab in
                guard tab.role == .pageTab else { return tab }
                pages += tab.children
                var bare = tab
                bare.children = []
                return bare
            }
            arranged.append(list)
            arranged += pages
        }
        return arranged
    }

    /// Extents that are a rectangle on screen: not GTK's mark of a widget that is not on screen
    /// (x = y = INT32_MIN), nor a negative size (-1 x -1 for a widget never laid out) or a
    /// coordinate that is no number.
    static func onScreen(_ extents: Rect?) -> Rect? {
        guard let extents, !isOffScreenMark(extents), extents.width >= 0, extents.height >= 0,
            extents.x.isFinite, extents.y.isFinite, extents.width.isFinite, extents.height.isFinite
        else { return nil }
        return extents
    }

    /// GTK's extents for a widget that is not on screen: x = y = INT32_MIN (no oddity).
    static func isOffScreenMark(_ extents: Rect) -> Bool {
        extents.x <= -2_147_483_648 || extents.y <= -2_147_483_648
    }

    /// The object's name, else the names of the objects that label it, else a text field's
    /// placeholder (what Orca says of a field GTK gives no name).
    static func label(of snapshot: AccessibleSnapshot, context: MappingContext) -> String? {
        let own = ownName(of: snapshot, dialect: context.dialect)
        if !own.isEmpty { return own }
        let labels = snapshot.labelledBy.compactMap { context.names[$0] }.filter { !$0.isEmpty }
        if !labels.isEmpty { return labels.joined(separator: " ") }
        let placeholder = snapshot.placeholder?.trimmingWhitespace ?? ""
        return placeholder.isEmpty ? nil : placeholder
    }

    /// Roles whose text (the Text interface) is what they say when they have no name: a web
    /// page's paragraphs and sections, a heading, a label, a cell.
    public static let textRoles: Set<ATSPIRole> = [
        .paragraph, .heading, .static, .label, .caption, .section, .listItem, .tableCell, .columnHeader, .rowHeader, .text, .header, .footer, .blockQuote,
        .article, .form, .landmark, .documentWeb, .entry,
    ]

    /// The object replacement character: where a web page's text holds one of its children (a
    /// link inside a paragraph).
    static let embedded: Unicode.Scalar = "\u{FFFC}"

    /// The runs of a text between its embedded objects ("Read the ￼ first" has two), each
    /// trimmed; an empty run is nil, so that the runs line up with the children.
    static func runs(of text: String) -> [String?] {
        text.unicodeScalars.split(separator: embedded, omittingEmptySubsequences: false).map { run in
            let said = String(String.UnicodeScalarView(run)).trimmingWhitespace
            return said.isEmpty ? nil : said
        }
    }

    /// A text's runs between its embedded objects, each a static text of its own (its id the
    /// text's and its place: "12~0"), in order with the children they stand between.
    static func interleave(_ runs: [String?], with children: [Node], id: String) -> [Node] {
        // Each node, and whether it is a run of the text's own words.
        var result: [(node: Node, run: Bool)] = []
        for (index, run) in runs.enumerated() {
            if let run { result.append((Node(id: "\(id)~\(index)", label: run, traits: Traits(.staticText)), true)) }
            if index < children.count, index < runs.count - 1 { result.append((children[index], false)) }
        }
        if children.count > runs.count - 1 { result += children[(runs.count - 1)...].map { ($0, false) } }
        // Inline text (an <em> inside a sentence) is read with the words around it: one stop. Two
        // children side by side with no words of the text between them are blocks of their own
        // (two paragraphs of a section), each its own stop.
        var merged: [(node: Node, run: Bool)] = []
        for (node, run) in result {
            if let last = merged.last, last.run || run, isPlainText(last.node), isPlainText(node), let before = last.node.label, let after = node.label {
                merged[merged.count - 1].node.label = before + (Self.joinsWithoutSpace(after) ? "" : " ") + after
                merged[merged.count - 1].run = true
            } else {
                merged.append((node, run))
            }
        }
        return merged.map(\.node)
    }

    /// A static text and nothing more: no children, no actions, no other trait, no paragraph of its own.
    static func isPlainText(_ node: Node) -> Bool {
        node.traits == Traits(.staticText) && node.children.isEmpty && node.actions.isEmpty && node.label != nil && node.isElement != false
            && !node.isPageRegion
    }

    /// The name of the option selected among a combo box's descendants (a select's options sit
    /// in a menu or list under it), if one is.
    static func chosenOption(in snapshot: AccessibleSnapshot) -> String? {
        for child in snapshot.children {
            if child.states.contains(.selected), [.menuItem, .listItem].contains(child.role), !child.name.trimmingWhitespace.isEmpty {
                return child.name.trimmingWhitespace
            }
            if let found = chosenOption(in: child) { return found }
        }
        return nil
    }

    /// Punctuation that follows a word without a space (", under History.").
    static func joinsWithoutSpace(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return true }
        return ".,;:!?)".unicodeScalars.contains(first)
    }

    /// Controls whose name is what they show, when they have none of their own.
    static let namedByContent = Traits([.button, .toggle, .link, .tab, .checkBox, .radioButton])

    /// The value of what can be checked when it is checked (pressed, for a toggle button), and
    /// when it is not: narratord says them as "checked" and "not checked".
    static let checkedValue = "1", uncheckedValue = "0"

    /// What the object's value is read as: checked or not for what can be checked, the text of a
    /// field, the position of a progress bar; adjustables get a declarative value instead.
    static func value(of snapshot: AccessibleSnapshot, traits: Traits) -> String? {
        if !traits.intersection(.checkable).isEmpty || traits.contains(.toggle) {
            if snapshot.states.contains(.indeterminate) { return "mixed" }
            return snapshot.states.contains(.checked) || snapshot.states.contains(.pressed) ? checkedValue : uncheckedValue
        }
        if traits.contains(.textField) || traits.contains(.comboBox) {
            guard let text = snapshot.text, !text.isEmpty else { return nil }
            return snapshot.role == .passwordText ? nil : text
        }
        if traits.contains(.progressBar), let value = snapshot.value {
            return ValueFormat.percent.render(value.current, min: value.minimum, max: value.maximum, decimalSeparator: ".")
        }
        return nil
    }
}
