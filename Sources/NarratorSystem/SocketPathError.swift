import Glibc

/// Why the daemon could not set up its listening socket; each message says what to do next.
public enum SocketPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path cannot be a Unix socket address (empty, NUL, or over the 107-byte limit).
    case invalidAddress(UnixSocketAddress.Failure)
    /// Another narratord answered on this socket.
    case alreadyRunning(String)
    /// Something that is not a socket occupies the path; we never delete it.
    case notASocket(String)
    /// The socket's directory exists but is not a directory (or is a symbolic link).
    case notADirectory(String)
    /// The socket's directory belongs to another user, who could replace our socket.
    case directoryOwnedByAnotherUser(String, owner: uid_t, expected: uid_t)
    /// A system call failed on `path`.
    case system(String, Errno)

    public var description: String {
        switch self {
        case .invalidAddress(let failure):
            return failure.description
        case .alreadyRunning(let path):
            return "narratord is already running on \(path); stop it first, "
                + "or start this one on another socket with --socket PATH or NARRATOR_SOCKET"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; remove it or choose another path with --socket"
        case .notADirectory(let path):
            return "\(path) should be a directory for narratord's socket but is not (or is a symbolic link); remove it"
        case .directoryOwnedByAnotherUser(let path, let owner, let expected):
            return "\(path) is owned by uid \(owner), not by uid \(expected); someone else may control it. "
                + "Remove it, or choose another socket with --socket PATH"
        case .system(let path, let error):
            return "\(path): \(error)"
        }
    }
}
