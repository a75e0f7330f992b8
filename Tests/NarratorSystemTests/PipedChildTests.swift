import Foundation
import Glibc
import NarratorSystem
import Testing

@Suite("Children on pipes")
struct PipedChildTests {
    @Test("what the parent writes to a piped child comes back on its output; its error stream is its own; its exit is end of file")
    func roundTrip() throws {
        let child = try PipedChild.start("/bin/sh", ["-c", "read line; echo \"out $line\"; echo \"err $line\" >&2"], environment: [:])
        // The numbers, for the closures below; `child` owns and closes the ends.
        let (input, output, error, process) = (child.input.rawValue, child.output.rawValue, child.error.rawValue, child.process)
        let line = Array("hello\n".utf8)
        _ = try line.withUnsafeBytes { (bytes) throws(Errno) -> Int in try Syscall.write(input, bytes) }
        try child.input.close()
        #expect(readAll(output) == "out hello\n")
        #expect(readAll(error) == "err hello\n")
        #expect(try process.wait(timeout: .seconds(20)) == .exited(0))
    }

    @Test("a piped child holds only its three streams: the pipes' other ends stay in the parent")
    func onlyItsStreams() throws {
        let child = try PipedChild.start("/bin/sleep", ["60"], environment: [:])
        let process = child.process
        defer { _ = try? process.kill() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd").sorted() == ["0", "1", "2"])
    }

    @Test("a captured run gives each stream and the status; one that outlives its bound is killed")
    func capture() throws {
        let run = try ChildProcess.capture("/bin/sh", ["-c", "echo listing; echo warning >&2; exit 4"], environment: [:], timeout: .seconds(20))
        #expect(run == CapturedRun(termination: .exited(4), output: Array("listing\n".utf8), error: Array("warning\n".utf8), truncated: false))
        let slow = try ChildProcess.capture("/bin/sleep", ["60"], environment: [:], timeout: .milliseconds(200))
        #expect(slow.termination == nil)
        let long = try ChildProcess.capture("/bin/sh", ["-c", "head -c 5000 /dev/zero"], environment: [:], timeout: .seconds(20), limit: 1000)
        #expect(long.output.count == 1000 && long.truncated)
    }

    func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in (try? Syscall.read(fd, into: raw)) ?? 0 }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
