/// A cell belongs to a table: a cell with no table around it, or outside its table's rows and
/// columns, would be moved to and said at a place that is not there. Checked after a document
/// is decoded, and only when it has a cell, so that a large tree without tables pays nothing.
extension Node {
    /// Each cell outside a table, or outside its table's size, with its path from `path` (this node's).
    func tableProblems(at path: [JSONPathComponent]) -> [DocumentProblem] {
        var problems: [DocumentProblem] = []
        // (node, its path, the nearest table around it): a stack, not recursion, for a deep tree.
        var walk: [(Node, [JSONPathComponent], TableSize?)] = [(self, path, nil)]
        while let (node, path, around) = walk.popLast() {
            if let cell = node.tableCell {
                let place = "[\(cell.row), \(cell.column)]"
                if let around {
                    if cell.row >= around.rows || cell.column >= around.columns {
                        problems.append(DocumentProblem(path: path.rendered, message: "cell \(place) is outside its table's \(around.rows) rows and \(around.columns) columns (a cell counts from 0)"))
                    }
                } else {
                    problems.append(DocumentProblem(path: path.rendered, message: "cell \(place) is in no table: give a node around it \"table\": [rows, columns]"))
                }
            }
            let table = node.table ?? around
            for (index, child) in node.children.enumerated().reversed() {
                walk.append((child, path + [.key("children"), .index(index)], table))
            }
        }
        return problems
    }
}
