/// A table's size, its rows and columns counted as a grid (spans ignored): said as the user
/// reaches the table ("table with 4 rows 3 columns"), and the bounds a cell move stays within.
public struct TableSize: Equatable, Sendable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// A cell's place in the nearest table around it, row and column counted from 0.
public struct TableCell: Equatable, Sendable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// What a header cell heads: its column (a `th` in the first row) or its row (`th scope=row`).
/// Said as its role, and with the cells it heads when a cell move enters its column or row.
public enum CellHeader: String, CaseIterable, Sendable {
    case column, row
}
