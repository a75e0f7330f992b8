import Foundation
import Testing

/// A disk that stops answering holds narratord up for a bounded time only: stopping waits for the
/// log's last rows at most `SessionDriver.logWaitBound`, then says what it gave up and exits.
@Suite struct StuckDiskTests {
    /// Whether some thread of `pid` waits to open a FIFO (for a writer that never comes).
    static func waitsOnAFIFO(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? ""
            return channel.contains("wait_for_partner")
        }
    }

    /// Start-up waited for the log's first open: with the disk stuck, the socket accepted and
    /// nothing was ever served.
    /// SIGTERM, and the exit status once narratord stops; killed (and the test failed) if it
    /// does not stop within `seconds` with `what` stuck.
    static func stop(_ daemon: DaemonHarness, within seconds: Double, stuck what: String) -> Int32 {
        daemon.process.terminate()
        let stoppedBy = Date().addingTimeInterval(seconds)
        while daemon.process.isRunning, Date() < stoppedBy { usleep(50_000) }
        if daemon.process.isRunning {
            kill(daemon.process.processIdentifier, SIGKILL)
            Issue.record("narratord did not stop with \(what) stuck")
        }
        daemon.process.waitUntilExit()
        return daemon.process.terminationStatus
    }

    @Test func aLogStuckAtStartUpHoldsNothingUpAndIsSaidToBeUnavailable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-stuck-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A FIFO in the log's place: opening it waits for a writer that never comes, as a read
        // from a stuck disk would.
        #expect(mkfifo(directory + "/narrator.db", 0o600) == 0)
        let daemon = try DaemonHarness(extraArguments: ["--db", directory + "/narrator.db"])
        let client = try daemon.client()
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
        try #require(Self.waitsOnAFIFO(daemon.process.processIdentifier), "the log is not the one stuck")
        #expect(try client.request(["cmd": "speak", "text": "speech goes on"])["ok"] == true)
        let status = try client.request(["cmd": "status"])
        #expect(status["log"]?["reason"] == "io_error", "\(status)")
        #expect(daemon.log.contains("the utterance log is unavailable"), "\(daemon.log)")
        #expect(daemon.log.contains("did not finish within 2 s (the disk does not answer)"), "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }

    /// SIGHUP read the configuration file on the loop: a file whose disk does not answer held
    /// up every client until it did.
    @Test func aSIGHUPWhoseFileDoesNotAnswerHoldsNobodyUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-stuck-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/narratord.conf"
        try "rate = 200\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(extraArguments: ["--config", config])
        let client = try daemon.client()
        #expect(try client.request(["cmd": "hello"])["ok"] == true)
        // The file becomes a FIFO nobody writes: reading it waits, as on a stuck disk.
        try FileManager.default.removeItem(atPath: config)
        #expect(mkfifo(config, 0o600) == 0)
        let pid = daemon.process.processIdentifier
        kill(pid, SIGHUP)
        let stuckBy = Date().addingTimeInterval(30)
        while !Self.waitsOnAFIFO(pid), Date() < stuckBy { usleep(50_000) }
        try #require(Self.waitsOnAFIFO(pid), "the reload never tried the FIFO")
        #expect(try client.request(["cmd": "speak", "text": "speech goes on"])["ok"] == true)
        #expect(try client.request(["cmd": "get", "key": "rate"])["value"] == "200")
        // Another SIGHUP meanwhile is folded into one more read after the stuck one.
        kill(pid, SIGHUP)
        let saidBy = Date().addingTimeInterval(20)
        while !daemon.log.contains("has not finished"), Date() < saidBy { usleep(20_000) }
        #expect(daemon.log.contains("reload: the previous read of \(config) has not finished (its disk does not answer)"), "\(daemon.log)")

        // The disk answers: the stuck read ends with what it reads, then the folded one runs.
        func answer(_ text: String) {
            let fd = open(config, O_WRONLY)
            guard fd >= 0 else {
                Issue.record("cannot open the FIFO to write: \(errno)")
                return
            }
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        func rate(becomes expected: Int) throws -> Bool {
            let by = Date().addingTimeInterval(20)
            while Date() < by {
                if try client.request(["cmd": "get", "key": "rate"])["value"] == .string(String(expected)) { return true }
                usleep(20_000)
            }
            return false
        }
        answer("rate = 240\n")
        #expect(try rate(becomes: 240))
        answer("rate = 260\n")
        #expect(try rate(becomes: 260))
        // Stuck again at the stop: the read holds nothing up.
        kill(pid, SIGHUP)
        while !Self.waitsOnAFIFO(pid), Date() < stuckBy.addingTimeInterval(30) { usleep(50_000) }
        #expect(Self.stop(daemon, within: 20, stuck: "a reload") == 0)
    }

    @Test func stoppingGivesUpOnALogThatDoesNotAnswerAndSaysWhat() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-stuck-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A file where the log's directory should be: the log cannot open, and speech goes on.
        let logDirectory = directory + "/log"
        #expect(FileManager.default.createFile(atPath: logDirectory, contents: Data()))
        let daemon = try DaemonHarness(extraArguments: ["--db", logDirectory + "/narrator.db"])
        let client = try daemon.client()
        // Answered once start-up is over, the log's first attempt to open among it.
        #expect(try client.request(["cmd": "hello"])["ok"] == true)

        // Then the directory appears with a FIFO for the file: the log's next attempt to open it
        // waits for a writer that never comes, as a read from a stuck disk would.
        try FileManager.default.removeItem(atPath: logDirectory)
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: false)
        #expect(mkfifo(logDirectory + "/narrator.db", 0o600) == 0)
        let pid = daemon.process.processIdentifier
        let stuckBy = Date().addingTimeInterval(30)
        while !Self.waitsOnAFIFO(pid), Date() < stuckBy { usleep(50_000) }
        try #require(Self.waitsOnAFIFO(pid), "the log never tried the FIFO")

        // Its reply waits for a commit that never comes.
        try client.sendRaw(#"{"id": 100, "cmd": "announce", "text": "never logged"}"#)
        #expect(try client.request(["cmd": "speak", "text": "speech goes on"])["ok"] == true)

        #expect(Self.stop(daemon, within: 60, stuck: "its log") == 0)
        // The announcement's row, the speech's and the shutdown's.
        #expect(daemon.log.contains(#/stopping without the log: [1-9][0-9]* row\(s\) were still not written after 5 s/#), "\(daemon.log)")
        #expect(daemon.log.contains("stopped"))
        // The announcement's reply never said it was logged: the connection closed without one.
        #expect(try client.connection.readLine(timeout: .seconds(20)) == nil)
    }
}
