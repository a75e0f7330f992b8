import Foundation
import NarratorModel
import NarratorSpeechPlan
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

    @Test(.enabled(if: getuid() == 0, "needs root to run a client as nobody"))
    func anotherUserIsRefused() throws {
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

    /// SIGTERM while clients have requests in flight: every request the daemon read is answered
    /// before its connection closes, every acknowledged announcement is in the log, no logged row
    /// lacks its reply, and no row is left without a final outcome.
    @Test func sigtermAnswersWhatItReadAndFlushesTheLog() throws {
        let daemon = try DaemonHarness(extraArguments: ["--max-queued", "10000", "--policy", "none"])
        let database = daemon.directory + "/state/narrator.db"
        let clients = try (0..<4).map { _ in try daemon.client() }
        _ = try clients[0].request(["cmd": "hello"])
        let perClient = 400
        for (c, client) in clients.enumerated() {
            let lines = (1...perClient).map { n in
                #"{"id": \#(n), "cmd": "announce", "text": "client \#(c) message \#(n)", "priority": "low"}"#
            }
            try client.connection.send(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        }
        kill(daemon.process.processIdentifier, SIGTERM)

        var answered: Set<String> = []
        for (c, client) in clients.enumerated() {
            var ids: [Int] = []
            while let line = try client.connection.readLine(timeout: .seconds(30)) {
                let reply = try JSONParser().parse(line)
                guard let id = reply["id"]?.numberValue.map(Int.init) else { continue }
                #expect(reply["ok"] == true, "\(reply)")
                #expect(reply["logged"] == true, "\(reply)")
                ids.append(id)
                answered.insert("client \(c) message \(id)")
            }
            // Requests are handled in order: a gap would be a reply lost on the way out.
            #expect(ids == (0..<ids.count).map { $0 + 1 }, "client \(c) got replies \(ids.prefix(5))...")
        }
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationStatus == 0)
        #expect(!answered.isEmpty, "the daemon read some requests before it stopped")
        print("SIGTERM with \(clients.count * perClient) requests sent: \(answered.count) answered")

        let rows = try sqlite(database, "SELECT text || '|' || outcome FROM utterances WHERE kind = 'announcement'")
        let logged = Set(rows.map { String($0.split(separator: "|")[0]) })
        #expect(logged.subtracting(answered).count == 0, "rows whose reply was never sent")
        #expect(answered.subtracting(logged).count == 0, "replies saying logged without a row")
        let outcomes = Set(rows.map { String($0.split(separator: "|")[1]) })
        #expect(outcomes.isSubset(of: Set(AnnouncementOutcome.allCases.map(\.rawValue))), "every row has a final outcome: \(outcomes)")
        #expect(try sqlite(database, "PRAGMA integrity_check") == ["ok"])
        #expect(daemon.log.contains("stopped"))
    }

    @Test func startUpErrorsAreClear() throws {
        let bad = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--socket", "/tmp/narrator-e2e-unused.sock", "--audio", "speakers"])
        // A value the options table checks is a usage error, like --rate's below (see ExitStatusTests).
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--audio"))
        let usage = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--rate", "fast"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--rate must be a whole number"))
        #expect(try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--version"]).stdout.hasPrefix("narratord \(NarratorVersion.daemon)"))
    }
}

@Suite struct ConfigurationTests {
    @Test func configFileFlagsAndReloadOnSIGHUP() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("narratord-\(UUID().uuidString.prefix(8)).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "# test configuration\nrate = 200\nlog-level = info\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(extraArguments: ["--config", config, "--voice", "English (Great Britain)"])
        #expect(try daemon.ctl("get", "rate").stdout == "200\n")
        // A client connected before the reload keeps its connection.
        let client = try daemon.client()
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
        try "rate = 320\n".write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        var rate = try daemon.ctl("get", "rate").stdout
        for _ in 0..<100 where rate != "320\n" {
            usleep(20_000)
            rate = try daemon.ctl("get", "rate").stdout
        }
        #expect(rate == "320\n")
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
        #expect(daemon.log.contains("reloaded \(config)"))
        // A broken file is reported and the running settings stay.
        try "rate = fast\n".write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        for _ in 0..<100 where !daemon.log.contains("reload failed") { usleep(20_000) }
        #expect(daemon.log.contains("reload failed, keeping the current settings: \(config):1: --rate must be a whole number"))
        #expect(try daemon.ctl("get", "rate").stdout == "320\n")
    }

    @Test func aBrokenConfigFileStopsTheStartWithItsLine() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("narratord-bad-\(UUID().uuidString.prefix(8)).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "audio = null\nsoket = /tmp/x\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--config", config])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"\#(config):2: unknown key "soket"; did you mean "socket"?"#))
    }
}

@Suite struct SpeechDataTests {
    @Test func missingOrBrokenEspeakDataIsAClearStartUpError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-data-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/broken", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/narratord.sock"
        let missing = try DaemonHarness.run(
            DaemonHarness.binaries + "/narratord",
            ["--socket", socket, "--audio", "null", "--state-dir", directory + "/state", "--espeak-data", directory + "/nowhere"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("eSpeak NG data not found at '\(directory)/nowhere'"))
        #expect(missing.stderr.contains("install espeak-ng-data"))
        // No socket is left behind to look like a dead daemon's.
        #expect(!FileManager.default.fileExists(atPath: socket))

        try "not a phoneme table".write(toFile: directory + "/broken/phontab", atomically: true, encoding: .utf8)
        let broken = try DaemonHarness.run(
            DaemonHarness.binaries + "/narratord",
            ["--socket", socket, "--audio", "null", "--state-dir", directory + "/state", "--espeak-data", directory + "/broken"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("eSpeak NG could not load its data from '\(directory)/broken'"))
    }

    /// Data the daemon's user may not read (root reads everything, so the daemon runs as nobody).
    @Test(.enabled(if: getuid() == 0, "needs root to run narratord as nobody"))
    func unreadableEspeakDataIsAClearStartUpError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-data-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/locked", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "phoneme table".write(toFile: directory + "/locked/phontab", atomically: true, encoding: .utf8)
        let scratch = directory + "/nobody"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        chmod(directory, 0o755)
        // A copy, so that nobody can run it wherever the checkout lives.
        try FileManager.default.copyItem(atPath: DaemonHarness.binaries + "/narratord", toPath: scratch + "/narratord")
        let unreadable = try DaemonHarness.run(
            "/usr/bin/setpriv",
            [
                "--reuid=nobody", "--regid=nogroup", "--clear-groups", scratch + "/narratord", "--socket", scratch + "/run/narratord.sock",
                "--audio", "null", "--state-dir", scratch + "/state", "--espeak-data", directory + "/locked",
            ],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(unreadable.status == 1, "\(unreadable.stderr)")
        #expect(unreadable.stderr.contains("eSpeak NG data at '\(directory)/locked' cannot be read by this user"), "\(unreadable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/run/narratord.sock"))
    }
}
