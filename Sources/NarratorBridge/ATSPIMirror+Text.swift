import NarratorModel

/// Text as the user types and moves through it: each edit and caret move the application
/// reports is laid on the mirrored document as it was made and sent as an `edit` or `caret`
/// update (a few bytes, whatever the document's length), never by reading the text again, so
/// nothing typed is merged with the next key or lost.
extension ATSPIMirror {
    /// `range` of the text of the element at `path` was replaced by `text`. Nil when the mirror
    /// is out of step with the application (the element is no text field, or the range is not
    /// in its text): the element is then read again.
    public mutating func textEdited(_ id: WindowID, path: String, range: TextRange, text: String) -> [Effect]? {
        guard var window = windows[id] else { return nil }
        let element = ATSPIMapping.id(of: path)
        var edit: TreeUpdate?
        let found = window.document.root.modify(element) { node in
            guard !node.traits.intersection(Traits([.textField, .searchField])).isEmpty, node.adjustable == nil else { return }
            var scalars = Array((node.value ?? "").unicodeScalars)
            guard range.location + range.length <= scalars.count else { return }
            let inserted = Array(text.unicodeScalars)
            scalars.replaceSubrange(range.location..<(range.location + range.length), with: inserted)
            node.value = scalars.isEmpty ? nil : String(String.UnicodeScalarView(scalars))
            // The caret ends after what was put in, known before or not (a page's field read again
            // as its first letter came has none): the caret move that follows is then no move.
            node.selectedTextRange = TextRange(location: range.location + inserted.count, length: 0)
            edit = .editText(element: element, range: range, text: text)
        }
        guard found, let edit else { return nil }
        window.lines = [:]
        windows[id] = window
        return window.refused ? [] : [.update(tree: window.tree, edit, announce: true)]
    }

    /// The caret or selection of the element at `path` moved to `range`, by `unit` when the key
    /// says; `announce` unless the move is the quiet half of a selection's change. Nothing when
    /// it is where the mirror has it already (the caret following an edit).
    public mutating func caretMoved(_ id: WindowID, path: String, to range: TextRange, unit: CaretMotion.Unit?, announce: Bool) -> [Effect] {
        guard var window = windows[id] else { return [] }
        let element = ATSPIMapping.id(of: path)
        var moved = false
        _ = window.document.root.modify(element) { node in
            guard !node.traits.intersection(Traits([.textField, .searchField])).isEmpty, node.selectedTextRange != range,
                range.location + range.length <= (node.value ?? "").unicodeScalars.count
            else { return }
            node.selectedTextRange = range
            moved = true
        }
        guard moved else { return [] }
        windows[id] = window
        return window.refused ? [] : [.update(tree: window.tree, .moveCaret(element: element, range: range, unit: unit), announce: announce)]
    }

    /// The caret or selection the mirror holds for the element at `path`.
    public func selection(_ id: WindowID, path: String) -> TextRange? {
        windows[id]?.document.root.find(ATSPIMapping.id(of: path))?.selectedTextRange
    }
}

extension Node {
    /// Changes the node `id` in this subtree with `body`; false when there is none.
    mutating func modify(_ id: String, _ body: (inout Node) -> Void) -> Bool {
        if self.id == id {
            body(&self)
            return true
        }
        for index in children.indices where children[index].modify(id, body) { return true }
        return false
    }

    /// The node `id` in this subtree.
    func find(_ id: String) -> Node? {
        if self.id == id { return self }
        for child in children { if let found = child.find(id) { return found } }
        return nil
    }
}
