import Dispatch
import Glibc
import NarratorSystem
import Synchronization

/// The thread that writes requests to one engine process's standard input, so that nobody else
/// waits on it: a stopped engine stops reading, its pipe fills, and only this thread blocks
/// (until the engine is killed, which breaks the pipe). It owns the pipe's write end and closes
/// it when it is told to stop, or when a write fails because the engine is gone.
final class EngineRequestWriter: Sendable {
    private struct Inbox {
        var lines: [String] = []
        var closing = false
    }

    private let inbox = Mutex(Inbox())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the thread `name`, writing to `descriptor`.
    init(descriptor: Int32, name: String) {
        DetachedThread.start(name: name) { [self] in self.run(descriptor) }
    }

    /// Queues one request line (newline included); returns at once.
    func send(_ line: String) {
        inbox.withLock { $0.lines.append(line) }
        wake.signal()
    }

    /// Drops what is not written yet and closes the pipe; returns at once (a write in progress
    /// ends when the engine is killed).
    func close() {
        inbox.withLock {
            $0.closing = true
            $0.lines.removeAll()
        }
        wake.signal()
    }

    private func run(_ descriptor: Int32) {
        // A dead engine's pipe is an EPIPE for this thread, not a SIGPIPE for the daemon.
        try? Syscall.blockSignalOnThisThread(SIGPIPE)
        var broken = false
        while true {
            wake.wait()
            let (lines, closing) = inbox.withLock { inbox in
                defer { inbox.lines.removeAll() }
                return (inbox.lines, inbox.closing)
            }
            if closing { break }
            if broken { continue }
            for line in lines where !write(line, to: descriptor) {
                broken = true
                break
            }
        }
        try? Syscall.close(descriptor)
    }

    /// Writes all of `line`; false when the pipe is broken (the engine is gone: its reader sees
    /// that as the end of its output and the supervisor gives it up).
    private func write(_ line: String, to descriptor: Int32) -> Bool {
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { raw in Result { () throws(Errno) -> Int in try Syscall.write(descriptor, raw) } }
            guard case .success(let count) = written, count > 0 else { return false }
            bytes = bytes.dropFirst(count)
        }
        return true
    }
}
