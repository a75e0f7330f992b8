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
        // sleep opens its locale's files for a moment as it starts: an inherited descriptor stays,
        // so the set is read until it is only the standard streams, for up to 5 s.
        var held: [String] = []
        let deadline = ContinuousClock.now + .seconds(5)
        repeat {
            held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()
            if held == ["0", "1", "2"] { break }
            Thread.sleep(forTimeInterval: 0.02)
        } while ContinuousClock.now < deadline
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
    /// In a process of its own: a subreaper adopts every orphan of every test in the process, and
    /// adopted zombies that nobody reaps would stall the other tests' child processes.
    @Test("a grandchild orphaned by its parent comes back to a subreaper, which kills and reaps it")
    func orphanIsAdoptedAndReaped() async {
        await #expect(processExitsWith: .success) {
            do {
                try Syscall.becomeChildSubreaper()
                let path = NSTemporaryDirectory() + "narrator-orphan-\(getpid()).pid"
                defer { unlink(path) }
                let parent = try ChildProcess("/bin/sh", ["-c", "sleep 60 & echo $! > \(path)"], environment: [:])
                guard try parent.wait() == .exited(0) else { exit(2) }
                let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                guard let orphan = pid_t(text) else { exit(3) }
                // Without the subreaper the orphan belongs to init, and waitpid here fails with ECHILD.
                try Syscall.killAndReap(orphan)
                // Killed and reaped, not a zombie.
                exit(FileManager.default.fileExists(atPath: "/proc/\(orphan)") ? 4 : 0)
            } catch {
                exit(5)
            }
        }
    }
}
