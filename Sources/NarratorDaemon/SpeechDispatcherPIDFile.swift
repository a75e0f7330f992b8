import Glibc
import NarratorSystem

/// speech-dispatcher's pid file, held by narratord while it serves SSIP where speech-dispatcher's
/// clients look.
///
/// `speech-dispatcher --spawn` (which speechd-el runs before every connection, and libspeechd
/// when it autospawns) starts only if no process holds a lock on
/// `<socket directory>/pid/speech-dispatcher.pid`; otherwise it says "Speech Dispatcher already
/// running" and exits, leaving the socket alone. Without this lock it unlinked narratord's socket
/// and bound its own, and every later client spoke to it while narratord served no one. The file
/// holds narratord's pid, as speech-dispatcher's holds its own.
final class SpeechDispatcherPIDFile {
    let path: String
    private let fd: Int32

    /// Why the file could not be held: narratord serves on, but an autospawn may take the socket.
    enum Failure: Error, CustomStringConvertible {
        /// A running speech-dispatcher (or another narratord) holds it.
        case held(path: String, by: pid_t)
        case failed(path: String, Errno)

        var description: String {
            switch self {
            case .held(let path, let pid):
                "\(path) is locked by pid \(pid) (a speech-dispatcher that does not serve this socket?): a client that autospawns speech-dispatcher may take the SSIP socket away; stop it (systemctl --user stop speech-dispatcher.service)"
            case .failed(let path, let errno):
                "cannot hold \(path) (\(errno)): a client that autospawns speech-dispatcher may take the SSIP socket away"
            }
        }
    }

    /// Where speech-dispatcher keeps its pid file when it serves `socket` by default: its
    /// runtime directory (the socket's own) and `pid/speech-dispatcher.pid` in it.
    static func path(forSocket socket: SocketPath) -> String {
        socket.directory + "/pid/speech-dispatcher.pid"
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Creates (or takes over a dead server's) pid file, locks it and writes `pid` into it.
    static func hold(_ path: String, pid: pid_t) throws(Failure) -> SpeechDispatcherPIDFile {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        do {
            try Syscall.mkdir(directory, mode: 0o700)
        } catch where error.code == EEXIST {
        } catch {
            throw .failed(path: path, error)
        }
        let fd: Int32
        do { fd = try Syscall.open(path, flags: O_RDWR | O_CREAT, mode: 0o644) } catch { throw .failed(path: path, error) }
        do {
            try Syscall.lockForWriting(fd)
        } catch {
            let holder = try? Syscall.writeLockHolder(fd)
            try? Syscall.close(fd)
            if error.code == EAGAIN || error.code == EACCES, let holder { throw .held(path: path, by: holder.pid) }
            throw .failed(path: path, error)
        }
        do {
            try Syscall.truncate(fd, to: 0)
            let line = Array("\(pid)\n".utf8)
            _ = try line.withUnsafeBytes { (bytes) throws(Errno) -> Int in try Syscall.write(fd, bytes) }
        } catch {
            // The lock is what speech-dispatcher checks; a pid it cannot read changes nothing.
        }
        return SpeechDispatcherPIDFile(path: path, fd: fd)
    }

    /// At a clean stop: the file goes, as speech-dispatcher's does, and so does the lock.
    func release() {
        try? Syscall.unlink(path)
        try? Syscall.close(fd)
    }
}
