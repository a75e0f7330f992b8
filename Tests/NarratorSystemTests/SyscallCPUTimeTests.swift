import Glibc
@testable import NarratorSystem
import Testing

/// A process's CPU time as /proc/PID/stat gives it: what the engine supervisor compares across
/// an engine's silence.
@Suite struct SyscallCPUTimeTests {
    /// A stat line whose command name holds spaces and parentheses (a program may be called so).
    static let trickyLine = Array(
        "4242 (my (odd) prog) x) S 1 4242 4242 0 -1 4194304 120 0 0 0 250 37 0 0 20 0 1 0 9000 1000000 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
            .utf8)

    @Test("utime and stime are read after the command name's last ')', however many spaces and parentheses it holds")
    func trickyCommandName() {
        #expect(Syscall.cpuTicks(statLine: Self.trickyLine) == 287)
    }

    @Test("a plain line, and lines that are not stat lines")
    func plainAndBroken() {
        #expect(Syscall.cpuTicks(statLine: Array("7 (sh) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 5 0 0\n".utf8)) == 7)
        #expect(Syscall.cpuTicks(statLine: Array("7 sh R 1 7 7 0 -1 0 0 0 0 0 3 4".utf8)) == nil, "no command name")
        #expect(Syscall.cpuTicks(statLine: Array("7 (sh) R 1 7 7 0 -1 0 0 0 0".utf8)) == nil, "cut short")
        #expect(Syscall.cpuTicks(statLine: Array("7 (sh) R 1 7 7 0 -1 0 0 0 0 0 x 4 0".utf8)) == nil, "not a number")
        #expect(Syscall.cpuTicks(statLine: []) == nil)
    }

    @Test("a child that spins gains CPU time; a stopped one does not")
    func spinningAndStopped() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "while :; do :; done"], environment: [:])
        defer { _ = try? child.kill() }
        let start = try Syscall.processCPUTime(child.pid)
        var now = start
        for _ in 0..<2_000 where now < start + .milliseconds(50) {
            usleep(10_000)
            now = try Syscall.processCPUTime(child.pid)
        }
        #expect(now >= start + .milliseconds(50), "spun for 20 s of waiting and used \(now - start)")
        try child.send(SIGSTOP)
        // Once the stop has landed, the time stands still.
        var stopped = try Syscall.processCPUTime(child.pid)
        var same = 0
        for _ in 0..<200 where same < 5 {
            usleep(20_000)
            let next = try Syscall.processCPUTime(child.pid)
            same = next == stopped ? same + 1 : 0
            stopped = next
        }
        #expect(same == 5, "a stopped process's CPU time kept moving")
    }

    @Test("a process that is not there is an error naming the file")
    func missingProcess() throws {
        let child = try ChildProcess("/bin/true", [], environment: [:])
        _ = try child.wait()
        #expect(throws: Errno(code: ENOENT, syscall: "open /proc/\(child.pid)/stat")) {
            try Syscall.processCPUTime(child.pid)
        }
    }
}
