import Glibc
import NarratorSSIP
import NarratorSystem
import Synchronization

/// Watches the directory of the SSIP socket narratord bound, and takes the path back when
/// another server takes it (``SocketTakeback`` decides). It waits on inotify on its own thread,
/// so an idle daemon does not wake; the new listener goes to the loop as a message, and the
/// loop swaps it in. `stop` ends its work before narratord removes its socket file at exit.
final class SSIPSocketGuard: Sendable {
    /// What the loop is told.
    enum Report: Sendable {
        /// Serve `new` in place of `old`; `by` names the server that had taken the path.
        case takenBack(old: Int32, new: Int32, path: String, by: String?)
        /// The path is left to the other server (it kept taking it).
        case left(path: String, by: String?, times: Int, within: Duration)
        /// Taking the path back failed.
        case failed(path: String, SocketPathError)
    }

    private struct State: Sendable {
        var socket: ListeningSocket
        var takeback = SocketTakeback()
        var stopped = false
    }

    private let state: Mutex<State>
    private let path: SocketPath
    private let uid: uid_t

    private init(_ socket: ListeningSocket, path: SocketPath, uid: uid_t) {
        state = Mutex(State(socket: socket))
        self.path = path
        self.uid = uid
    }

    /// Starts watching the directory of `socket`, bound at `path`.
    static func start(
        _ socket: ListeningSocket, bound path: SocketPath, uid: uid_t, report: @escaping @Sendable (Report) -> Void
    ) throws(Errno) -> SSIPSocketGuard {
        let directory = socket.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = String(socket.path.split(separator: "/").last ?? "")
        let watch = try DirectoryWatch(directory.isEmpty ? "/" : directory)
        let guardian = SSIPSocketGuard(socket, path: path, uid: uid)
        DetachedThread.start(name: "narrator.ssipwatch") {
            // Taken between the bind and the watch's start: nothing would say so.
            guard guardian.check(report) else { return }
            while let names = try? watch.next() {
                guard names.contains(name) else { continue }
                guard guardian.check(report) else { return }
            }
        }
        return guardian
    }

    /// Stops taking the path back and returns the listener bound last, whose file is removed at exit.
    func stop() -> ListeningSocket {
        state.withLock { state in
            state.stopped = true
            return state.socket
        }
    }

    /// Something changed at the path: takes it back if it no longer leads to narratord. Returns
    /// whether to go on watching. The lock is held throughout, so `stop` waits for a take-back
    /// under way and never finds a socket file bound after it.
    private func check(_ report: @Sendable (Report) -> Void) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            guard !state.socket.isAtItsPath else { return true }
            let path = state.socket.path
            let by = Self.server(at: path)
            switch state.takeback.lost(at: MonotonicClock.now()) {
            case .takeBack:
                do throws(SocketPathError) {
                    let new = try self.path.takeBackListener(uid: uid)
                    report(.takenBack(old: state.socket.fd, new: new.fd, path: path, by: by))
                    state.socket = new
                } catch {
                    report(.failed(path: path, error))
                }
                return true
            case .giveUp:
                report(.left(path: path, by: by, times: state.takeback.limit, within: state.takeback.window))
                return false
            case .leave:
                return false
            }
        }
    }

    /// The program and pid of the server listening at `path`, when one answers ("speech-dispatcher, pid 4242").
    private static func server(at path: String) -> String? {
        guard let address = try? UnixSocketAddress(path: path), let fd = try? Syscall.unixSocket(type: Syscall.stream) else { return nil }
        defer { try? Syscall.close(fd) }
        guard (try? Syscall.connect(fd, to: address)) != nil, let peer = try? Syscall.peerCredentials(fd) else { return nil }
        let program = (try? Syscall.readFile("/proc/\(peer.pid)/comm", limit: 64)).map { String(decoding: $0, as: UTF8.self).trimmingNewline }
        return "\(program ?? "a process"), pid \(peer.pid)"
    }
}

extension String {
    fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
