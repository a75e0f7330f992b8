import Foundation
import NarratorCore
import Testing

/// Start-up, the socket's security, and shutdown.
@Suite struct LifecycleTests {
    @Test func socketIsPrivateAndASecondDaemonIsRefused() throws {
        let daemon = try DaemonHarness()
        var info = stat()
        #expect(stat(daemon.socket, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let second = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--socket", daemon.socket, "--audio", "null", "--state-dir", daemon.directory + "/state2"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another narratord is already listening on \(daemon.socket)"))
        #expect(try daemon.ctl("hello").status == 0)
    }

    @Test func anotherUserIsRefused() throws {
        guard getuid() == 0 else { return }  // needs root to run a client as nobody
        // For this test only, let other users reach the socket so the uid check is what refuses them.
        let daemon = try DaemonHarness(socketDirectoryMode: 0o755)
        chmod(daemon.socket, 0o666)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(b'{"id": 1, "cmd": "hello"}\\n')
            data = b''
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let result = try DaemonHarness.run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script, daemon.socket])
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try JSONParser().parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(reply["ok"] == false)
        #expect(reply["error"]?["code"] == "permission_denied")
        // The daemon's own user is still served.
        #expect(try daemon.ctl("hello").status == 0)
    }

    @Test func sigtermShutsDownCleanly() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.client()
        _ = try client.request(["cmd": "register", "document": try loadExample("player.json")])
        #expect(daemon.stop() == 0)
        #expect(daemon.process.terminationReason == .exit)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
        #expect(daemon.log.contains("stopped"))
    }

    @Test func startUpErrorsAreClear() throws {
        let bad = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--socket", "/tmp/narrator-e2e-unused.sock", "--audio", "speakers"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--audio"))
        let usage = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--rate", "fast"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--rate must be a whole number"))
        #expect(try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--version"]).stdout.hasPrefix("narratord \(NarratorVersion.daemon)"))
    }
}
