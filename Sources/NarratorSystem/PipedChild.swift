import Glibc
import NarratorBase

/// A child whose standard streams are pipes to its parent (an engine process: requests in,
/// frames out, journal lines on standard error). The parent owns the three ends it keeps, each
/// closed with the value unless taken by its next owner (a writer thread, a relay); the child's
/// ends are closed in the parent at once (they go with `start`'s pipes), so that the child's exit
/// is seen as end of file. Frozen, so that callers in other modules may take one end and keep
/// the others (partial consumption).
@frozen
public struct PipedChild: ~Copyable, Sendable {
    public let process: ChildProcess
    /// The write end of the child's standard input.
    public let input: OwnedDescriptor
    /// The read end of its standard output.
    public let output: OwnedDescriptor
    /// The read end of its standard error.
    public let error: OwnedDescriptor

    /// Starts `path` with `arguments` and exactly `environment`, its standard streams pipes.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String]) throws(Errno) -> PipedChild {
        // Every end is closed when this returns or throws, except the parent's three, taken below.
        let input = try Syscall.pipe()
        let output = try Syscall.pipe()
        let error = try Syscall.pipe()
        let process = try ChildProcess(
            path, arguments, environment: environment,
            inputDescriptor: input.read.rawValue, outputDescriptor: output.write.rawValue, errorDescriptor: error.write.rawValue)
        return PipedChild(process: process, input: input.write, output: output.read, error: error.read)
    }
}

/// What a program printed and how it ended, run to its end within a bound.
public struct CapturedRun: Sendable, Hashable {
    /// How it ended; nil when it did not within the bound, and was killed.
    public var termination: ChildTermination?
    public var output: [UInt8]
    public var error: [UInt8]
    /// It printed more than the limit on one stream (the rest was read and dropped).
    public var truncated: Bool

    public init(termination: ChildTermination?, output: [UInt8], error: [UInt8], truncated: Bool) {
        self.termination = termination
        self.output = output
        self.error = error
        self.truncated = truncated
    }
}

extension ChildProcess {
    /// Runs `path` with `arguments` to its end, its standard input empty, and returns what it
    /// printed on each stream (at most `limit` bytes each) and how it ended. A program still
    /// running, or still holding its output open, after `timeout` is killed.
    public static func capture(
        _ path: String, _ arguments: [String], environment: [String: String], timeout: Duration, limit: Int = 1 << 22
    ) throws(Errno) -> CapturedRun {
        let deadline = MonotonicClock.now() + timeout
        let child = try PipedChild.start(path, arguments, environment: environment)
        try? child.input.close()
        let output = child.output.rawValue
        var run = CapturedRun(termination: nil, output: [], error: [], truncated: false)
        // The streams not at their end yet; both are closed with `child`.
        var open: [Int32] = [output, child.error.rawValue]
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !open.isEmpty {
            let left = MonotonicClock.remaining(until: deadline)
            guard left > .zero else { break }
            var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            do throws(Errno) {
                _ = try Syscall.poll(&entries, timeoutMilliseconds: Int32(clamping: (left.nanosecondsClamped + 999_999) / 1_000_000))
                for entry in entries where entry.revents != 0 {
                    let count = try buffer.withUnsafeMutableBytes { bytes in
                        Result { () throws(Errno) -> Int in try Syscall.read(entry.fd, into: bytes) }
                    }.get()
                    if count == 0 {
                        open.removeAll { $0 == entry.fd }
                        continue
                    }
                    let room = limit - (entry.fd == output ? run.output.count : run.error.count)
                    if count > room { run.truncated = true }
                    let kept = buffer.prefix(min(count, max(room, 0)))
                    if entry.fd == output { run.output += kept } else { run.error += kept }
                }
            } catch {
                _ = try? child.process.kill()
                throw error
            }
        }
        if open.isEmpty {
            while MonotonicClock.now() < deadline {
                if let ended = try child.process.poll() {
                    run.termination = ended
                    return run
                }
                usleep(2_000)
            }
        }
        _ = try child.process.kill()
        return run
    }
}
