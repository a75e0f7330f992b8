import Glibc
@testable import NarratorSystem
import Synchronization
import Testing

@Suite struct UnixClientTests {
    @Test func noSocketFileIsReportedWithThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing.sock")
        let error = #expect(throws: UnixClientError.self) { try UnixClient(connectingTo: path) }
        #expect(error == .noSocket(path))
        #expect(error?.isUnreachable == true)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("start it") == true)
    }

    @Test func aStaleSocketIsConnectionRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("stale.sock")
        let listener = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        try Syscall.close(listener.fd)
        #expect(throws: UnixClientError.connectionRefused(path)) { try UnixClient(connectingTo: path) }
    }

    @Test(.enabled(if: getuid() == 0, "needs root to switch the file-system uid"))
    func anotherUsersSocketIsPermissionDenied() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let outcome = Mutex<UnixClientError?>(nil)
        // setfsuid changes only the calling thread, so a dedicated thread plays the other user.
        JoinableThread {
            let previous = Syscall.setFileSystemUID(65534)
            defer { _ = Syscall.setFileSystemUID(previous) }
            do {
                _ = try UnixClient(connectingTo: server.path)
            } catch let error as UnixClientError {
                outcome.withLock { $0 = error }
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }.join()
        #expect(outcome.withLock { $0 } == .permissionDenied(server.path))
    }

    @Test func readLineTimesOutWhenTheDaemonDoesNotAnswer() throws {
        let server = try RunningServer { recorder in TestHandler(recorder: recorder) { _, _, _ in } }
        defer { server.stop() }
        let client = try server.connect()
        try client.send(line: "no answer expected")
        #expect(throws: UnixClientError.timedOut(.milliseconds(50))) { try client.readLine(timeout: .milliseconds(50)) }
    }

    @Test func linesRoundTripThroughAnEchoingServer() throws {
        let server = try RunningServer()
        defer { server.stop() }
        let client = try server.connect()
        for index in 0..<100 {
            try client.send(line: "{\"n\":\(index)}")
            #expect(try client.readLine(timeout: .seconds(60)) == "{\"n\":\(index)}")
        }
        #expect(throws: UnixClientError.lineContainsNewline) { try client.send(line: "a\nb") }
    }
}
