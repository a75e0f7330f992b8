import NarratorModel

/// What the keys that say more when pressed twice read from a window as last read: where an
/// object is (its place among its like, the list, table or landmark around it), for where am I,
/// and the window's status bar, for the window title.
extension AccessibleSnapshot {
    /// The objects from this one down to the object at `path` (both included); nil when it is not here.
    func ancestry(to path: String) -> [AccessibleSnapshot]? {
        if self.path == path { return [self] }
        for child in children {
            if let below = child.ancestry(to: path) { return [self] + below }
        }
        return nil
    }

    /// Where the object at `path` is, as detailed where am I says it after the object itself:
    /// its place among its like ("item 2 of 3"; in a table, "row 2 of 4, column 1 of 3"), then
    /// each list, table, landmark and form around it, innermost first ("in list of 3 items", "in
    /// table Race schedule", "in landmark Navigation"). Empty when the window says nothing of it.
    func whereabouts(of path: String) -> [String] {
        guard let chain = ancestry(to: path) else { return [] }
        var said: [String] = []
        // The object's own place, or its cell's, list item's or row's (a link in a list item).
        let cells = Set([ATSPIRole.tableCell, .columnHeader, .rowHeader, .tableColumnHeader, .tableRowHeader])
        let placed = Set([ATSPIRole.listItem, .treeItem, .pageTab, .menuItem, .radioButton, .radioMenuItem, .checkMenuItem])
        if let row = chain.lastIndex(where: { $0.role == .tableRow }), row > 0, row + 1 < chain.count {
            let rows = chain[row - 1].children.filter { $0.role == .tableRow }
            let inRow = chain[row].children.filter { cells.contains($0.role) }
            if let r = rows.firstIndex(where: { $0.path == chain[row].path }), let c = inRow.firstIndex(where: { $0.path == chain[row + 1].path }) {
                said.append("row \(r + 1) of \(rows.count), column \(c + 1) of \(inRow.count)")
            }
        } else if let index = chain.lastIndex(where: { placed.contains($0.role) }), index > 0 {
            let item = chain[index]
            if let position = item.position {
                said.append("item \(position.index) of \(position.count)")
            } else {
                let like = chain[index - 1].children.filter { $0.role == item.role }
                if let at = like.firstIndex(where: { $0.path == item.path }), like.count > 1 { said.append("item \(at + 1) of \(like.count)") }
            }
        }
        for container in chain.dropLast().reversed() {
            let name = container.name.trimmingWhitespace
            switch container.role {
            case .list, .listBox:
                let items = container.children.filter { $0.role == .listItem || $0.role == .menuItem }.count
                said.append(items > 0 ? "in list of \(items) item\(items == 1 ? "" : "s")" : "in list")
            case .table, .treeTable:
                said.append(name.isEmpty ? "in table" : "in table " + name)
            case .landmark:
                said.append(name.isEmpty ? "in landmark" : "in landmark " + name)
            case .form:
                said.append(name.isEmpty ? "in form" : "in form " + name)
            default:
                continue
            }
        }
        return said
    }

    /// The text of the window's status bar (its name, else its text, else its children's), or
    /// nil when it has no showing one. An empty one is "" (there, saying nothing).
    var statusBarText: String? {
        guard let bar = first(where: { $0.role == .statusBar && $0.states.contains(.showing) }) else { return nil }
        func text(_ object: AccessibleSnapshot) -> [String] {
            let own = object.name.trimmingWhitespace.isEmpty ? (object.text ?? "").trimmingWhitespace : object.name.trimmingWhitespace
            if !own.isEmpty { return [own] }
            return object.children.flatMap(text)
        }
        return text(bar).joined(separator: " ")
    }
}
