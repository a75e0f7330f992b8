import Foundation
import Glibc
import NarratorSystem
import Testing

/// An owned descriptor closes when dropped and stays open when taken. Whether a dropped one was
/// closed is seen from the other end of its pipe or socket (end of file), not by asking about its
/// number: tests running beside this one may be handed the same number at once.
@Suite("Owned descriptors")
struct OwnedDescriptorTests {
    /// What a non-blocking read of `fd` finds: "eof", "nothing yet", or the bytes' count.
    static func peek(_ fd: Int32) -> String {
        var byte: UInt8 = 0
        let count = Glibc.read(fd, &byte, 1)
        if count == 0 { return "eof" }
        if count < 0 { return errno == EAGAIN ? "nothing yet" : "error \(errno)" }
        return "\(count) byte"
    }

    @Test("a dropped pipe end is closed: the reader sees end of file")
    func droppedIsClosed() throws {
        let reader: Int32
        do {
            let ends = try Syscall.pipe()
            reader = ends.read.take()
            // `ends.write` is dropped here.
        }
        defer { close(reader) }
        try Syscall.setNonBlocking(reader, true)
        #expect(Self.peek(reader) == "eof")
    }

    @Test("a taken end stays open, for its new owner to close: fcntl still knows the number")
    func takenStaysOpen() throws {
        let ends = try Syscall.pipe()
        let reader = ends.read.take()
        let writer = ends.write.take()
        defer { close(reader) }
        try Syscall.setNonBlocking(reader, true)
        #expect(fcntl(writer, F_GETFD) != -1, "errno \(errno)")
        #expect(fcntl(writer, F_GETFD) & FD_CLOEXEC != 0, "pipe ends are close-on-exec")
        #expect(Self.peek(reader) == "nothing yet")
        close(writer)
        #expect(Self.peek(reader) == "eof")
    }

    @Test("close() closes at once and reports; the value is gone after it")
    func explicitClose() throws {
        let ends = try Syscall.pipe()
        let reader = ends.read.take()
        defer { close(reader) }
        try Syscall.setNonBlocking(reader, true)
        try ends.write.close()
        #expect(Self.peek(reader) == "eof")
    }

    @Test("an accepted connection dropped without a new owner is closed: its peer sees end of file")
    func droppedConnectionIsClosed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-owned-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let address = try UnixSocketAddress(path: directory + "/s.sock")
        let listener = try Syscall.unixSocket(type: Syscall.stream)
        defer { close(listener) }
        try Syscall.bind(listener, to: address)
        try Syscall.listen(listener, backlog: 1)
        let client = try Syscall.unixSocket(type: Syscall.stream)
        defer { close(client) }
        try Syscall.connect(client, to: address)
        do {
            guard let accepted = try Syscall.accept(listener) else {
                Issue.record("the client's connection was not waiting to be accepted")
                return
            }
            #expect(fcntl(accepted.rawValue, F_GETFD) != -1)
            // Dropped here.
        }
        try Syscall.setNonBlocking(client, true)
        #expect(Self.peek(client) == "eof")
    }
}
