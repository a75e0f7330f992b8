import Foundation
import NarratorModel
import NarratorSystem
import Testing

/// Faults around the daemon. The log on real filesystems that fail (full, read-only) and locked by
/// another process: speech and replies go on, replies say the row was not logged and why, status
/// shows it, and logging resumes when the fault clears. A tree owner that vanishes mid-update.
@Suite struct FaultTests {
    static let canMount = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")

    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
    func fullLogFilesystem() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-fs-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try DaemonHarness.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        // Enabled means root: a mount that fails is a failure, not a silent pass.
        guard mount.status == 0 else {
            try? FileManager.default.removeItem(atPath: mountPoint)
            Issue.record("mount failed: \(mount.stderr)")
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
        let before = try sqlite(database, "SELECT announcement, outcome FROM utterances WHERE kind = 'announcement' ORDER BY id")
        #expect(before.count == 3)
        #expect(try sqlite(database, "SELECT text FROM utterances WHERE kind = 'command'") == ["shutdown"])

        let bind = try DaemonHarness.run("/bin/mount", ["--bind", directory, directory])
        try #require(bind.status == 0, "bind mount failed: \(bind.stderr)")
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

    /// Another process (here Python's sqlite3, as any tool could) holds the write lock.
    @Test func logLockedByAnotherProcess() throws {
        let daemon = try DaemonHarness()
        let database = daemon.directory + "/state/narrator.db"
        let client = try daemon.client()
        func log() throws -> JSONValue { try client.request(["cmd": "status"])["log"] ?? .null }
        #expect(try client.request(["cmd": "announce", "text": "before the lock", "priority": "low"])["logged"] == true)

        let flag = daemon.directory + "/locked"
        let script = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            open(sys.argv[2], "w").write("locked")
            time.sleep(600)
            """
        let holder = try ChildProcess("/usr/bin/python3", ["-c", script, database, flag], environment: ProcessInfo.processInfo.environment)
        defer { _ = try? holder.kill() }
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: flag), ContinuousClock.now < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: flag), "the other process took the lock")

        let locked = try client.request(["cmd": "announce", "text": "while locked", "priority": "low"])
        #expect(locked["ok"] == true)
        #expect(locked["logged"] == false)
        #expect(locked["log_error"]?["reason"] == "locked", "\(locked)")
        #expect(try log()["reason"] == "locked")
        #expect(try log()["open"] == true, "a lock does not spoil the connection")
        #expect(try client.request(["cmd": "speak", "text": "speech goes on"])["ok"] == true)

        // The other process goes away (killed: its lock goes with it); the next row commits.
        _ = try holder.kill()
        #expect(try client.request(["cmd": "announce", "text": "after the lock", "priority": "low"])["logged"] == true)
        #expect(try log()["ok"] == true)
        #expect(daemon.stop() == 0)
        #expect(try sqlite(database, "SELECT text FROM utterances WHERE kind = 'announcement' ORDER BY id") == ["before the lock", "after the lock"])
    }

    /// The app that owns a tree sends half an update and disconnects: the half line is discarded,
    /// the tree stays as it was, other clients are served, and actions for it fail with owner_gone.
    @Test func ownerVanishingMidUpdate() throws {
        let daemon = try DaemonHarness()
        let owner = try daemon.client()
        _ = try owner.request(["cmd": "register", "document": try loadExample("player.json")])
        let before = try daemon.ctl("--json", "export", "player").stdout
        let update = #"{"id": 9, "cmd": "update", "tree": "player", "element": "play", "set": {"label": "Pause"}}"#
        try owner.connection.send(bytes: Array(update.utf8.prefix(update.utf8.count - 12)))
        owner.connection.close()

        let user = try daemon.client()
        let focus = try user.request(["cmd": "focus", "tree": "player", "element": "play"])
        #expect(focus["utterance"]?.stringValue?.hasSuffix("Play, button") == true, "the label is still the old one: \(focus)")
        var activate = try user.request(["cmd": "activate"])
        for _ in 0..<100 where activate["error"]?["code"] != "owner_gone" {
            usleep(20_000)
            activate = try user.request(["cmd": "activate"])
        }
        #expect(activate["error"]?["code"] == "owner_gone", "\(activate)")
        #expect(try daemon.ctl("--json", "export", "player").stdout == before, "the half update changed nothing")
        #expect(daemon.stop() == 0)
    }
}
