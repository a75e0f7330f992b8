import NarratorModel

/// What browse mode asks of the mirror: whether Narrator's focus is on a document's text (where
/// a letter is Narrator's key) or in a field (where it is the page's), the window's title, and
/// the application's focus or caret following Narrator's cursor.
extension ATSPIMirror {
    /// Traits of an element that takes typing or its own arrow keys: there the keys reach it.
    static let takesKeys = Traits([.textField, .searchField, .comboBox, .adjustable, .allowsDirectInteraction])

    /// Whether `element` of `tree` is in a web document (a window with a document entered on its
    /// first stop).
    public func isInPage(tree: String, element: String) -> Bool {
        guard let id = document(in: tree, holding: element), let window = windows.values.first(where: { $0.tree == tree }) else { return false }
        return window.document.root.find(id)?.find(element) != nil
    }

    /// Whether `element` of `tree` is a field, combo box or slider that wants the keys itself:
    /// the user who Tabs into a field types into it (focus mode), while one whose cursor browse
    /// mode put there reads on past it.
    public func takesKeys(tree: String, element: String) -> Bool {
        guard let node = windows.values.first(where: { $0.tree == tree })?.document.root.find(element) else { return false }
        return !node.traits.isDisjoint(with: Self.takesKeys)
    }

    /// The first or last stop of the web document holding `element` in `tree` (the window's
    /// first document when `element` is in none): browse mode's Control+Home and Control+End stay
    /// in the page, not the browser's toolbar.
    public func documentEnd(_ end: Workspace.Move, tree: String, element: String?) -> String? {
        guard let window = windows.values.first(where: { $0.tree == tree }), let id = document(in: tree, holding: element),
            let document = window.document.root.find(id)
        else { return nil }
        if end == .first, let entry = window.entries[id] { return entry }
        var last: String?
        func visit(_ node: Node) {
            if window.stops.contains(node.id) { last = node.id }
            node.children.forEach(visit)
        }
        visit(document)
        return last
    }

    /// The id of the web document of `tree` holding `element`, else the window's first one; nil
    /// in a window that shows none.
    public func document(in tree: String, holding element: String?) -> String? {
        guard let window = windows.values.first(where: { $0.tree == tree }) else { return nil }
        let documents = window.entries.keys.sorted().compactMap { window.document.root.find($0) }
        return (documents.first { node in element.map { node.find($0) != nil } ?? false } ?? documents.first)?.id
    }

    /// The title of the window whose tree is `tree`.
    public func title(of tree: String) -> String? {
        windows.values.first { $0.tree == tree }?.document.title
    }

    /// Browse mode moved Narrator's cursor to `element`: the application's focus follows where
    /// the element can take it (a link, a button, a field), and otherwise its caret moves to the
    /// element's start, so that Tab goes on from there as it does after Orca's structural keys.
    public mutating func browsed(tree: String, element: String) -> [Effect] {
        guard let (id, window) = windows.first(where: { $0.value.tree == tree }) else { return [] }
        if window.focusable.contains(element) { return ownerFocus(tree: tree, element: element) }
        browsing = id
        return [.setCaret(id, path: ATSPIMapping.path(of: element))]
    }
}
