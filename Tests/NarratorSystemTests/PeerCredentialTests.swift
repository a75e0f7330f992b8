import Foundation
import Glibc
@testable import NarratorSystem
import Testing

@Suite struct PeerCredentialTests {
    @Test func theServerSeesTheClientsRealUIDAndPID() throws {
        let server = try RunningServer { recorder in
            TestHandler(recorder: recorder, admission: .ownerOrRoot) { input, client, loop in
                guard case .line = input, let peer = loop.peer(of: client) else { return }
                loop.send("uid \(peer.uid) pid \(peer.pid) gid \(peer.gid)", to: client)
            }
        }
        defer { server.stop() }
        let client = try server.connect()
        try client.send(line: "who am I")
        #expect(try client.line() == "uid \(getuid()) pid \(getpid()) gid \(getgid())")
    }

    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root and setpriv to run a client as nobody"))
    func aClientRunningAsAnotherUserGetsTheRefusalLineThenEndOfFile() throws {
        // Only for this test: a reachable directory and a world-writable socket, so that nobody
        // gets as far as the uid check (normally the 0700 directory already stops them).
        let server = try RunningServer(directoryMode: 0o755) { recorder in
            TestHandler(recorder: recorder, admission: .ownerOrRoot)
        }
        defer { server.stop() }
        try Syscall.chmod(server.path, mode: 0o666)

        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(b'{"request":"focus"}\\n')
            data = b''
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            sys.stdout.write(data.decode() + 'EOF\\n')
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script, server.path]
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "client failed: \(errorText)")
        #expect(text == "{\"error\":\"permission denied: uid 65534 is not the daemon's user\"}\nEOF\n")
        // Closed from `accept`, the refused client's input was never read.
        #expect(server.recorder.wait { events in
            events.contains { if case .disconnected(_, .closedByServer) = $0 { return true } else { return false } }
        })
        #expect(!server.recorder.all.contains { if case .input = $0 { return true } else { return false } })

        // Our own user is still served.
        let client = try server.connect()
        try client.send(line: "hello")
        #expect(try client.line() == "hello")
    }
}
