/// A JSON syntax error with the place it was found, so that a user can fix the input.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset from the start of the input.
    public var offset: Int
    /// 1-based line and column (column counted in bytes).
    public var line: Int
    public var column: Int
    public var reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// Parses JSON text (RFC 8259) into `JSONValue`.
///
/// Strict on purpose: invalid UTF-8, control characters in strings, NaN and trailing garbage are
/// errors; nesting is bounded so hostile input cannot exhaust the stack.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int

    public init(maxDepth: Int = 512) { self.maxDepth = maxDepth }

    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in Result { () throws(JSONSyntaxError) in try parse(buffer) } }.get()
    }

    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(JSONSyntaxError) in try parse(buffer) } }.get()
    }

    public func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
        scanner.skipWhitespace()
        let value = try scanner.value(depth: 0)
        scanner.skipWhitespace()
        if scanner.position < buffer.count {
            throw scanner.error("unexpected \(scanner.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    /// Parses like `parse`, but the value of the outermost object's member `key` is only checked,
    /// not built: it stands as `null` in the result, and its bytes are returned (the last one's,
    /// if the key is given twice). A register request's document, the bulk of a large request,
    /// is then decoded straight from its bytes instead of through a value tree.
    public func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, deferring key: String
    ) throws(JSONSyntaxError) -> (value: JSONValue, deferred: RawJSON?) {
        var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
        scanner.deferredKey = key
        scanner.skipWhitespace()
        let value = try scanner.value(depth: 0)
        scanner.skipWhitespace()
        if scanner.position < buffer.count {
            throw scanner.error("unexpected \(scanner.describeCurrent()) after the end of the JSON value")
        }
        let deferred = scanner.deferredRange.map { RawJSON(validated: UnsafeBufferPointer(rebasing: buffer[$0])) }
        return (value, deferred)
    }
}
