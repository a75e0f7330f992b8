/// D-Bus's wire format, as far as the bridge speaks it: method calls written (little-endian, the
/// argument types of ``DBusArgument``) and every message read back, whatever its types, as a
/// ``DBusValue``. The bridge's questions are some 90,000 small messages for a long web page; GDBus
/// spent more on each (a GVariant tree, a GObject, a hand-off between threads) than the
/// application took to answer it. Pure: bytes in, bytes or values out.
public enum DBusWire {
    /// `NO_AUTO_START`: a call to an application that left must fail, not start something.
    static let noAutoStart: UInt8 = 0x2

    /// The bytes of `call` sent to `destination` with `serial` (which must not be 0).
    public static func methodCall(_ call: DBusCall, destination: String, serial: UInt32) -> [UInt8] {
        var body = Writer()
        var signature = ""
        for argument in call.arguments {
            signature += argument.signature
            body.write(argument)
        }
        var message = Writer()
        message.bytes.reserveCapacity(128 + call.path.utf8.count + call.interface.utf8.count + body.bytes.count)
        message.byte(UInt8(ascii: "l"))
        message.byte(1)  // a method call
        message.byte(noAutoStart)
        message.byte(1)  // protocol version
        message.uint32(UInt32(body.bytes.count))
        message.uint32(serial)
        let fieldsLength = message.reserveLength()
        let fieldsStart = message.bytes.count
        message.field(1, signature: "o", call.path)
        message.field(2, signature: "s", call.interface)
        message.field(3, signature: "s", call.method)
        message.field(6, signature: "s", destination)
        if !signature.isEmpty { message.field(8, signature: "g", signature) }
        message.fill(fieldsLength, with: message.bytes.count - fieldsStart)
        message.align(8)
        message.bytes += body.bytes
        return message.bytes
    }

    /// The bus's own `Hello`, which every connection must send first to get its unique name.
    public static func hello(serial: UInt32) -> [UInt8] {
        methodCall(
            DBusCall(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "Hello"), destination: "org.freedesktop.DBus",
            serial: serial)
    }
}

/// A message read from the bus: what the bridge needs of its header, and its arguments.
public struct DBusIncoming: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        case methodCall = 1, methodReturn, error, signal
    }

    public var kind: Kind
    public var serial: UInt32
    /// The call this answers (returns and errors).
    public var replySerial: UInt32?
    /// An error's name (`org.freedesktop.DBus.Error.ServiceUnknown`).
    public var errorName: String?
    /// Who sent it (a unique name, or the bus's own `org.freedesktop.DBus`) and a signal's or
    /// call's member: enough to know the bus's `NameOwnerChanged` from anything else.
    public var sender: String? = nil
    public var member: String? = nil
    /// The arguments, as a structure (empty when there are none), as a GVariant tuple decodes.
    public var body: DBusValue

    /// An error's text: its first argument when that is a string.
    public var errorMessage: String { body[0]?.string ?? "" }

    /// The error a reply over the reader's limit is read as: D-Bus's own name for a limit.
    public static let tooLarge = "org.freedesktop.DBus.Error.LimitsExceeded"

    /// The match rule (for the bus's `AddMatch`) under which the bus sends its `NameOwnerChanged`.
    public static let departuresRule = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"

    /// The unique name (":1.42") this message says has left the bus: the bus's own
    /// `NameOwnerChanged` for it, with no new owner. Nil for anything else, from anyone else.
    public var departedName: String? {
        guard kind == .signal, sender == "org.freedesktop.DBus", member == "NameOwnerChanged",
            let name = body[0]?.string, name.hasPrefix(":"), body[2]?.string == ""
        else { return nil }
        return name
    }
}

