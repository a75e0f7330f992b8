/// A parsed JSON value.
///
/// Narrator parses JSON itself (instead of `JSONSerialization`) so that every problem can be
/// reported with its position or JSON path, duplicate keys can be detected, invalid UTF-8 is
/// rejected, and large trees load quickly.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The name of the value's JSON type, for error messages ("expected a string, got an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool {
        // A pattern, not `== .null`: decoders ask this of nearly every value.
        if case .null = self { true } else { false }
    }
    /// The value, or `Optional.none` for JSON null (spelt out: a bare `nil` could mean `.null`).
    public var nonNull: JSONValue? {
        if case .null = self { return Optional.none }
        return Optional.some(self)
    }

    /// Looks up a member of an object; `nil` for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

/// A JSON object that keeps its members in document order, duplicates included,
/// so that validation can report a key given twice.
public struct JSONObject: Equatable, Sendable {
    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    /// Builds an object from key-value pairs in the given order.
    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        members = pairs.map { Member(key: $0.key, value: $0.value) }
    }

    /// The last value given for `key` (as most JSON readers do); validation reports duplicates separately.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members.reversed() where member.key == key { return member.value }
            return nil
        }
        set {
            members.removeAll { $0.key == key }
            if let newValue { members.append(Member(key: key, value: newValue)) }
        }
    }

    public var keys: [String] { members.map(\.key) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral, ExpressibleByDictionaryLiteral
{
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// An optional string as JSON: the string, or `null`.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// An optional number as JSON: the number, or `null`.
    public static func optional(_ value: Double?) -> JSONValue {
        value.map(JSONValue.number) ?? .null
    }
}
