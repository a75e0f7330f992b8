/// Lays out help as two columns: an option or argument on the left, what it does on the right.
public enum HelpColumns {
    /// One line per row (no trailing newline): each row indented by `indent`, its right part
    /// starting `column` characters after the indent. A left part too wide for its column gets a
    /// line of its own, with the right part on the next. With a `width`, the right part wraps at
    /// spaces so lines stay within it (a single longer word still gets its own line), continuing
    /// in the right column.
    public static func render(_ rows: [(left: String, right: String)], column: Int, width: Int? = nil, indent: Int = 2) -> String {
        let margin = String(repeating: " ", count: indent)
        let hanging = String(repeating: " ", count: indent + column)
        var lines: [String] = []
        for (left, right) in rows {
            let parts = width.map { wrapped(right, width: max(1, $0 - indent - column)) } ?? [right]
            var first = margin + left
            if left.count + 2 > column {
                lines.append(first)
                first = hanging
            } else {
                first += String(repeating: " ", count: column - left.count)
            }
            lines.append(first + (parts.first ?? ""))
            lines += parts.dropFirst().map { hanging + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// Splits text at spaces into lines of at most `width` characters where the words allow
    /// (one empty line for empty text).
    public static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