/// Why bytes from the bus are not a D-Bus message; the connection cannot go on after one.
public struct DBusWireError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// Cuts the bytes read from a connection into messages, however the reads split them.
public struct DBusMessageReader: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// A message longer than this is refused (the specification's own limit is 128 MiB).
    public static let maximumMessageBytes = 128 << 20
    /// A message longer than this (and within the specification's limit) is not kept: its header
    /// is read, its body dropped as it comes, and a reply is read as a ``DBusIncoming/tooLarge``
    /// error. Any application can answer with 100 MB; the connection must survive it, and its
    /// memory must not hold it.
    public let messageLimit: Int
    /// Bytes still to drop of a message over the limit.
    private var skipping = 0

    public init(messageLimit: Int = maximumMessageBytes) {
        self.messageLimit = min(messageLimit, Self.maximumMessageBytes)
    }

    /// Bytes as they were read.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes
        if skipping > 0 {
            let dropped = min(skipping, bytes.count)
            skipping -= dropped
            bytes = UnsafeRawBufferPointer(rebasing: bytes[dropped...])
        }
        if start > 0, start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next whole message, or nil until more bytes come.
    public mutating func next() throws(DBusWireError) -> DBusIncoming? {
        while skipping == 0 {
            let available = buffer.count - start
            guard available >= 16 else { return nil }
            let limit = messageLimit
            let result: Result<(DBusIncoming?, Int, whole: Bool)?, DBusWireError> = buffer.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[start...])
                do throws(DBusWireError) {
                    guard let length = try Self.length(of: bytes) else { return .success(nil) }
                    guard length > limit else {
                        guard length <= bytes.count else { return .success(nil) }
                        return .success((try Self.decode(UnsafeRawBufferPointer(rebasing: bytes[..<length])), length, true))
                    }
                    // Over the limit: only its header is read, once it is all here. A header over
                    // the limit (a call or signal with a path of megabytes) is no reply, whose
                    // fields are all short: it is dropped unread.
                    let header = try Self.headerLength(of: bytes)
                    guard header <= limit else { return .success((nil, length, false)) }
                    guard header <= bytes.count else { return .success(nil) }
                    return .success((try Self.decode(UnsafeRawBufferPointer(rebasing: bytes[..<header]), headerOnly: true), length, false))
                } catch {
                    return .failure(error)
                }
            }
            guard let (read, length, whole) = try result.get() else { return nil }
            let taken = min(length, available)
            start += taken
            skipping = length - taken
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            guard let message = read else { continue }
            if whole { return message }
            // A reply too large to keep is an error for its call; anything else too large is dropped.
            if message.kind == .methodReturn || message.kind == .error {
                var refused = message
                refused.kind = .error
                refused.errorName = DBusIncoming.tooLarge
                refused.body = .structure([.string("a reply of \(length) bytes, over the \(limit)-byte limit")])
                return refused
            }
        }
        return nil
    }

    /// The fixed header and its fields, padded: where the body starts.
    static func headerLength(of bytes: UnsafeRawBufferPointer) throws(DBusWireError) -> Int {
        var reader = Reader(bytes, little: bytes[0] == UInt8(ascii: "l"))
        reader.offset = 12
        return 16 + (Int(try reader.uint32()) + 7) / 8 * 8
    }

    /// A message's whole length from its fixed header, or nil while the header is incomplete.
    static func length(of bytes: UnsafeRawBufferPointer) throws(DBusWireError) -> Int? {
        guard bytes.count >= 16 else { return nil }
        let little: Bool
        switch bytes[0] {
        case UInt8(ascii: "l"): little = true
        case UInt8(ascii: "B"): little = false
        default: throw DBusWireError(description: "a message starts with byte \(bytes[0]), not 'l' or 'B'")
        }
        var reader = Reader(bytes, little: little)
        reader.offset = 4
        let body = Int(try reader.uint32())
        reader.offset = 12
        let fields = Int(try reader.uint32())
        let length = 16 + (fields + 7) / 8 * 8 + body
        guard length <= maximumMessageBytes else {
            throw DBusWireError(description: "a message of \(length) bytes is over the \(maximumMessageBytes)-byte limit")
        }
        return length
    }

    /// One whole message.
    static func decode(_ bytes: UnsafeRawBufferPointer, headerOnly: Bool = false) throws(DBusWireError) -> DBusIncoming {
        var reader = Reader(bytes, little: bytes[0] == UInt8(ascii: "l"))
        reader.offset = 1
        let type = try reader.byte()
        guard let kind = DBusIncoming.Kind(rawValue: type) else { throw DBusWireError(description: "message type \(type) is none of D-Bus's") }
        reader.offset = 8
        let serial = try reader.uint32()
        var incoming = DBusIncoming(kind: kind, serial: serial, replySerial: nil, errorName: nil, body: .structure([]))
        var signature: [UInt8] = []
        guard case .array(let fields) = try reader.value(Array("a(yv)".utf8)) else { throw DBusWireError(description: "no header fields") }
        for field in fields {
            guard case .unsigned(let code)? = field[0] else { continue }
            let value = field[1]?.unwrapped
            switch code {
            case 3: incoming.member = value?.string
            case 4: incoming.errorName = value?.string
            case 7: incoming.sender = value?.string
            case 5: incoming.replySerial = value?.int.flatMap { UInt32(exactly: $0) }
            case 8: signature = Array((value?.string ?? "").utf8)
            default: break
            }
        }
        if headerOnly { return incoming }
        try reader.align(8)
        var arguments: [DBusValue] = []
        var index = 0
        while index < signature.count {
            let end = try Reader.completeType(signature, from: index)
            arguments.append(try reader.value(Array(signature[index..<end])))
            index = end
        }
        incoming.body = .structure(arguments)
        return incoming
    }
}

