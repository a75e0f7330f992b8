@testable import NarratorBridge
@testable import NarratorModel
import Testing
@testable import NarratorDBus

/// The bridge's own D-Bus wire format. The replies here are bytes GLib's GDBusMessage wrote
/// (`to_blob`, both byte orders); the call's bytes are ones GLib's `new_from_blob` read back as
/// the call it is. The real bus is the end-to-end tests' (ATSPIBusTests, the page tests).
@Suite("D-Bus's wire format, as the bridge writes and reads it")
struct DBusWireTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func decode(_ bytes: [UInt8]) throws -> DBusIncoming? {
        var reader = DBusMessageReader()
        reader.append(bytes)
        return try reader.next()
    }

    /// `(a(so))`: GetChildren's reply, little-endian, serial 7, answering 3.
    static let children = bytes(
        "6c02000166000000070000001800000008016700056128736f2900000000000005017500030000005e00000000000000040000003a312e39000000001c0000002f6f72672f613131792f61747370692f61636365737369626c652f3100000000040000003a312e39000000001d0000002f6f72672f613131792f61747370692f61636365737369626c652f323200"
    )
    /// `(a{sv})`: Properties.GetAll's reply, big-endian, a dictionary inside a variant among them.
    static let getAll = bytes(
        "420200010000006a00000007000000180801670005617b73767d00000000000005017500000000030000006200000000000000044e616d65000173000000000542757920310000000000000a4368696c64436f756e74000169000000000000000000000a417474726962757465730005617b73737d0000000000001200000000000000056c6576656c000000000000013200"
    )
    /// An error reply: UnknownMethod, "no such method", answering 4.
    static let error = bytes(
        "6c03010113000000090000004800000004017300280000006f72672e667265656465736b746f702e444275732e4572726f722e556e6b6e6f776e4d6574686f640000000000000000080167000173000005017500040000000e0000006e6f2073756368206d6574686f6400"
    )
    /// `(uuid(nqxt)ybg)`: every fixed-size type, each at its alignment.
    static let scalars = bytes(
        "6c0200013f0000000700000020000000080167000d75756964286e717874297962670000000000000501750003000000ffffffff00000000fbffffff00000000000000000000e03ffeffffff00000000ffffffffffffdfffffffffffffffffffff00000001000000056128736f2900"
    )

    @Test("replies GLib wrote, in either byte order, are the values it was given")
    func repliesDecode() throws {
        let reference: (String) -> DBusValue = { .structure([.string(":1.9"), .string("/org/a11y/atspi/accessible/\($0)")]) }
        #expect(try Self.decode(Self.children) == DBusIncoming(
            kind: .methodReturn, serial: 7, replySerial: 3, errorName: nil, body: .structure([.array([reference("1"), reference("22")])])))

        let properties = try #require(try Self.decode(Self.getAll))
        #expect(properties.replySerial == 3)
        let entries = properties.body[0]?.items ?? []
        let byKey = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in entry[0]?.string.map { ($0, entry[1]!) } })
        #expect(byKey["Name"] == .variant(.string("Buy 1")))
        #expect(byKey["ChildCount"] == .variant(.integer(0)))
        #expect(byKey["Attributes"] == .variant(.array([.structure([.string("level"), .string("2")])])))

        let failure = try #require(try Self.decode(Self.error))
        #expect(failure.kind == .error && failure.replySerial == 4)
        #expect(failure.errorName == "org.freedesktop.DBus.Error.UnknownMethod" && failure.errorMessage == "no such method")

        #expect(try Self.decode(Self.scalars)?.body == .structure([
            .unsigned(4_294_967_295), .unsigned(0), .integer(-5), .double(0.5),
            .structure([.integer(-2), .unsigned(65_535), .integer(-9_007_199_254_740_993), .unsigned(18_446_744_073_709_551_615)]),
            .unsigned(255), .bool(true), .string("a(so)"),
        ]))
    }

    @Test("a call's bytes: the header GLib reads back as Properties.Get of Name on the object, to the application, with NO_AUTO_START")
    func aCallIsWrittenAsTheSpecificationSays() throws {
        let call = DBusCall(
            path: "/org/a11y/atspi/accessible/12", interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string("org.a11y.atspi.Accessible"), .string("Name")])
        let written = DBusWire.methodCall(call, destination: ":1.9", serial: 5)
        #expect(hex(written) == (
            "6c01020129000000050000007800000001016f001d0000002f6f72672f613131792f61747370692f61636365737369626c652f3132000000"
                + "020173001f0000006f72672e667265656465736b746f702e444275732e50726f70657274696573000301730003000000476574000000000006"
                + "017300040000003a312e39000000000801670002737300190000006f72672e613131792e61747370692e41636365737369626c650000000400"
                + "00004e616d6500"))
    }

    @Test("every argument type a call takes comes back as it went, through the reader")
    func argumentsRoundTrip() throws {
        let call = DBusCall(
            path: "/p", interface: "i.f", method: "M",
            arguments: [.int32(-3), .uint32(7), .double(2.5), .variantDouble(0.25), .strings(["a", "", "ccc"]), .string("é"), .strings([])])
        var reader = DBusMessageReader()
        reader.append(DBusWire.methodCall(call, destination: "d.e", serial: 9))
        let message = try #require(try reader.next())
        #expect(message.kind == .methodCall && message.serial == 9)
        #expect(message.body == .structure([
            .integer(-3), .unsigned(7), .double(2.5), .variant(.double(0.25)), .array([.string("a"), .string(""), .string("ccc")]), .string("é"), .array([]),
        ]))
    }

    @Test("messages come out whole and in order however the reads split them")
    func splitAndJoinedReads() throws {
        let stream = Self.children + Self.error + Self.getAll
        for step in [1, 3, 16, 17, 100, stream.count] {
            var reader = DBusMessageReader()
            var serials: [UInt32?] = []
            var offset = 0
            while offset < stream.count {
                reader.append(Array(stream[offset..<min(stream.count, offset + step)]))
                offset += step
                while let message = try reader.next() { serials.append(message.replySerial) }
            }
            #expect(serials == [3, 4, 3], "reads of \(step) bytes")
        }
    }

    @Test("a message that lies is an error that says how, never a read past its end")
    func malformedMessages() throws {
        func failure(_ bytes: [UInt8]) -> String? {
            do {
                _ = try Self.decode(bytes)
                return nil
            } catch let error as DBusWireError {
                return error.description
            } catch {
                return "\(error)"
            }
        }
        var wrongOrder = Self.children
        wrongOrder[0] = UInt8(ascii: "x")
        #expect(failure(wrongOrder)?.contains("not 'l' or 'B'") == true)
        // The array of references said to be longer than the body holds.
        var longArray = Self.children
        longArray[0x29] = 0xF0
        #expect(failure(longArray)?.contains("ends inside") == true)
        // The signature's "a(so)" made "a(sz)".
        var unknownType = Self.children
        unknownType[0x18] = UInt8(ascii: "z")
        #expect(failure(unknownType) != nil)
        // A body length over the limit is refused from the fixed header alone.
        var huge = Self.children
        huge[4...7] = [0, 0, 0, 0x7F]
        #expect(failure(huge)?.contains("limit") == true)
        // Variants nested 70 deep: "v" inside "v" inside ...
        var deep = DBusMessageReader()
        var body: [UInt8] = []
        for _ in 0..<70 { body += [1, UInt8(ascii: "v"), 0] }
        body += [1, UInt8(ascii: "y"), 0, 42]
        var header: [UInt8] = [UInt8(ascii: "l"), 2, 0, 1]
        header += withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init)
        header += withUnsafeBytes(of: UInt32(1).littleEndian, Array.init)
        let fields: [UInt8] = [8, 1, UInt8(ascii: "g"), 0, 1, UInt8(ascii: "v"), 0, 0] + [5, 1, UInt8(ascii: "u"), 0, 1, 0, 0, 0]
        header += withUnsafeBytes(of: UInt32(fields.count).littleEndian, Array.init) + fields
        deep.append(header + body)
        #expect(throws: DBusWireError.self) { try deep.next() }
    }

    /// A reply of 8 zero bytes whose body the signature `signature` describes: an array's length
    /// (8), padding, then the elements' bytes.
    static func replyOfEightZeros(signature: String) -> [UInt8] {
        let fields: [UInt8] = [5, 1, UInt8(ascii: "u"), 0, 3, 0, 0, 0, 8, 1, UInt8(ascii: "g"), 0, UInt8(signature.utf8.count)]
            + Array(signature.utf8) + [0]
        let body: [UInt8] = [8, 0, 0, 0] + [UInt8](repeating: 0, count: 12)
        var message: [UInt8] = [UInt8(ascii: "l"), 2, 0, 1]
        message += withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init)
        message += withUnsafeBytes(of: UInt32(7).littleEndian, Array.init)
        message += withUnsafeBytes(of: UInt32(fields.count).littleEndian, Array.init) + fields
        message += [UInt8](repeating: 0, count: (8 - message.count % 8) % 8)
        return message + body
    }

    /// Found by DBusFuzzer: an array of empty structures took no bytes an element, so reading
    /// one appended elements until memory ran out, in the bridge, from any application's bytes.
    @Test("an empty structure or a dictionary entry of other than two types is refused, not read forever",
          arguments: ["a()", "a{}", "a{s}", "a{sss}", "a(a())"])
    func containersOfNothingAreRefused(signature: String) throws {
        #expect(throws: DBusWireError.self) { try Self.decode(Self.replyOfEightZeros(signature: signature)) }
    }

    @Test("the same reply with an array of bytes reads: the refusal above is the signature's")
    func theSameReplyWithBytesReads() throws {
        let reply = try #require(try Self.decode(Self.replyOfEightZeros(signature: "ay")))
        #expect(reply.body == .structure([.array([DBusValue](repeating: .unsigned(0), count: 8))]))
        #expect(reply.replySerial == 3)
    }

    @Test("addresses: a path, an abstract name, escapes, several; one with no Unix socket is an error quoting it")
    func addresses() throws {
        #expect(try DBusAddress.parse("unix:path=/run/user/1000/at-spi/bus_0,guid=0123") == [.path("/run/user/1000/at-spi/bus_0")])
        #expect(try DBusAddress.parse("unix:abstract=/tmp/dbus-x%2cy,guid=1") == [.abstract("/tmp/dbus-x,y")])
        #expect(try DBusAddress.parse("tcp:host=a,port=1;unix:path=/a;unix:path=/b") == [.path("/a"), .path("/b")])
        #expect(throws: DBusWireError.self) { try DBusAddress.parse("tcp:host=localhost,port=4") }
        #expect(throws: DBusWireError.self) { try DBusAddress.parse("unix:path=/a%zz") }
        #expect(DBusAddress.authenticationLine(uid: 0) == "AUTH EXTERNAL 30\r\n")
        #expect(DBusAddress.authenticationLine(uid: 1000) == "AUTH EXTERNAL 31303030\r\n")
    }

    @Test("a reply over the reader's limit is its call's LimitsExceeded error, its body dropped as it comes, however the reads split it; the messages after it read as ever")
    func repliesOverTheLimitAreRefusedNotKept() throws {
        // The children reply is 142 bytes, the error 107, GetAll's 146: a limit of 120 keeps only the error.
        let stream = Self.children + Self.error + Self.getAll
        for step in [1, 5, 16, 17, 100, stream.count] {
            var reader = DBusMessageReader(messageLimit: 120)
            var read: [DBusIncoming] = []
            var offset = 0
            while offset < stream.count {
                reader.append(Array(stream[offset..<min(stream.count, offset + step)]))
                offset += step
                while let message = try reader.next() { read.append(message) }
            }
            #expect(read.map(\.replySerial) == [3, 4, 3], "reads of \(step) bytes")
            #expect(read.map(\.kind) == [.error, .error, .error])
            #expect(read.map(\.errorName) == [DBusIncoming.tooLarge, "org.freedesktop.DBus.Error.UnknownMethod", DBusIncoming.tooLarge])
            #expect(read.first?.errorMessage == "a reply of 142 bytes, over the 120-byte limit")
        }
        // A signal over the limit (189 bytes), its 160-byte header within it or not, is dropped:
        // nothing is told, the next message reads.
        for limit in [140, 170] {
            var reader = DBusMessageReader(messageLimit: limit)
            reader.append(Self.departure + Self.error)
            #expect(try reader.next()?.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
            #expect(try reader.next() == nil)
        }
    }

    /// The bus's `NameOwnerChanged` for ":1.42", which left (GLib's bytes), and for ":1.43", which came.
    static let departure = bytes(
        "6c0401011d000000090000008900000007017300140000006f72672e667265656465736b746f702e444275730000000001016f00150000002f6f72672f667265656465736b746f702f4442757300000002017300140000006f72672e667265656465736b746f702e44427573000000000801670003737373000000000000000003017300100000004e616d654f776e65724368616e6765640000000000000000050000003a312e3432000000050000003a312e34320000000000000000"
    )
    static let arrival = bytes(
        "6c0401011e000000090000008900000007017300140000006f72672e667265656465736b746f702e444275730000000001016f00150000002f6f72672f667265656465736b746f702f4442757300000002017300140000006f72672e667265656465736b746f702e44427573000000000801670003737373000000000000000003017300100000004e616d654f776e65724368616e6765640000000000000000050000003a312e34330000000000000000000000050000003a312e343300"
    )

    @Test("the bus's NameOwnerChanged with no new owner names the application that left; one that came, or a reply, names none")
    func departuresAreRead() throws {
        #expect(try Self.decode(Self.departure)?.departedName == ":1.42")
        #expect(try Self.decode(Self.arrival)?.departedName == nil)
        #expect(try Self.decode(Self.children)?.departedName == nil)
        var forged = try #require(try Self.decode(Self.departure))
        forged.sender = ":1.7"
        #expect(forged.departedName == nil, "only the bus says who left")
    }
}
