import Glibc

/// A bound, listening Unix stream socket created by `SocketPath.bindListener`. The event loop
/// takes ownership of `fd`; `removeSocketFile()` deletes the path on a clean exit, but only while
/// it is still ours (a newer daemon may have replaced it).
public struct ListeningSocket: Sendable {
    public let fd: Int32
    public let path: String
    /// True when a stale socket from a dead daemon was found and replaced.
    public let replacedStaleSocket: Bool
    /// What happened to the socket's directory.
    public let directory: DirectoryPreparation
    let identity: FileStatus

    /// Whether the file at `path` is still the socket this process bound: another server that
    /// removed it and bound its own there (speech-dispatcher started by hand does) has taken it.
    public var isAtItsPath: Bool {
        guard let current = try? Syscall.lstat(path) else { return false }
        return current.device == identity.device && current.inode == identity.inode
    }

    /// Unlinks the socket file if it is still the one this process bound; returns whether it did.
    /// Call it after the loop has closed the listener. Inode numbers are reused quickly, so a
    /// matching inode alone does not prove the file is ours: a file some live daemon answers on
    /// is left alone, while a dead one with our inode can only be ours.
    @discardableResult
    public func removeSocketFile() -> Bool {
        guard let current = try? Syscall.lstat(path),
              current.device == identity.device, current.inode == identity.inode,
              let address = try? UnixSocketAddress(path: path) else { return false }
        switch probeSocketFile(path, address) {
        case .stale:
            return (try? Syscall.unlink(path)) != nil
        case .alive, .gone, .notASocket, .failed:
            return false
        }
    }
}

extension SocketPath {
    /// Binds a new listener at the path even though another server answers there: its socket
    /// file is removed first (its listener goes on, unreachable by path). For taking back a path
    /// another server took from under this process's own listener.
    public func takeBackListener(uid: uid_t, backlog: Int32 = 128) throws(SocketPathError) -> ListeningSocket {
        if let status = try? Syscall.lstat(path), status.isSocket {
            do {
                try Syscall.unlink(path)
            } catch where error.code == ENOENT {
            } catch {
                throw .system(path, error)
            }
        }
        return try bindListener(uid: uid, backlog: backlog)
    }

    /// Prepares the directory, then binds and listens on the socket with mode 0600. An existing
    /// socket file is probed with a connect: a refused connection means its daemon is dead, so
    /// the file is replaced; an answer means another daemon is alive (`.alreadyRunning`).
    public func bindListener(uid: uid_t, backlog: Int32 = 128) throws(SocketPathError) -> ListeningSocket {
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw .invalidAddress(error)
        }
        let preparation = try prepareDirectory(uid: uid)
        // Closed on every error below; taken by the ListeningSocket (for the loop) on success.
        let socket: OwnedDescriptor
        do {
            socket = OwnedDescriptor(try Syscall.unixSocket(type: Syscall.stream, nonBlocking: true))
        } catch {
            throw .system(path, error)
        }
        let replaced = try bindReplacingStale(socket.rawValue, address)
        try chmodSocket()
        do {
            try Syscall.listen(socket.rawValue, backlog: backlog)
        } catch {
            throw SocketPathError.system(path, error)
        }
        let identity: FileStatus
        do {
            identity = try Syscall.lstat(path)
        } catch {
            throw SocketPathError.system(path, error)
        }
        return ListeningSocket(
            fd: socket.take(), path: path, replacedStaleSocket: replaced, directory: preparation, identity: identity)
    }

    private func chmodSocket() throws(SocketPathError) {
        do {
            try Syscall.chmod(path, mode: 0o600)
        } catch {
            throw .system(path, error)
        }
    }

    /// Binds, replacing a stale socket at most once; returns whether one was replaced.
    private func bindReplacingStale(_ fd: Int32, _ address: UnixSocketAddress) throws(SocketPathError) -> Bool {
        do {
            try Syscall.bind(fd, to: address)
            return false
        } catch where error.code == EADDRINUSE {
            // Fall through to the probe below.
        } catch {
            throw .system(path, error)
        }
        switch probeSocketFile(path, address) {
        case .alive:
            throw .alreadyRunning(path)
        case .notASocket:
            throw .notASocket(path)
        case .stale, .gone:
            break
        case .failed(let error):
            throw .system(path, error)
        }
        do {
            try Syscall.unlink(path)
        } catch where error.code == ENOENT {
            // Another process removed it first; binding below decides who wins.
        } catch {
            throw .system(path, error)
        }
        do {
            try Syscall.bind(fd, to: address)
            return true
        } catch where error.code == EADDRINUSE {
            // Someone bound between our unlink and bind: they are the live daemon now.
            throw .alreadyRunning(path)
        } catch {
            throw .system(path, error)
        }
    }
}

/// What is at a socket path that is already taken.
enum SocketProbe {
    case alive, stale, gone, notASocket
    case failed(Errno)
}

/// Connects to the existing file without blocking: an accepted (or queued, EAGAIN) connection
/// means a live daemon; ECONNREFUSED means nobody listens any more.
func probeSocketFile(_ path: String, _ address: UnixSocketAddress) -> SocketProbe {
    do {
        let status = try Syscall.lstat(path)
        guard status.isSocket else { return .notASocket }
    } catch where error.code == ENOENT {
        return .gone
    } catch {
        return .failed(error)
    }
    let probe: Int32
    do {
        probe = try Syscall.unixSocket(type: Syscall.stream, nonBlocking: true)
    } catch {
        return .failed(error)
    }
    defer { try? Syscall.close(probe) }
    do {
        try Syscall.connect(probe, to: address)
        return .alive
    } catch where error.isWouldBlock {
        return .alive
    } catch where error.code == ECONNREFUSED {
        return .stale
    } catch where error.code == ENOENT {
        return .gone
    } catch {
        return .failed(error)
    }
}