extension DBusArgument {
    /// The argument's D-Bus type.
    var signature: String {
        switch self {
        case .string: return "s"
        case .int32: return "i"
        case .uint32: return "u"
        case .double: return "d"
        case .variantDouble: return "v"
        case .strings: return "as"
        }
    }
}

/// Little-endian marshalling of what a method call holds.
private struct Writer {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func uint32(_ value: UInt32) {
        align(4)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        align(8)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        uint32(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    mutating func signature(_ value: String) {
        bytes.append(UInt8(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    /// An array's length, to be filled once its elements are written; returns where it is.
    mutating func reserveLength() -> Int {
        uint32(0)
        return bytes.count - 4
    }

    mutating func fill(_ position: Int, with length: Int) {
        withUnsafeBytes(of: UInt32(length).littleEndian) { value in
            for (offset, byte) in value.enumerated() { bytes[position + offset] = byte }
        }
    }

    /// A header field: `(code, variant)`, aligned as a struct.
    mutating func field(_ code: UInt8, signature type: String, _ value: String) {
        align(8)
        byte(code)
        signature(type)
        if type == "g" { signature(value) } else { string(value) }
    }

    mutating func write(_ argument: DBusArgument) {
        switch argument {
        case .string(let value): string(value)
        case .int32(let value): uint32(UInt32(bitPattern: value))
        case .uint32(let value): uint32(value)
        case .double(let value): double(value)
        case .variantDouble(let value):
            signature("d")
            double(value)
        case .strings(let values):
            let length = reserveLength()
            let start = bytes.count
            for value in values { string(value) }
            fill(length, with: bytes.count - start)
        }
    }
}

/// Unmarshalling by signature, in either byte order, bounds-checked: a message that lies about a
/// length is an error naming what it claimed, never a read past its end.
private struct Reader {
    let bytes: UnsafeRawBufferPointer
    let little: Bool
    var offset = 0
    /// Containers inside containers, as deep as the specification allows (32 arrays and 32
    /// structures): deeper is an error, not a stack overflow.
    private var depth = 0

    init(_ bytes: UnsafeRawBufferPointer, little: Bool) {
        self.bytes = bytes
        self.little = little
    }

    mutating func align(_ boundary: Int) throws(DBusWireError) {
        let aligned = (offset + boundary - 1) / boundary * boundary
        guard aligned <= bytes.count else { throw short("padding") }
        offset = aligned
    }

    private func short(_ what: String) -> DBusWireError {
        DBusWireError(description: "the message ends inside \(what) at byte \(offset) of \(bytes.count)")
    }

    mutating func byte() throws(DBusWireError) -> UInt8 {
        guard offset < bytes.count else { throw short("a byte") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws(DBusWireError) -> T {
        let size = MemoryLayout<T>.size
        try align(size)
        guard offset + size <= bytes.count else { throw short("a \(size)-byte number") }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return little ? T(littleEndian: raw) : T(bigEndian: raw)
    }

    mutating func uint32() throws(DBusWireError) -> UInt32 { try fixed(UInt32.self) }

    private mutating func text(length: Int) throws(DBusWireError) -> String {
        guard length >= 0, offset + length + 1 <= bytes.count else { throw short("a string of \(length) bytes") }
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        offset += length + 1
        return value
    }

    /// The end (exclusive) of the single complete type that starts at `index` of `signature`.
    static func completeType(_ signature: [UInt8], from index: Int) throws(DBusWireError) -> Int {
        guard index < signature.count else { throw DBusWireError(description: "the signature \(String(decoding: signature, as: UTF8.self)) ends early") }
        switch signature[index] {
        case UInt8(ascii: "a"): return try completeType(signature, from: index + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let isEntry = signature[index] == UInt8(ascii: "{")
            let close: UInt8 = isEntry ? UInt8(ascii: "}") : UInt8(ascii: ")")
            var next = index + 1
            var fields = 0
            while next < signature.count, signature[next] != close {
                next = try completeType(signature, from: next)
                fields += 1
            }
            guard next < signature.count else { throw DBusWireError(description: "the signature \(String(decoding: signature, as: UTF8.self)) leaves a container open") }
            // A structure of nothing takes no bytes, so an array of them would never end.
            guard isEntry ? fields == 2 : fields >= 1 else {
                throw DBusWireError(description: "the signature \(String(decoding: signature, as: UTF8.self)) has "
                    + (isEntry ? "a dictionary entry of \(fields) types, not 2" : "an empty structure"))
            }
            return next + 1
        default: return index + 1
        }
    }

    /// One value of the complete type `signature`.
    mutating func value(_ signature: [UInt8]) throws(DBusWireError) -> DBusValue {
        try value(signature, 0)
    }

    private mutating func value(_ signature: [UInt8], _ index: Int) throws(DBusWireError) -> DBusValue {
        guard index < signature.count else { throw DBusWireError(description: "an empty type") }
        switch signature[index] {
        case UInt8(ascii: "y"): return .unsigned(UInt64(try byte()))
        case UInt8(ascii: "b"): return .bool(try uint32() != 0)
        case UInt8(ascii: "n"): return .integer(Int64(try fixed(Int16.self)))
        case UInt8(ascii: "q"): return .unsigned(UInt64(try fixed(UInt16.self)))
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .integer(Int64(try fixed(Int32.self)))
        case UInt8(ascii: "u"): return .unsigned(UInt64(try uint32()))
        case UInt8(ascii: "x"): return .integer(try fixed(Int64.self))
        case UInt8(ascii: "t"): return .unsigned(try fixed(UInt64.self))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try fixed(UInt64.self)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"): return .string(try text(length: Int(try uint32())))
        case UInt8(ascii: "g"): return .string(try text(length: Int(try byte())))
        case UInt8(ascii: "v"):
            let inner = Array(try text(length: Int(try byte())).utf8)
            guard !inner.isEmpty, try Self.completeType(inner, from: 0) == inner.count else {
                throw DBusWireError(description: "a variant's signature \(String(decoding: inner, as: UTF8.self)) is not one type")
            }
            return .variant(try nested { (reader: inout Reader) throws(DBusWireError) in try reader.value(inner, 0) })
        case UInt8(ascii: "a"):
            let length = Int(try uint32())
            guard length <= 64 << 20 else { throw DBusWireError(description: "an array of \(length) bytes is over D-Bus's 64 MiB") }
            let element = index + 1
            guard element < signature.count else { throw DBusWireError(description: "an array with no element type") }
            try align(Self.alignment(signature[element]))
            let end = offset + length
            guard end <= bytes.count else { throw short("an array of \(length) bytes") }
            return .array(
                try nested { (reader: inout Reader) throws(DBusWireError) in
                    var elements: [DBusValue] = []
                    while reader.offset < end {
                        let before = reader.offset
                        elements.append(try reader.value(signature, element))
                        // Every valid type takes a byte at least; one that took none would repeat forever.
                        guard reader.offset > before else { throw DBusWireError(description: "an array's element took no bytes") }
                    }
                    guard reader.offset == end else { throw DBusWireError(description: "an array's elements overrun its length at byte \(reader.offset)") }
                    return elements
                })
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            try align(8)
            let end = try Self.completeType(signature, from: index) - 1
            return .structure(
                try nested { (reader: inout Reader) throws(DBusWireError) in
                    var fields: [DBusValue] = []
                    var next = index + 1
                    while next < end {
                        fields.append(try reader.value(signature, next))
                        next = try Self.completeType(signature, from: next)
                    }
                    return fields
                })
        case let other: throw DBusWireError(description: "type code '\(Character(Unicode.Scalar(other)))' is none of D-Bus's")
        }
    }

    private mutating func nested<T>(_ body: (inout Reader) throws(DBusWireError) -> T) throws(DBusWireError) -> T {
        guard depth < 64 else { throw DBusWireError(description: "values nested more than 64 deep") }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    static func alignment(_ code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"): return 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): return 8
        default: return 1
        }
    }
}
