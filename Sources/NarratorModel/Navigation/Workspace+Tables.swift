/// Tables: the tables rotor reaches each table at its first cell, and a cell move goes to the
/// next cell left, right, up or down in the table around the focus, as Orca's table keys do.
extension Workspace {
    /// The structure rotor over the tables of a tree (each at its first cell).
    static let tablesRotor = "tables"

    public enum CellDirection: String, Sendable, CaseIterable { case left, right, up, down }

    /// Moves focus to the neighbouring cell in the table around the focus, said with the
    /// column's header when the column changed and the row's when the row changed, and then its
    /// place ("row 2, column 2", as Orca says it: a user can tell a repeated value's cell). At the
    /// table's edge focus stays and the outcome is a boundary saying which edge ("End of row").
    public mutating func moveInTable(_ direction: CellDirection) throws(NarratorError) -> FocusOutcome {
        let (focus, tree, position) = try focused()
        guard let (cellSlot, tableSlot) = tree.cellAndTable(atStop: position),
            let cell = tree.nodes[Int(cellSlot)].tableCell, let size = tree.nodes[Int(tableSlot)].table
        else { throw .notInTable(tree: focus.tree, element: focus.element) }
        let (dr, dc): (Int, Int) =
            switch direction {
            case .left: (0, -1)
            case .right: (0, 1)
            case .up: (-1, 0)
            case .down: (1, 0)
            }
        let cells = tree.cells(ofTable: tableSlot)
        var row = cell.row + dr
        var column = cell.column + dc
        // A place no cell holds (a short row, a spanned cell) is passed over.
        while (0..<size.rows).contains(row), (0..<size.columns).contains(column) {
            if let target = cells[TablePlace(row: row, column: column)], let stop = tree.stopOf(slot: target) {
                var outcome = moveFocus(to: stop, in: tree)
                var headers: [String] = []
                if dr != 0, let header = tree.headerText(of: cells, row: row, column: Int?.none, except: target) { headers.append(header) }
                if dc != 0, let header = tree.headerText(of: cells, row: Int?.none, column: column, except: target) { headers.append(header) }
                for header in headers.reversed() { outcome.wrap(saying: header) }
                outcome.add(saying: tree.phrases[.cellPosition].replacingAll("{row}", with: "\(row + 1)").replacingAll("{column}", with: "\(column + 1)"))
                return outcome
            }
            row += dr
            column += dc
        }
        var outcome = boundary(in: tree, at: position)
        let edge: Phrase =
            switch direction {
            case .left: .beginningOfRow
            case .right: .endOfRow
            case .up: .topOfColumn
            case .down: .bottomOfColumn
            }
        outcome.say(instead: tree.phrases[edge])
        return outcome
    }
}

/// A cell's place, as a key.
struct TablePlace: Hashable {
    var row: Int
    var column: Int
}

extension AccessibilityTree {
    /// The stop a table is reached at: its first cell's (a caption before it is not a cell).
    func firstCellStop(ofTable table: Slot) -> Int? {
        for slot in descendantsInReadingOrder(of: table) where nodes[Int(slot)].tableCell != nil {
            if let stop = stopOf(slot: slot) { return stop }
        }
        return nil
    }

    /// The stop that says a node: itself, the element combining it, or its first stop inside.
    func stopOf(slot: Slot) -> Int? {
        if case .stop(let position) = lookup(nodes[Int(slot)].id) { return position }
        return nil
    }

    /// The cell holding the stop at `position` and the table holding that cell, if any.
    func cellAndTable(atStop position: Int) -> (cell: Slot, table: Slot)? {
        var cell: Slot?
        for slot in ancestry(ofStop: position) {
            if cell == nil, nodes[Int(slot)].tableCell != nil {
                cell = slot
            } else if let cell, nodes[Int(slot)].table != nil {
                return (cell, slot)
            } else if cell == nil, nodes[Int(slot)].table != nil {
                return nil
            }
        }
        return nil
    }

    /// The cells of a table by place: its own, not those of a table inside one of them.
    func cells(ofTable table: Slot) -> [TablePlace: Slot] {
        var cells: [TablePlace: Slot] = [:]
        var walk = childSlots[Int(table)]
        while let slot = walk.popLast() {
            let node = nodes[Int(slot)]
            if node.table != nil || node.hidden { continue }
            if let cell = node.tableCell {
                let place = TablePlace(row: cell.row, column: cell.column)
                // Two cells at one place (a document that says so): the earlier one.
                cells[place] = cells[place].map { min($0, slot) } ?? slot
                continue
            }
            walk.append(contentsOf: childSlots[Int(slot)])
        }
        return cells
    }

    /// The text of the header cell heading a row (a row header in it) or a column (a column
    /// header in it), unless that is the cell itself.
    func headerText(of cells: [TablePlace: Slot], row: Int?, column: Int?, except target: Slot) -> String? {
        let kind: CellHeader = row != nil ? .row : .column
        let header = cells.filter { place, slot in
            nodes[Int(slot)].cellHeader == kind && (row.map { place.row == $0 } ?? true) && (column.map { place.column == $0 } ?? true)
        }.min { ($0.key.row, $0.key.column) < ($1.key.row, $1.key.column) }
        guard let slot = header?.value, slot != target, let stop = stopOf(slot: slot) else { return nil }
        let text = labelParts(stops[stop], node: nodes[Int(stops[stop])], phrases: phrases).joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// "Race schedule, table with 4 rows 3 columns", for the table whose first cell is the stop
    /// at `position`; brief, "Race schedule, table" (Orca's brief level says the role, not the size).
    func tableIntroduction(atStop position: Int, verbosity: Verbosity = .verbose) -> String? {
        guard let (_, table) = cellAndTable(atStop: position), let size = nodes[Int(table)].table else { return nil }
        let words = verbosity == .brief ? phrases[.table] : phrases[.tableSize].replacingAll("{rows}", with: "\(size.rows)").replacingAll("{columns}", with: "\(size.columns)")
        guard let name = nodes[Int(table)].label?.trimmingWhitespace, !name.isEmpty else { return words }
        return name + ", " + words
    }
}
