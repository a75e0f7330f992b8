import NarratorBridge
import Testing
@testable import NarratorDBus

/// The client's side of D-Bus's authentication, as the bridge speaks it to the bus and to an
/// application's own socket. The answers are what dbus-daemon and at-spi2-atk's server (libdbus)
/// write; the real exchange is ATSPIBusTests'.
@Suite("D-Bus's authentication, the client's side")
struct DBusHandshakeTests {
    static let ok = Array("OK 1f3b9c8d2e4a5b6c7d8e9f0a1b2c3d4e\r\n".utf8)

    @Test("the opening is a NUL byte and AUTH EXTERNAL with the uid; BEGIN follows OK")
    func opening() {
        #expect(DBusHandshake.opening(uid: 1000) == [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        #expect(DBusHandshake.begin == Array("BEGIN\r\n".utf8))
    }

    @Test("OK is taken however the reads split it, and nothing is taken before the line ends")
    func okInPieces() {
        for cut in 1..<Self.ok.count {
            var handshake = DBusHandshake()
            #expect(handshake.feed(Self.ok[..<cut]) == .waiting, "cut at \(cut)")
            #expect(handshake.feed(Self.ok[cut...]) == .accepted(rest: []), "cut at \(cut)")
        }
    }

    @Test("bytes after OK's line are the first message's, handed back untouched")
    func restAfterOK() {
        var handshake = DBusHandshake()
        let message: [UInt8] = [0x6c, 0x02, 0x01, 0x01, 0, 13, 10, 0]
        #expect(handshake.feed(Self.ok + message) == .accepted(rest: message))
    }

    @Test("REJECTED, ERROR, an empty line and a line without end are refusals that quote the server")
    func refusals() {
        var rejected = DBusHandshake()
        #expect(rejected.feed(Array("REJECTED EXTERNAL\r\n".utf8)) == .refused("REJECTED EXTERNAL"))
        var error = DBusHandshake()
        #expect(error.feed(Array("ERROR \"no\"\r\nOK 1234\r\n".utf8)) == .refused("ERROR \"no\""))
        var empty = DBusHandshake()
        #expect(empty.feed(Array("\r\n".utf8)) == .refused("an empty line"))
        var endless = DBusHandshake()
        #expect(endless.feed([UInt8](repeating: 65, count: 2_000)) == .refused("1024 bytes without a line's end"))
        // One answer only: a server that goes on after its answer is not read as a second one.
        var twice = DBusHandshake()
        _ = twice.feed(Self.ok)
        #expect(twice.feed(Self.ok) == .refused("the server's answer was already read"))
    }
}
