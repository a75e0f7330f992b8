import Foundation
import Glibc
import NarratorSystem
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    @Test("a child started from a test thread (which blocks SIGTERM) still stops on SIGTERM")
    func signalMaskIsClean() throws {
        let child = try ChildProcess("/bin/sleep", ["60"], environment: [:])
        try child.send(SIGTERM)
        // SIGKILL after the grace period would show up as signal 9: the SIGTERM must have arrived.
        #expect(try child.wait(timeout: .seconds(20)) == .signalled(SIGTERM))
    }

    @Test("a child holds none of the parent's descriptors beyond its standard streams")
    func noInheritedDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // no O_CLOEXEC, as Foundation's pipes and sockets are made
        defer { close(ends[0]); close(ends[1]) }
        let child = try ChildProcess("/bin/sleep", ["60"], environment: [:])
        defer { _ = try? child.kill() }
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()
        #expect(held == ["0", "1", "2"])
    }

    @Test("exit status, environment and output file reach the caller")
    func statusEnvironmentOutput() throws {
        let path = NSTemporaryDirectory() + "narrator-child-\(UUID().uuidString).txt"
        defer { unlink(path) }
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo \"$GREETING\"; exit 3"], environment: ["GREETING": "hello"], output: path)
        #expect(try child.wait() == .exited(3))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello\n")
        #expect(try child.poll() == .exited(3), "the status is kept after reaping")
    }

    @Test("a missing program is a clear error naming it")
    func missingProgram() {
        #expect(throws: Errno(code: ENOENT, syscall: "posix_spawn /nonexistent/tool")) {
            _ = try ChildProcess("/nonexistent/tool", [], environment: [:])
        }
    }
}

@Suite("Orphaned descendants")
struct SubreaperTests {
    @Test("a grandchild orphaned by its parent comes back to a subreaper, which kills and reaps it")
    func orphanIsAdoptedAndReaped() throws {
        try Syscall.becomeChildSubreaper()
        let path = NSTemporaryDirectory() + "narrator-orphan-\(UUID().uuidString).pid"
        defer { unlink(path) }
        let parent = try ChildProcess("/bin/sh", ["-c", "sleep 60 & echo $! > \(path)"], environment: [:])
        #expect(try parent.wait() == .exited(0))
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let orphan = try #require(pid_t(text))
        // Without the subreaper the orphan belongs to init, and waitpid here fails with ECHILD.
        try Syscall.killAndReap(orphan)
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(orphan)"), "killed and reaped, not a zombie")
    }
}
