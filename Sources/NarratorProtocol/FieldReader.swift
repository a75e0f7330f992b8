import NarratorBase
import NarratorModel

/// Reads typed members of one JSON object of the protocol (a request, a reply, an event),
/// naming the member in every error (`focus.tree: expected a non-empty string, got a number`)
/// and remembering which members were read, so that a request's unknown ones can be reported.
struct FieldReader {
    let object: JSONObject
    /// What the errors name before the member: a command (`focus`) or a path (`status.audio`).
    let context: String
    private(set) var used: Set<String> = []

    init(_ object: JSONObject, context: String) {
        self.object = object
        self.context = context
    }

    func path(_ key: String) -> String { context.isEmpty ? key : "\(context).\(key)" }

    mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        return object[key]
    }

    mutating func required(_ key: String) throws(ProtocolError) -> JSONValue {
        guard let value = value(key) else {
            throw ProtocolError(.missingField, context.isEmpty ? "missing \"\(key)\"" : "\(context): missing \"\(key)\"")
        }
        return value
    }

    /// A string; requests insist on a non-empty one (a name, an id), replies allow any.
    mutating func string(_ key: String, nonEmpty: Bool = true) throws(ProtocolError) -> String {
        let value = try required(key)
        return try Self.string(value, at: path(key), nonEmpty: nonEmpty)
    }

    mutating func optionalString(_ key: String, nonEmpty: Bool = true) throws(ProtocolError) -> String? {
        guard let value = value(key), !value.isNull else { return nil }
        return try Self.string(value, at: path(key), nonEmpty: nonEmpty)
    }

    mutating func number(_ key: String) throws(ProtocolError) -> Double {
        let value = try required(key)
        guard case .number(let n) = value else { throw Self.invalid(path(key), "a number", value) }
        return n
    }

    mutating func optionalNumber(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = value(key), !value.isNull else { return nil }
        guard case .number(let n) = value else { throw Self.invalid(path(key), "a number", value) }
        return n
    }

    /// A whole number (counts, ids, process ids).
    mutating func integer(_ key: String) throws(ProtocolError) -> Int {
        let n = try number(key)
        guard let whole = Int(exactly: n) else { throw ProtocolError(.invalidField, "\(path(key)): expected a whole number, got \(JSONWriter.format(n))") }
        return whole
    }

    /// A non-negative whole number that fits 64 bits (ids, counters).
    mutating func unsigned(_ key: String) throws(ProtocolError) -> UInt64 {
        let n = try number(key)
        guard let whole = UInt64(exactly: n) else {
            throw ProtocolError(.invalidField, "\(path(key)): expected a whole number from 0, got \(JSONWriter.format(n))")
        }
        return whole
    }

    mutating func optionalUnsigned(_ key: String) throws(ProtocolError) -> UInt64? {
        guard let value = value(key), !value.isNull else { return nil }
        guard case .number(let n) = value, let whole = UInt64(exactly: n) else {
            throw Self.invalid(path(key), "a whole number from 0", value)
        }
        return whole
    }

    mutating func bool(_ key: String) throws(ProtocolError) -> Bool {
        guard let value = try optionalBool(key) else { throw ProtocolError(.missingField, "\(context): missing \"\(key)\"") }
        return value
    }

    mutating func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = value(key), !value.isNull else { return nil }
        guard case .bool(let b) = value else { throw Self.invalid(path(key), "true or false", value) }
        return b
    }

    mutating func array(_ key: String) throws(ProtocolError) -> [JSONValue] {
        let value = try required(key)
        guard case .array(let items) = value else { throw Self.invalid(path(key), "an array", value) }
        return items
    }

    mutating func strings(_ key: String) throws(ProtocolError) -> [String] {
        var result: [String] = []
        for (index, item) in try array(key).enumerated() {
            result.append(try Self.string(item, at: "\(path(key))[\(index)]", nonEmpty: false))
        }
        return result
    }

    /// A nested object, read with its own reader whose errors name the whole path.
    mutating func object(_ key: String) throws(ProtocolError) -> FieldReader {
        let value = try required(key)
        return try Self.reader(value, at: path(key))
    }

    mutating func optionalObject(_ key: String) throws(ProtocolError) -> FieldReader? {
        guard let value = value(key), !value.isNull else { return nil }
        return try Self.reader(value, at: path(key))
    }

    /// Each element of an array of objects, with its index in the path.
    mutating func objects(_ key: String) throws(ProtocolError) -> [FieldReader] {
        var readers: [FieldReader] = []
        for (index, item) in try array(key).enumerated() {
            readers.append(try Self.reader(item, at: "\(path(key))[\(index)]"))
        }
        return readers
    }

    /// The same, or nil when the key is absent (a field newer daemons send).
    mutating func optionalObjects(_ key: String) throws(ProtocolError) -> [FieldReader]? {
        guard let value = value(key), !value.isNull else { return nil }
        return try objects(key)
    }

    mutating func choice(_ key: String, _ choices: [String]) throws(ProtocolError) -> String {
        guard let chosen = try optionalChoice(key, choices) else { throw ProtocolError(.missingField, "\(context): missing \"\(key)\"") }
        return chosen
    }

    mutating func optionalChoice(_ key: String, _ choices: [String]) throws(ProtocolError) -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard choices.contains(s) else {
            throw ProtocolError(
                .invalidField,
                "\(path(key)): expected one of \(choices.joined(separator: ", ")), got \"\(s)\"" + Suggestion.hint(for: s, in: choices))
        }
        return s
    }

    /// One of `Choice`'s cases, by its raw value.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type) throws(ProtocolError) -> Choice
    where Choice.RawValue == String {
        guard let chosen = try optionalChoice(key, type) else { throw ProtocolError(.missingField, "\(context): missing \"\(key)\"") }
        return chosen
    }

    /// The same, or nil when the key is absent.
    mutating func optionalChoice<Choice: RawRepresentable & CaseIterable>(_ key: String, _ type: Choice.Type) throws(ProtocolError) -> Choice?
    where Choice.RawValue == String {
        let choices = Choice.allCases.map(\.rawValue)
        guard let text = try optionalChoice(key, choices) else { return nil }
        guard let chosen = Choice(rawValue: text) else { throw ProtocolError(.invalidField, "\(path(key)): \"\(text)\" is not one of \(choices.joined(separator: ", "))") }
        return chosen
    }

    static func reader(_ value: JSONValue, at path: String) throws(ProtocolError) -> FieldReader {
        guard case .object(let object) = value else { throw invalid(path, "an object", value) }
        return FieldReader(object, context: path)
    }

    /// A language tag (BCP 47 in its common forms: `ar`, `en-GB`, `pt_BR`, `zh-Hant-TW`).
    mutating func optionalLanguage(_ key: String) throws(ProtocolError) -> String? {
        guard let tag = try optionalString(key) else { return nil }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        let wellFormed =
            tag.utf8.count <= 35 && subtags.allSatisfy { !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
            && (2...3).contains(subtags[0].count) && subtags[0].allSatisfy(\.isLetter)
        guard wellFormed else {
            throw ProtocolError(.invalidField, "\(path(key)): expected a language code such as \"ar\" or \"en-GB\", got \"\(tag)\"")
        }
        return tag
    }

    /// A text to speak: a string with something in it, and an error that says when it is empty.
    mutating func text(_ key: String) throws(ProtocolError) -> String {
        let text = try string(key, nonEmpty: false)
        guard !text.isEmpty else { throw ProtocolError(.invalidField, "\(path(key)): the text is empty; give the words to say") }
        return text
    }

    static func string(_ value: JSONValue, at path: String, nonEmpty: Bool) throws(ProtocolError) -> String {
        guard case .string(let s) = value else { throw invalid(path, nonEmpty ? "a non-empty string" : "a string", value) }
        if nonEmpty && s.isEmpty { throw ProtocolError(.invalidField, "\(path): expected a non-empty string, got an empty one") }
        return s
    }

    static func invalid(_ path: String, _ expected: String, _ value: JSONValue) -> ProtocolError {
        ProtocolError(.invalidField, "\(path): expected \(expected), got \(value.typeName)")
    }
}
