import NarratorBase

/// Values: strings, identifiers, numbers, traits, frames, points and action lists, each checked
/// where it stands so that a problem carries its path.
extension DecodingContext {
    /// A string of at most `limit` characters (by default the limit for names).
    mutating func string(_ value: JSONValue, limit: Int? = nil) -> String? {
        guard case .string(let s) = value else {
            problem("expected a string, got \(value.typeName)")
            return nil
        }
        let limit = limit ?? limits.maxStringLength
        if s.utf8.count > limit, s.count > limit {
            problem("string longer than \(limit) characters")
            return nil
        }
        return s
    }

    /// A string or null; empty strings count as absent.
    mutating func optionalString(_ value: JSONValue, limit: Int? = nil) -> String? {
        if value.isNull { return nil }
        guard let s = string(value, limit: limit) else { return nil }
        return s.isEmpty ? nil : s
    }

    /// A non-empty name without control characters (ids, tree names).
    mutating func identifier(_ value: JSONValue, what: String) -> String? {
        guard let s = string(value) else { return nil }
        if s.isEmpty {
            problem("\(what) must not be empty")
            return nil
        }
        if let bad = s.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            problem("\(what) contains the control character U+\(String(bad.value, radix: 16, uppercase: true))")
            return nil
        }
        return s
    }

    mutating func bool(_ value: JSONValue) -> Bool? {
        guard case .bool(let b) = value else {
            problem("expected true or false, got \(value.typeName)")
            return nil
        }
        return b
    }

    mutating func number(_ value: JSONValue) -> Double? {
        guard case .number(let n) = value else {
            problem("expected a number, got \(value.typeName)")
            return nil
        }
        return n
    }

    func unknownName(_ name: String, kind: String, in candidates: [String]) -> String {
        let hint = Suggestion.nearest(to: name, in: candidates).map { "did you mean \"\($0)\"? " } ?? ""
        return "unknown \(kind) \"\(name)\"; \(hint)expected one of \(candidates.joined(separator: ", "))"
    }

    mutating func traits(_ value: JSONValue) -> Traits {
        if value.isNull { return [] }
        guard case .array(let items) = value else {
            problem("expected an array of trait names, got \(value.typeName)")
            return []
        }
        var traits = Traits()
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            defer { path.removeLast() }
            guard let name = string(item) else { continue }
            if let trait = Trait(rawValue: name) {
                traits.insert(trait)
            } else {
                let hint = Suggestion.nearest(to: name, in: Trait.allCases.map(\.rawValue))
                problem("unknown trait \"\(name)\"" + (hint.map { "; did you mean \"\($0)\"?" } ?? ""))
            }
        }
        return traits
    }

    /// `count` numbers (2 or 4) in a tuple, the rest 0: a frame on every node must not allocate.
    mutating func numbers(_ value: JSONValue, count: Int, what: String) -> (Double, Double, Double, Double)? {
        guard case .array(let items) = value else {
            problem("expected \(what): \(count) numbers, got \(value.typeName)")
            return nil
        }
        guard items.count == count else {
            problem("expected \(count) numbers, got \(items.count)")
            return nil
        }
        var result = (0.0, 0.0, 0.0, 0.0)
        for (index, item) in items.enumerated() {
            guard case .number(let n) = item else {
                path.append(.index(index))
                problem("expected a number, got \(item.typeName)")
                path.removeLast()
                return nil
            }
            switch index {
            case 0: result.0 = n
            case 1: result.1 = n
            case 2: result.2 = n
            default: result.3 = n
            }
        }
        return result
    }

    mutating func frame(_ value: JSONValue) -> Rect? {
        guard let n = numbers(value, count: 4, what: "[x, y, width, height]") else { return nil }
        if n.2 < 0 || n.3 < 0 {
            problem("width and height must not be negative, got \(JSONWriter.format(n.2)) x \(JSONWriter.format(n.3))")
            return nil
        }
        return Rect(x: n.0, y: n.1, width: n.2, height: n.3)
    }

    /// `[location, length]`: two whole numbers, not negative.
    mutating func textRange(_ value: JSONValue) -> TextRange? {
        wholePair(value, what: "[location, length]", expected: "a location and a length in characters (whole numbers, not negative)") {
            $0 >= 0 && $1 >= 0
        }.map { TextRange(location: $0, length: $1) }
    }

    /// `[index, count]`: whole numbers, the index from 1 and at most the count.
    mutating func setPosition(_ value: JSONValue) -> SetPosition? {
        wholePair(value, what: "[index, count]", expected: "an index from 1 and a count at least as large (whole numbers)") {
            $0 >= 1 && $0 <= $1
        }.map { SetPosition(index: $0, count: $1) }
    }

    /// Two whole numbers that `valid` accepts, else a problem saying what was `expected`.
    mutating func wholePair(_ value: JSONValue, what: String, expected: String, valid: (Int, Int) -> Bool) -> (Int, Int)? {
        guard let n = numbers(value, count: 2, what: what) else { return nil }
        guard n.0 == n.0.rounded(), n.1 == n.1.rounded(), abs(n.0) < 1e15, abs(n.1) < 1e15, valid(Int(n.0), Int(n.1)) else {
            problem("expected \(expected), got [\(JSONWriter.format(n.0)), \(JSONWriter.format(n.1))]")
            return nil
        }
        return (Int(n.0), Int(n.1))
    }

    /// One of an enumeration's names ("navigation"), else a problem listing them.
    mutating func named<Kind: RawRepresentable & CaseIterable>(_ value: JSONValue, kind: String, _ type: Kind.Type) -> Kind?
    where Kind.RawValue == String {
        guard let name = string(value) else { return nil }
        guard let found = Kind(rawValue: name) else {
            problem(unknownName(name, kind: kind, in: Kind.allCases.map(\.rawValue)))
            return nil
        }
        return found
    }

    /// A list's number of items: a whole number, not negative.
    mutating func itemCount(_ value: JSONValue) -> Int? {
        guard let n = number(value) else { return nil }
        guard n == n.rounded(), n >= 0, n < 1e15 else {
            problem("expected a list's number of items, a whole number not negative, got \(JSONWriter.format(n))")
            return nil
        }
        return Int(n)
    }

    /// A heading's level: a whole number from 1 to 6.
    mutating func headingLevel(_ value: JSONValue) -> Int? {
        guard let n = number(value) else { return nil }
        guard n == n.rounded(), n >= 1, n <= 6 else {
            problem("expected a heading level, a whole number from 1 to 6, got \(JSONWriter.format(n))")
            return nil
        }
        return Int(n)
    }

    mutating func point(_ value: JSONValue) -> Point? {
        guard let n = numbers(value, count: 2, what: "[x, y]") else { return nil }
        return Point(x: n.0, y: n.1)
    }

    mutating func actions(_ value: JSONValue) -> [String] {
        guard case .array(let items) = value else {
            problem("expected an array of action names, got \(value.typeName)")
            return []
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            defer { path.removeLast() }
            guard let name = string(item) else { continue }
            if name.isEmpty {
                problem("action name must not be empty")
            } else if names.contains(name) {
                problem("action \"\(name)\" listed twice")
            } else {
                names.append(name)
            }
        }
        return names
    }
}
