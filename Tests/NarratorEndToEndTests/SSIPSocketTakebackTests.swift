import Foundation
import Testing

/// A speech-dispatcher started by hand with its own pid file (narratord holds the standard one)
/// takes the SSIP socket's path: SSIP clients would reach it and never narratord, with nothing
/// said. narratord notices, takes the path back and says so.
@Suite struct SSIPSocketTakebackTests {
    /// Whether an SSIP server answers at `path` (speech-dispatcher would too: what was spoken
    /// through it turning up in narratord's log is what says it is narratord).
    static func answers(_ path: String) -> Bool {
        guard let client = try? SSIPTestClient(path: path) else { return false }
        return (try? client.command("SET SELF CLIENT_NAME test:takeback:main"))?.last?.hasPrefix("208") == true
    }

    static func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let by = Date().addingTimeInterval(seconds)
        while Date() < by {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test func aSpeechDispatcherThatTakesThePathIsTakenBackFromWithin5Seconds() throws {
        let daemon = try DaemonHarness(ssip: true)
        let path = daemon.ssipSocket
        #expect(Self.answers(path))
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        let directory = daemon.directory + "/speechd"
        try FileManager.default.createDirectory(atPath: directory + "/config", withIntermediateDirectories: true)
        try "CommunicationMethod \"unix_socket\"\nTimeout 0\nDisableAutoSpawn\n".write(toFile: directory + "/config/speechd.conf", atomically: true, encoding: .utf8)
        let speechd = Process()
        speechd.executableURL = URL(fileURLWithPath: "/usr/bin/speech-dispatcher")
        speechd.arguments = ["--run-single", "-c", "unix_socket", "-S", path, "-t", "0", "-P", directory + "/own.pid", "-C", directory + "/config", "-L", directory]
        speechd.environment = ["HOME": directory, "XDG_RUNTIME_DIR": directory, "XDG_CONFIG_HOME": directory, "PATH": "/usr/bin:/bin"]
        speechd.standardOutput = FileHandle.nullDevice
        speechd.standardError = FileHandle.nullDevice
        try speechd.run()
        defer {
            // speech-dispatcher that lost its socket does not always take SIGTERM: killed after 5 s.
            if speechd.isRunning { speechd.terminate() }
            _ = Self.waitUntil(5) { !speechd.isRunning }
            if speechd.isRunning { kill(speechd.processIdentifier, SIGKILL) }
            speechd.waitUntilExit()
        }
        // The path changed hands (speech-dispatcher removed narratord's socket file) and came back.
        let said = Self.waitUntil(5) { daemon.log.contains("narratord took it back") }
        #expect(said, "\(daemon.log)")
        #expect(daemon.log.contains("\(path) was"), "\(daemon.log)")
        #expect(Self.waitUntil(5) { Self.answers(path) })
        let after = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(before != after, "the socket file is a new one, bound again")
        // Said once.
        #expect(daemon.log.components(separatedBy: "narratord took it back").count == 2, "\(daemon.log)")
        // Speech through the path reaches narratord again.
        let client = try SSIPTestClient(path: path)
        #expect(try client.speak("back again").last?.hasPrefix("225") == true)
        #expect(Self.waitUntil(10) { (try? daemon.ctl("log"))?.stdout.contains("back again") == true })
        // At exit narratord removes the socket it bound last.
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aProgramThatBindsItsOwnSocketThereIsNamedAndTakenBack() throws {
        let daemon = try DaemonHarness(ssip: true)
        let path = daemon.ssipSocket
        #expect(Self.answers(path))
        // Another program binds its own listener at the path, atomically (a rename over it).
        let own = try Self.listen(at: path + ".other")
        defer { close(own) }
        #expect(rename(path + ".other", path) == 0)
        #expect(Self.waitUntil(5) { daemon.log.contains("narratord took it back") }, "\(daemon.log)")
        #expect(daemon.log.contains("was taken by \(ProcessInfo.processInfo.processName.prefix(15)), pid \(getpid())"), "\(daemon.log)")
        #expect(Self.waitUntil(5) { Self.answers(path) })
    }

    /// A listening Unix socket at `path`, as another server would bind.
    static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in path.utf8CString.withUnsafeBytes { raw.copyBytes(from: $0.prefix(raw.count - 1)) } }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 8) == 0 else { throw DaemonHarness.HarnessError(message: "cannot listen at \(path): \(errno)") }
        return fd
    }
}
