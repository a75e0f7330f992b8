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
        var logged = ""
        for _ in 0..<50 {
            logged = try daemon.ctl("log", "--client", "spd-say").stdout
            if logged.contains("Found without a variable.") { break }
            usleep(100_000)
        }
        #expect(logged.contains("Found without a variable."), "\(logged)")
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
