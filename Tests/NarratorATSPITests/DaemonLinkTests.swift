import Foundation
import Glibc
@testable import NarratorATSPI
import NarratorProtocol
import NarratorSystem
import Testing

/// The bridge's connection to narratord never blocks its loop: a narratord that does not read
/// leaves the requests waiting in the link, written once it reads, and one that stops reading
/// for too long is given up.
@Suite struct DaemonLinkTests {
    /// A listening Unix socket in a fresh directory, and the path to reach it.
    final class Listener {
        let fd: Int32
        let path: String

        init() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-link-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/narratord.sock"
            fd = try Syscall.unixSocket(type: Int32(SOCK_STREAM.rawValue))
            try Syscall.bind(fd, to: UnixSocketAddress(path: path))
            try Syscall.listen(fd, backlog: 4)
        }

        /// The accepted connection's number; the caller closes it.
        func accept() throws -> Int32 {
            guard let peer = try Syscall.accept(fd) else { throw POSIXError(.EAGAIN) }
            return peer.take()
        }

        deinit {
            close(fd)
            unlink(path)
        }
    }

    /// Reads what is there now, without waiting.
    static func drain(_ fd: Int32) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count <= 0 { return total }
            total += count
        }
    }

    static func bigRequest(_ size: Int) -> Request {
        Request(id: .number(1), command: .announce(text: String(repeating: "a", count: size), priority: .default, tree: nil, element: nil, key: nil))
    }

    @Test("requests narratord does not read wait in the link, are written once it reads, and arrive whole")
    func requestsWaitForASlowReader() throws {
        let listener = try Listener()
        let link = try DaemonLink(socket: listener.path)
        let peer = try listener.accept()
        defer { close(peer) }
        let request = Self.bigRequest(100_000)
        let line = request.line.utf8.count + 1
        // Sixty requests of 100 kB are more than a socket holds: some wait, and none blocks.
        var waited = false
        for _ in 0..<60 {
            if case .waiting = link.send(request) { waited = true }
        }
        #expect(waited, "6 MB went into a socket nobody reads without waiting: the test proves nothing")
        // narratord reads: everything arrives, in whole lines.
        var received = 0
        var flushed = false
        for _ in 0..<10_000 where !flushed {
            received += Self.drain(peer)
            if case .written = link.flush() { flushed = true }
        }
        received += Self.drain(peer)
        #expect(flushed)
        #expect(received == 60 * line)
    }

    @Test("a narratord that stops reading for more than the link's limit is given up")
    func aNarratordThatStopsReadingIsGivenUp() throws {
        let listener = try Listener()
        let link = try DaemonLink(socket: listener.path, outputLimit: 2 << 20)
        let peer = try listener.accept()
        defer { close(peer) }
        var outcome = DaemonLink.Sent.written
        for _ in 0..<100 {
            outcome = link.send(Self.bigRequest(100_000))
            if case .broken = outcome { break }
        }
        guard case .broken(let reason) = outcome else {
            Issue.record("10 MB waited in a link limited to 2 MiB: \(outcome)")
            return
        }
        #expect(reason.contains("has not read"), "\(reason)")
    }
}
