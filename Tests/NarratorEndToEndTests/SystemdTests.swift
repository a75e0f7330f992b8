import Foundation
import NarratorSystem
import NarratorTestSupport
import Testing

/// The user units, socket activation through systemd-socket-activate, and readiness notification.
@Suite struct SystemdTests {
    static let hasSystemdTools = FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")

    @Test(.enabled(if: hasSystemdTools, "systemd-analyze and systemd-socket-activate are not installed"))
    func unitsVerify() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-units-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/runtime", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory + "/runtime", 0o700)
        for service in ["narratord.service", "narrator-atspi.service"] {
            let text = try String(contentsOfFile: DaemonHarness.repository + "/systemd/" + service, encoding: .utf8)
                .replacingOccurrences(of: "@BINDIR@", with: DaemonHarness.binaries)
                .replacingOccurrences(of: "@DOCDIR@", with: DaemonHarness.repository + "/docs")
            try text.write(toFile: directory + "/" + service, atomically: true, encoding: .utf8)
        }
        for unit in ["narratord.socket", "narratord-ssip.socket"] {
            try FileManager.default.copyItem(atPath: DaemonHarness.repository + "/systemd/" + unit, toPath: directory + "/" + unit)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
        let result = try DaemonHarness.run(
            "/usr/bin/systemd-analyze", [
                "verify", "--man=no", "--user", directory + "/narratord.socket", directory + "/narratord-ssip.socket",
                directory + "/narratord.service", directory + "/narrator-atspi.service",
            ],
            environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("narratord.") && !result.stderr.contains("narrator-atspi."), "\(result.stderr)")
        // The sandboxing, as systemd scores it (0 is best, 10 worst).
        let security = try DaemonHarness.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=true", "--user", directory + "/narratord.service"], environment: environment)
        let line = security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let score = Double(line.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 10
        #expect(score <= 2.0, "\(line)")
    }

    @Test(.enabled(if: hasSystemdTools, "systemd-socket-activate is not installed"))
    func socketActivationAndReadiness() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-act-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/narratord.sock"
        let notify = try NotifyListener(path: directory + "/notify")

        // systemd-socket-activate closes the descriptors it inherits, which Foundation's Process
        // takes for an exit (and then blocks its monitor thread): start it with posix_spawn.
        let activator = try ChildProcess(
            "/usr/bin/systemd-socket-activate",
            [
                "-l", socket, "-E", "NOTIFY_SOCKET=" + notify.path,
                DaemonHarness.binaries + "/narratord", "--audio", "null", "--state-dir", directory + "/state",
            ],
            environment: ProcessInfo.processInfo.environment, error: directory + "/activator.log")
        defer { _ = try? activator.kill() }
        // The socket exists before the daemon does; the first connection starts it.
        var hello = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["--socket", socket, "hello"])
        for _ in 0..<100 where hello.status != 0 {
            usleep(50_000)
            hello = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["--socket", socket, "hello"])
        }
        #expect(hello.status == 0, "\(hello.stderr)")
        #expect(hello.stdout.hasPrefix("narratord"))
        let status = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["--socket", socket, "status"])
        #expect(status.stdout.contains("socket:   passed by systemd"))

        let ready = try notify.receive()
        #expect(ready.contains("READY=1"))
        #expect(ready.contains("STATUS=Listening"))
        // SIGTERM: the daemon says it is stopping.
        // systemd-socket-activate execs the daemon, so the activator's pid is the daemon's.
        try activator.send(SIGTERM)
        let stopping = try notify.receive()
        #expect(stopping.contains("STOPPING=1"))
    }
    /// narratord-ssip.socket's way: two sockets passed, the one named "ssip" speaks SSIP.
    @Test(.enabled(if: hasSystemdTools, "systemd-socket-activate is not installed"))
    func theSocketNamedSSIPSpeaksSSIP() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-act2-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let json = directory + "/narratord.sock"
        let ssip = directory + "/speechd.sock"
        let activator = try ChildProcess(
            "/usr/bin/systemd-socket-activate",
            [
                "-l", json, "-l", ssip, "--fdname=narratord.socket:ssip",
                DaemonHarness.binaries + "/narratord", "--audio", "null", "--state-dir", directory + "/state",
            ],
            environment: ProcessInfo.processInfo.environment, error: directory + "/activator.log")
        defer { _ = try? activator.kill() }
        // The first connection, on the SSIP socket, starts the daemon; it answers in SSIP.
        let client = try SSIPTestClient(path: ssip)
        #expect(try client.command("HISTORY GET CLIENT_ID").last == "245 OK CLIENT ID SENT")
        #expect(try client.speak("activated").last == "225 OK MESSAGE QUEUED")
        // The other socket speaks JSON.
        let status = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["--socket", json, "status"])
        #expect(status.status == 0, "\(status.stderr)")
    }

    /// Passed the socket where speech-dispatcher's clients look, narratord finds its path from the
    /// descriptor and holds speech-dispatcher's pid file, so `speech-dispatcher --spawn` leaves it alone.
    @Test(.enabled(
        if: hasSystemdTools && FileManager.default.isExecutableFile(atPath: SSIPAutoTests.speechDispatcher),
        "systemd-socket-activate or speech-dispatcher is not installed"))
    func aPassedSpeechDispatcherSocketKeepsAnAutospawnAway() throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-act3-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: runtime + "/speech-dispatcher", withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let pidFile = runtime + "/speech-dispatcher/pid/speech-dispatcher.pid"
        defer {
            SSIPAutoTests.stopStraySpeechDispatcher(pidFile: pidFile)
            try? FileManager.default.removeItem(atPath: runtime)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let json = runtime + "/narratord.sock"
        let ssip = runtime + "/speech-dispatcher/speechd.sock"
        let activator = try ChildProcess(
            "/usr/bin/systemd-socket-activate",
            [
                // systemd-socket-activate passes a bare environment; the user manager sets this one.
                "-l", json, "-l", ssip, "--fdname=narratord.socket:ssip", "--setenv=XDG_RUNTIME_DIR=" + runtime,
                DaemonHarness.binaries + "/narratord", "--audio", "null", "--state-dir", runtime + "/state",
            ],
            environment: environment, error: runtime + "/activator.log")
        defer { _ = try? activator.kill() }
        let client = try SSIPTestClient(path: ssip)
        #expect(try client.command("HISTORY GET CLIENT_ID").last == "245 OK CLIENT ID SENT")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: pidFile) { usleep(50_000) }
        let spawn = try CompletedRun.run(SSIPAutoTests.speechDispatcher, ["--spawn"], environment: environment, timeout: .seconds(30))
        #expect(spawn.status != 0, "speech-dispatcher --spawn started beside narratord: \(spawn.stderr)")
        #expect(try client.command("HISTORY GET CLIENT_ID").last == "245 OK CLIENT ID SENT")
        let reconnected = try SSIPTestClient(path: ssip)
        #expect(try reconnected.speak("still narratord").last == "225 OK MESSAGE QUEUED")
    }
}

/// A datagram socket standing in for systemd's NOTIFY_SOCKET.
final class NotifyListener {
    let path: String
    let fd: Int32

    struct Failure: Error { var message: String }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw Failure(message: "bind \(path): errno \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The next datagram's text.
    func receive() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { throw Failure(message: "no notification within 20 s (errno \(errno))") }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
