/// Serializes `JSONValue` as compact or indented JSON text.
///
/// Integral numbers are written without a fraction ("3", not "3.0") so that ids and counts
/// read naturally in replies and in `--json` output.
public struct JSONWriter {
    /// Spaces per level; `nil` writes everything on one line (the wire format).
    public var indent: Int?

    public init(indent: Int? = nil) { self.indent = indent }

    public func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, level: 0)
        return out
    }

    private func write(_ value: JSONValue, into out: inout String, level: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONWriter.format(n)
        case .string(let s): JSONWriter.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if indent != nil, items.allSatisfy(\.isScalar) {
                // Frames and other short lists of numbers read best on one line.
                out += "[" + items.map { JSONWriter().string($0) }.joined(separator: ", ") + "]"
                return
            }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                newline(&out, level: level + 1)
                write(item, into: &out, level: level + 1)
            }
            newline(&out, level: level)
            out += "]"
        case .object(let object):
            if object.members.isEmpty { out += "{}"; return }
            out += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { out += "," }
                newline(&out, level: level + 1)
                JSONWriter.quote(member.key, into: &out)
                out += indent == nil ? ":" : ": "
                write(member.value, into: &out, level: level + 1)
            }
            newline(&out, level: level)
            out += "}"
        }
    }

    private func newline(_ out: inout String, level: Int) {
        guard let indent else { return }
        out += "\n"
        out += String(repeating: " ", count: indent * level)
    }

    /// Formats a finite number; integral values below 2^53 are written as integers.
    public static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 { return String(Int64(n)) }
        return "\(n)"
    }

    package static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// Compact one-line JSON, the wire format of the protocol.
    public var compactText: String { JSONWriter().string(self) }
    /// Indented JSON for people.
    public var prettyText: String { JSONWriter(indent: 2).string(self) }
}
