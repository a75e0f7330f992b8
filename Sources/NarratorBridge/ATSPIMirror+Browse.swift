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
        window(showing: tree)?.window.pages[element] != nil
    }

    /// Whether `element` of `tree` is a field, combo box or slider that wants the keys itself:
    /// the user who Tabs into a field types into it (focus mode), while one whose cursor browse
    /// mode put there reads on past it.
    public func takesKeys(tree: String, element: String) -> Bool {
        window(showing: tree)?.window.takingKeys.contains(element) ?? false
    }

    /// Each element of a read window's web documents with its document, and the elements that
    /// take keys: one walk of the document as it is read, so that no key walks it.
    static func browseIndex(of document: TreeDocument, entries: [String: String]) -> (pages: [String: String], takingKeys: Set<String>) {
        var pages: [String: String] = [:]
        var taking: Set<String> = []
        func visit(_ node: Node, page: String?) {
            let page = entries[node.id] != nil ? node.id : page
            if let page { pages[node.id] = page }
            if !node.traits.isDisjoint(with: takesKeys) { taking.insert(node.id) }
            for child in node.children { visit(child, page: page) }
        }
        visit(document.root, page: nil)
        return (pages, taking)
    }

    /// The window whose tree is `tree`.
    func window(showing tree: String) -> (id: WindowID, window: Window)? {
        windows.first { $0.value.tree == tree }.map { ($0.key, $0.value) }
    }

    /// The first or last stop of the web document holding `element` in `tree` (the window's
    /// first document when `element` is in none): browse mode's Control+Home and Control+End stay
    /// in the page, not the browser's toolbar.
    public func documentEnd(_ end: Workspace.Move, tree: String, element: String?) -> String? {
        guard let window = window(showing: tree)?.window, let id = document(in: tree, holding: element),
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
        guard let window = window(showing: tree)?.window else { return nil }
        return element.flatMap { window.pages[$0] } ?? window.entries.keys.min()
    }

    /// The title of the window whose tree is `tree`.
    public func title(of tree: String) -> String? {
        window(showing: tree)?.window.document.title
    }

    /// Browse mode moved Narrator's cursor to `element`: the application's focus follows where
    /// the element can take it (a link, a button, a field), and otherwise its caret moves to the
    /// element's start, so that Tab goes on from there as it does after Orca's structural keys.
    public mutating func browsed(tree: String, element: String) -> [Effect] {
        guard let (id, window) = window(showing: tree) else { return [] }
        if window.focusable.contains(element) { return ownerFocus(tree: tree, element: element) }
        browsing = id
        // The application's focus leaves for the page's document: a focus that comes back to the
        // element it was on (Tab) is the user's, unless it is the echo still awaited.
        if lastFocus?.window == id { lastFocus = nil }
        // The reader moved on from the page's entry: a title the page sets now is not said.
        if enteredPage == id { enteredPage = nil }
        // A run of a paragraph's words between its links (``ATSPIMapping/interleave``) is no
        // object of the application's: the caret goes to its paragraph.
        let object = element.lastIndex(of: "~").map { String(element[..<$0]) } ?? element
        return [.setCaret(id, path: ATSPIMapping.path(of: object))]
    }
}
