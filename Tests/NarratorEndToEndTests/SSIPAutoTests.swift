import Foundation
import NarratorTestSupport
import Testing

/// `--ssip auto`: narratord serves the path Speech Dispatcher's clients try with no
/// `SPEECHD_ADDRESS` at all, and refuses to start when a live speech server holds it.
@Suite(.serialized) struct SSIPAutoTests {
    static let spdSay = "/usr/bin/spd-say"

    /// A private XDG_RUNTIME_DIR (mode 0700, as the clients and narratord expect).
    func runtimeDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-rt-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        return directory
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: spdSay), "spd-say is not installed (apt-get install speech-dispatcher)"))
    func spdSayFindsItWithNoVariable() throws {
        let runtime = try runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["SPEECHD_ADDRESS"] = nil
        // Were narratord not there, spd-say would start this and fail, not a real speech-dispatcher.
        environment["SPEECHD_CMD"] = "/bin/false"
        let daemon = try DaemonHarness(environment: environment, extraArguments: ["--ssip", "auto"])
        let socket = runtime + "/speech-dispatcher/speechd.sock"
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(runtime + "/speech-dispatcher", &info) == 0 && info.st_mode & 0o777 == 0o700)
        let run = try CompletedRun.run(Self.spdSay, ["-w", "Found without a variable."], environment: environment, timeout: .seconds(30))
        #expect(run.status == 0, "\(run.stderr)")
        let logged = try Self.waitForLogged("Found without a variable.", by: "spd-say", in: daemon)
        #expect(logged.contains("Found without a variable."), "\(logged)")
    }

    static let speechDispatcher = "/usr/bin/speech-dispatcher"

    /// Had a spawn started a speech-dispatcher after all, it is stopped here: it names itself in
    /// the pid file then (narratord's own pid is gone from it once narratord stopped).
    static func stopStraySpeechDispatcher(pidFile: String) {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGTERM)
    }

    /// What `narratorctl log --client` prints once `text` is among it (or after 5 s).
    static func waitForLogged(_ text: String, by client: String, in daemon: DaemonHarness) throws -> String {
        var logged = ""
        for _ in 0..<50 {
            logged = try daemon.ctl("log", "--client", client).stdout
            if logged.contains(text) { break }
            usleep(100_000)
        }
        return logged
    }

    /// speechd-el runs `speech-dispatcher --spawn` before every connection (and libspeechd does when
    /// it autospawns). It starts only when no process locks its pid file; before narratord held
    /// it, the spawned speech-dispatcher replaced narratord's socket and every later client spoke to it.
    @Test(.enabled(
        if: FileManager.default.isExecutableFile(atPath: speechDispatcher) && FileManager.default.isExecutableFile(atPath: spdSay),
        "speech-dispatcher is not installed (apt-get install speech-dispatcher)"))
    func anAutospawnedSpeechDispatcherLeavesTheSocketToNarratord() throws {
        let runtime = try runtimeDirectory()
        let pidFile = runtime + "/speech-dispatcher/pid/speech-dispatcher.pid"
        defer {
            Self.stopStraySpeechDispatcher(pidFile: pidFile)
            try? FileManager.default.removeItem(atPath: runtime)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["SPEECHD_ADDRESS"] = nil
        environment["SPEECHD_CMD"] = "/bin/false"
        let daemon = try DaemonHarness(environment: environment, extraArguments: ["--ssip", "auto"])
        let socket = runtime + "/speech-dispatcher/speechd.sock"
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: pidFile) { usleep(50_000) }
        var before = stat()
        #expect(stat(socket, &before) == 0)
        // The file names narratord, as speech-dispatcher's names itself.
        let written = try? String(contentsOfFile: pidFile, encoding: .utf8)
        #expect(written == "\(daemon.process.processIdentifier)\n")

        let spawn = try CompletedRun.run(Self.speechDispatcher, ["--spawn"], environment: environment, timeout: .seconds(30))
        #expect(spawn.status != 0, "speech-dispatcher --spawn started beside narratord: \(spawn.stderr)")
        #expect((spawn.stdout + spawn.stderr).contains("already running"), "\(spawn.stdout) \(spawn.stderr)")
        var after = stat()
        #expect(stat(socket, &after) == 0 && after.st_ino == before.st_ino, "the SSIP socket was replaced")

        // The next client still reaches narratord.
        let run = try CompletedRun.run(Self.spdSay, ["-w", "Still Narrator after the spawn."], environment: environment, timeout: .seconds(30))
        #expect(run.status == 0, "\(run.stderr)")
        let logged = try Self.waitForLogged("Still Narrator after the spawn.", by: "spd-say", in: daemon)
        #expect(logged.contains("Still Narrator after the spawn."), "\(logged)")
        // A clean stop takes the file (and its lock) away, so speech-dispatcher can start again.
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: pidFile))
    }

    @Test func aLiveSpeechServerOnThePathIsRefusedClearly() throws {
        let runtime = try runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let first = try DaemonHarness(environment: environment, extraArguments: ["--ssip", "auto"])
        defer { _ = first.stop() }
        let socket = runtime + "/speech-dispatcher/speechd.sock"
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        let second = try DaemonHarness.run(
            DaemonHarness.binaries + "/narratord",
            ["--socket", runtime + "/second.sock", "--ssip", "auto", "--audio", "null", "--state-dir", runtime + "/state2"],
            environment: environment, timeout: .seconds(30))
        #expect(second.status == 1)
        #expect(second.stderr.contains("already listening on \(socket)"), "\(second.stderr)")
        // The refused daemon left no socket of its own behind, and the first one still serves.
        #expect(!FileManager.default.fileExists(atPath: runtime + "/second.sock"))
        let client = try SSIPTestClient(path: socket)
        #expect(try client.command("HISTORY GET CLIENT_ID").last == "245 OK CLIENT ID SENT")
    }
}
