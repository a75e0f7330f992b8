import NarratorModel

/// A table's structure from what the window's snapshot already holds (no request per cell): its
/// rows are its `tableRow` objects, directly or under a row group; a cell's column is its
/// place among its row's cells. Spans are ignored, as a grid of what is there.
extension ATSPIMapping {
    static let cellRoles: Set<ATSPIRole> = [.tableCell, .columnHeader, .rowHeader, .tableColumnHeader, .tableRowHeader]

    /// The table's size and each cell's place, by the cell's id.
    static func tableLayout(_ table: AccessibleSnapshot) -> (size: TableSize, cells: [String: TableCell]) {
        var rows: [AccessibleSnapshot] = []
        func collectRows(_ node: AccessibleSnapshot) {
            for child in node.children {
                if child.role == .tableRow {
                    rows.append(child)
                } else if child.role != .table, !cellRoles.contains(child.role) {
                    collectRows(child)
                }
            }
        }
        collectRows(table)
        var cells: [String: TableCell] = [:]
        var columns = 0
        for (row, snapshot) in rows.enumerated() {
            let rowCells = snapshot.children.filter { cellRoles.contains($0.role) }
            for (column, cell) in rowCells.enumerated() { cells[id(of: cell.path)] = TableCell(row: row, column: column) }
            columns = max(columns, rowCells.count)
        }
        return (TableSize(rows: rows.count, columns: columns), cells)
    }

    /// What a header cell heads, by its role.
    static func cellHeader(of role: ATSPIRole) -> CellHeader? {
        switch role {
        case .columnHeader, .tableColumnHeader: .column
        case .rowHeader, .tableRowHeader: .row
        default: nil
        }
    }

    /// A table's name: its own (Firefox names a table by its caption), else its caption's text.
    static func tableName(_ table: AccessibleSnapshot, context: MappingContext) -> String? {
        if let name = label(of: table, context: context) { return name }
        guard let caption = table.children.first(where: { $0.role == .caption }) else { return nil }
        let text = ownName(of: caption, dialect: context.dialect).isEmpty ? (caption.text ?? "").trimmingWhitespace : ownName(of: caption, dialect: context.dialect)
        return text.isEmpty ? nil : text
    }
}
