import Foundation
import NarratorCore
import Testing

/// The log on real filesystems that fail: full, and read-only. Speech and replies go on, replies
/// say the row was not logged and why, status shows it, and logging resumes when the fault clears.
@Suite struct FaultTests {
    static let canMount = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")

    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
    func fullLogFilesystem() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-fs-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try DaemonHarness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        guard mount.status == 0 else {
            // A container without CAP_SYS_ADMIN cannot mount: nothing to test there.
            print("skipping the full-filesystem test: mount failed: \(mount.stderr)")
            try? FileManager.default.removeItem(atPath: mountPoint)
            return
        }
        defer {
            _ = try? DaemonHarness.run("/bin/umount", ["-l", mountPoint])
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        var daemon: DaemonHarness? = try DaemonHarness(extraArguments: ["--db", mountPoint + "/narrator.db"])
        defer { _ = daemon?.stop() }
        let client = try daemon!.client()
        func announce(_ text: String) throws -> JSONValue {
            try client.request(["cmd": "announce", "text": .string(text), "priority": "low"])
        }
        func log() throws -> JSONValue { try client.request(["cmd": "status"])["log"] ?? .null }

        #expect(try announce("before")["logged"] == true)

        // Fill the filesystem: replies still come, and say the row is not logged, and why.
        _ = try DaemonHarness.run("/bin/dd", ["if=/dev/zero", "of=" + mountPoint + "/filler", "bs=4k"])
        var full = try announce("while full " + String(repeating: "x", count: 400))
        for attempt in 0..<20 where full["logged"] == true {
            full = try announce("while full \(attempt) " + String(repeating: "x", count: 400))
        }
        #expect(full["ok"] == true)
        #expect(full["logged"] == false)
        #expect(full["log_error"]?["reason"] == "disk_full")
        #expect(try log()["ok"] == false)
        #expect(try client.request(["cmd": "speak", "text": "speech goes on"])["ok"] == true)

        // Free it: logging resumes.
        try FileManager.default.removeItem(atPath: mountPoint + "/filler")
        #expect(try announce("after freeing")["logged"] == true)
        #expect(try log()["ok"] == true)

        #expect(daemon!.stop() == 0)
        daemon = nil
    }

    /// Linux refuses to remount a filesystem read-only while a file on it is open for writing
    /// (EBUSY), so the daemon meets the read-only log at start-up: an earlier daemon's log sits on a
    /// read-only bind mount, which is then made writable again while the daemon runs.
    @Test(.enabled(if: canMount, "needs root to bind-mount a directory read-only"))
    func readOnlyLogDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-ro-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = directory + "/narrator.db"

        // An earlier daemon logged three announcements.
        let earlier = try DaemonHarness(extraArguments: ["--db", database])
        let first = try earlier.client()
        for n in 1...3 { #expect(try first.request(["cmd": "announce", "text": .string("earlier \(n)"), "priority": "low"])["logged"] == true) }
        #expect(earlier.stop() == 0)
        let before = try sqlite(database, "SELECT announcement, outcome FROM utterances ORDER BY id")
        #expect(before.count == 3)

        let bind = try DaemonHarness.run("/bin/mount", ["--bind", directory, directory])
        guard bind.status == 0 else {
            print("skipping the read-only log test: bind mount failed: \(bind.stderr)")
            return
        }
        defer { _ = try? DaemonHarness.run("/bin/umount", ["-l", directory]) }
        #expect(try DaemonHarness.run("/bin/mount", ["-o", "remount,bind,ro", directory]).status == 0)

        var daemon: DaemonHarness? = try DaemonHarness(extraArguments: ["--db", database])
        defer { _ = daemon?.stop() }
        let client = try daemon!.client()
        func log() throws -> JSONValue { try client.request(["cmd": "status"])["log"] ?? .null }

        let refused = try client.request(["cmd": "announce", "text": "while read-only", "priority": "low"])
        #expect(refused["ok"] == true)
        #expect(refused["logged"] == false)
        #expect(refused["log_error"]?["reason"] == "readonly", "\(refused)")
        #expect(refused["log_error"]?["message"]?.stringValue?.contains(directory) == true, "the message names the directory")
        #expect(try log()["ok"] == false)
        #expect(try log()["reason"] == "readonly")
        #expect(try daemon!.ctl("status").stdout.contains("NOT WRITING: readonly; the file is opened again as soon as it can be"))
        #expect(try client.request(["cmd": "speak", "text": "speech goes on"])["ok"] == true)
        #expect(daemon!.log.contains("the utterance log is unavailable"))

        // Writable again: the daemon opens the log by itself, and numbers after the file's rows.
        #expect(try DaemonHarness.run("/bin/mount", ["-o", "remount,bind,rw", directory]).status == 0)
        let deadline = ContinuousClock.now + .seconds(30)
        while try log()["open"] != true, ContinuousClock.now < deadline { usleep(50_000) }
        #expect(try log()["ok"] == true)
        let after = try client.request(["cmd": "announce", "text": "writable again", "priority": "low"])
        #expect(after["logged"] == true)
        #expect((after["announcement"]?.numberValue ?? 0) > 3, "\(after)")

        #expect(daemon!.stop() == 0)
        daemon = nil
        // The earlier rows are untouched (the read-only daemon's announcement 1 is not theirs).
        let rows = try sqlite(database, "SELECT announcement, outcome FROM utterances WHERE kind = 'announcement' ORDER BY id")
        #expect(Array(rows.prefix(3)) == before)
        #expect(rows.count == 4)
        #expect(try sqlite(database, "SELECT text FROM utterances WHERE kind = 'announcement' ORDER BY id DESC LIMIT 1") == ["writable again"])
        #expect(try sqlite(database, "PRAGMA integrity_check") == ["ok"])
    }
}
