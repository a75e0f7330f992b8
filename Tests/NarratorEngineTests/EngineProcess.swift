import CNarratorSystem
import Glibc
import NarratorBase
import NarratorEngines
import NarratorSystem
import NarratorTestSupport

/// What went wrong talking to an engine, named for the test's failure message.
struct EngineProcessError: Error, CustomStringConvertible {
    let description: String
}

/// A built engine started with `--serve`, its standard input and output pipes held by the test,
/// read as narratord reads it: bytes through `EngineFrameDecoder`, waits bounded by deadlines.
///
/// Spawned here rather than with Foundation's `Process`: the pipes are close-on-exec in this
/// process (from just after they are made), so that a child another test starts meanwhile cannot hold this engine's standard
/// input open (the end-of-file test would never see the engine exit), and the child starts with
/// an empty signal mask and only its three standard descriptors.
final class EngineProcess {
    let child: pid_t
    private let input: Int32
    private let output: Int32
    private var decoder = EngineFrameDecoder()
    private var decoded: [EngineFrame] = []
    private var reachedEnd = false
    private var reaped: ChildTermination?
    /// Where the engine's standard error goes (a file, read when a test fails).
    let errorPath: String

    /// The built narrator-flite.
    static var flite: String { BuiltProducts.directory + "/narrator-flite" }

    init(_ path: String = EngineProcess.flite, _ arguments: [String] = ["--serve"]) throws {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        // Glibc's module has no pipe2, so close-on-exec is set right after pipe(2).
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
            throw EngineProcessError(description: "\(Errno(code: errno, syscall: "pipe"))")
        }
        for fd in toChild + fromChild { try Syscall.setCloseOnExec(fd) }
        errorPath = "/tmp/narrator-engine-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).stderr"
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var code = posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1) }
        if code == 0 { code = posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        if code == 0 { code = narrator_spawn_addclosefrom(&actions, 3) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &empty) }
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &all) }
        if code == 0 { code = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        if code == 0 { code = posix_spawn(&pid, path, &actions, &attributes, argv, narrator_environment()) }
        close(toChild[0])
        close(fromChild[1])
        guard code == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw EngineProcessError(description: "cannot start \(path): \(Errno(code: code, syscall: "posix_spawn"))")
        }
        child = pid
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        if !inputClosed { close(input) }
        close(output)
        if reaped == nil {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        unlink(errorPath)
    }

    /// Sends a request as narratord would.
    func send(_ request: EngineRequest) throws {
        try send(line: request.line)
    }

    /// Sends raw bytes (a malformed line, for instance) as they are.
    func send(line: String) throws {
        var line = line
        try line.withUTF8 { bytes in
            do throws(Errno) { try Syscall.writeAll(input, UnsafeRawBufferPointer(bytes)) } catch {
                throw EngineProcessError(description: "writing to the engine: \(error)")
            }
        }
    }

    private var inputClosed = false

    /// Ends the engine's standard input, as narratord does to stop it.
    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        close(input)
    }

    /// The next frame, waiting up to `timeout`; nil when the engine's output has ended.
    func next(timeout: Duration = .seconds(60)) throws -> EngineFrame? {
        let deadline = MonotonicClock.now() + timeout
        while decoded.isEmpty {
            if reachedEnd { return nil }
            let left = MonotonicClock.remaining(until: deadline)
            guard left > .zero else { throw EngineProcessError(description: "no frame from the engine within \(timeout); stderr: \(standardError)") }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + Int64(left.components.attoseconds / 1_000_000_000_000_000) + 1)
            let events = try Syscall.poll(output, events: Int16(POLLIN), timeoutMilliseconds: milliseconds)
            if events == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            let count = try buffer.withUnsafeMutableBytes { bytes in try Syscall.read(output, into: bytes) }
            if count == 0 {
                reachedEnd = true
                if decoder.pendingBytes > 0 { throw EngineProcessError(description: "the engine's output ended mid-frame") }
                continue
            }
            decoded += try decoder.feed(buffer[0..<count])
        }
        return decoded.removeFirst()
    }

    /// Every frame up to and including `job`'s `E` or `F` (frames of earlier jobs and logs included).
    func frames(through job: UInt32, timeout: Duration = .seconds(120)) throws -> [EngineFrame] {
        let deadline = MonotonicClock.now() + timeout
        var frames: [EngineFrame] = []
        while true {
            guard let frame = try next(timeout: MonotonicClock.remaining(until: deadline)) else {
                throw EngineProcessError(description: "the engine's output ended before job \(job) did; frames: \(frames.count); stderr: \(standardError)")
            }
            frames.append(frame)
            switch frame {
            case .end(job, _), .failed(job, _): return frames
            default: continue
            }
        }
    }

    /// Waits up to `timeout` for the engine to exit by itself; nil if it is still running then.
    func exit(within timeout: Duration) -> ChildTermination? {
        if let reaped { return reaped }
        let deadline = MonotonicClock.now() + timeout
        repeat {
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                let signal = status & 0x7f
                reaped = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
                return reaped
            }
            usleep(10_000)
        } while MonotonicClock.now() < deadline
        return nil
    }

    /// What the engine wrote on standard error so far.
    var standardError: String {
        (try? Syscall.readFile(errorPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
