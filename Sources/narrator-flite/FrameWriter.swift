import Glibc
import NarratorEngines
import NarratorSystem
import Synchronization

/// The one way frames reach narratord. The reader thread (logs, rejected lines) and the synthesis
/// thread both write, so each frame goes out whole under a lock: a frame cut by another's bytes
/// would be garbage to narratord's decoder.
final class FrameWriter: Sendable {
    private let fd: Int32
    private let lock = Mutex(())

    /// Writes to `fd` (a private copy of the original standard output, see main.swift).
    init(fd: Int32) {
        self.fd = fd
    }

    /// Sends one frame. When narratord has gone (its end of the pipe is closed) there is nobody
    /// to serve, so the engine exits.
    func send(_ frame: EngineFrame) {
        let bytes = frame.bytes
        lock.withLock { _ in
            do throws(Errno) {
                try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try Syscall.writeAll(fd, buffer) } }.get()
            } catch {
                StandardError.write("narrator-flite: cannot write to narratord (\(error)); exiting\n")
                _exit(error.code == EPIPE ? 0 : 1)
            }
        }
    }

    /// Sends a line for narratord's journal.
    func log(_ message: String) {
        send(.log(message))
    }
}
