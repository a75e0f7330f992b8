import Foundation
import NarratorCore
import Testing

/// The log on a real small filesystem that fills up: speech and replies go on, replies say the
/// row was not logged and why, status shows it, and logging resumes once there is space.
/// (Remounting read-only is refused while the database is open for writing; a read-only
/// connection is covered in NarratorStoreTests.)
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
}
