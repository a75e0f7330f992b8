/// Checking a value without building it: the same syntax, the same errors at the same places as
/// `value(depth:)`, but no strings, arrays or objects are made on the common path. A large
/// request's document is checked this way before it is decoded straight from its bytes.
extension JSONScanner {
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        guard position < bytes.count else { throw error("expected a value, got end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
        case UInt8(ascii: "["): try skipArray(depth: depth + 1)
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        default: throw error("expected a value, got \(describeCurrent())")
        }
    }

    /// A string without escapes or non-ASCII bytes is only scanned; any other goes through
    /// `string()`, which checks escapes and UTF-8.
    mutating func skipString() throws(JSONSyntaxError) {
        let start = position
        var index = position + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        position = start
        _ = try string()
    }

    mutating func skipObject(depth: Int) throws(JSONSyntaxError) {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a string key, got \(describeCurrent())")
            }
            let keyStart = position
            try skipString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                // The message names the key: read it again, on this rare path only.
                let afterKey = position
                position = keyStart
                let key = try string()
                position = afterKey
                throw error("expected ':' after key \"\(key)\", got \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            try skipValue(depth: depth)
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}', got end of input") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return
            default: throw error("expected ',' or '}', got \(describeCurrent())")
            }
        }
    }

    mutating func skipArray(depth: Int) throws(JSONSyntaxError) {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            try skipValue(depth: depth)
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or ']', got end of input") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return
            default: throw error("expected ',' or ']', got \(describeCurrent())")
            }
        }
    }
}
