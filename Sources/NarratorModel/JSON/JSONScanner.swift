/// The byte-level reader behind `JSONParser` and the tree decoder's direct path: one place
/// that knows JSON's syntax, so that both report the same errors at the same places.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0
    /// A member of the outermost object whose value is checked but not built (see `JSONParser.parse(_:deferring:)`).
    var deferredKey: String?
    /// Where the last deferred member's value lies in `bytes`.
    var deferredRange: Range<Int>?

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return JSONSyntaxError(offset: offset, line: line, column: offset - lineStart + 1, reason: reason)
    }

    func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("expected a value, got end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, got \(describeCurrent())")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = position
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("invalid literal", at: start) }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for index in 0..<count where bytes[position + index] != expected[index] {
            throw error("invalid literal (expected \(word))", at: start)
        }
        position += count
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a string key, got \(describeCurrent())")
            }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\", got \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            if depth == 1, let deferredKey, key == deferredKey {
                let start = position
                try skipValue(depth: depth)
                deferredRange = start..<position
                members.append(JSONObject.Member(key: key, value: .null))
            } else {
                members.append(JSONObject.Member(key: key, value: try value(depth: depth)))
            }
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}', got end of input") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(JSONObject(members))
            default: throw error("expected ',' or '}', got \(describeCurrent())")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or ']', got end of input") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw error("expected ',' or ']', got \(describeCurrent())")
            }
        }
    }

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw error("invalid number", at: start) }
        let digitsStart = position
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(bytes[position]) {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        } else {
            throw error("invalid number", at: start)
        }
        // Integers of up to 15 digits (most numbers in a tree: frames) are exact in a Double,
        // so they are summed here instead of going through a String and strtod.
        let isFraction = position < bytes.count && (bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e"))
        if !isFraction, position - digitsStart <= 15 {
            var integer = 0
            for index in digitsStart..<position { integer = integer * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
            let magnitude = Double(integer)
            return bytes[start] == UInt8(ascii: "-") ? -magnitude : magnitude
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("invalid number: expected a digit after '.'", at: start)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("invalid number: expected a digit in the exponent", at: start)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return number
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func string() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1
        let contentStart = position
        // Fast path: no escapes.
        var allBits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
                position += 1
                // ASCII is valid UTF-8: `String(validating:)` is generic and looked up its
                // metadata on every string, a sixth of parsing a large tree.
                if allBits < 0x80 { return String(decoding: slice, as: UTF8.self) }
                return try validated(slice, at: contentStart)
            }
            allBits |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string (escape it as \\u00XX)") }
            position += 1
        }
        guard position < bytes.count else { throw error("unterminated string", at: start) }
        // Slow path: copy, resolving escapes.
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try utf8.withUnsafeBufferPointer { b in
                    Result { () throws(JSONSyntaxError) in try validated(b, at: contentStart) }
                }.get()
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): try unicodeEscape(into: &utf8)
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'", at: position - 2)
                }
            default:
                if byte < 0x20 { throw error("control character in a string (escape it as \\u00XX)") }
                utf8.append(byte)
                position += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    func validated(_ slice: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntaxError) -> String {
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw error("invalid UTF-8 in a string", at: offset)
        }
        return string
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    mutating func unicodeEscape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        var scalarValue = try hex4()
        if (0xD800...0xDBFF).contains(scalarValue) {
            guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw error("unpaired surrogate in \\u escape")
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid \\u escape") }
        utf8.append(contentsOf: String(Character(scalar)).utf8)
    }
}
