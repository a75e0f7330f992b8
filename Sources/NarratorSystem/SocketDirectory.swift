import Glibc

/// What `SocketPath.prepareDirectory` found or did, so the daemon can log it.
public enum DirectoryPreparation: Hashable, Sendable {
    /// The directory was created with mode 0700.
    case created
    /// The directory existed and was acceptable as it was.
    case existing
    /// Narrator's own directory had group or other permissions; they were removed.
    case permissionsTightened(from: mode_t)
}

extension SocketPath {
    /// Makes sure the socket's directory exists and, for narrator's own directory, that only
    /// `uid` can use it: missing directories are created 0700; an existing narrator directory
    /// owned by someone else (or a symbolic link) is refused, and one with loose permissions is
    /// tightened to 0700. A directory the user named explicitly is created if missing and otherwise
    /// left alone, because it may be shared.
    public func prepareDirectory(uid: uid_t) throws(SocketPathError) -> DirectoryPreparation {
        let directory = self.directory
        let status: FileStatus
        do {
            status = try ownsDirectory ? Syscall.lstat(directory) : Syscall.stat(directory)
        } catch where error.code == ENOENT {
            try Self.createDirectories(directory)
            return .created
        } catch {
            throw .system(directory, error)
        }
        guard status.isDirectory else { throw .notADirectory(directory) }
        guard ownsDirectory else { return .existing }
        guard status.owner == uid else {
            throw .directoryOwnedByAnotherUser(directory, owner: status.owner, expected: uid)
        }
        guard status.permissions & 0o077 == 0 else {
            do {
                try Syscall.chmod(directory, mode: 0o700)
            } catch {
                throw .system(directory, error)
            }
            return .permissionsTightened(from: status.permissions)
        }
        return .existing
    }

    /// mkdir -p with mode 0700 for every directory it creates (chmod after mkdir because the
    /// umask could otherwise strip bits we rely on, or leave ones we do not want).
    private static func createDirectories(_ directory: String) throws(SocketPathError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            do {
                try Syscall.mkdir(prefix, mode: 0o700)
                try Syscall.chmod(prefix, mode: 0o700)
            } catch where error.code == EEXIST {
                continue
            } catch {
                throw .system(prefix, error)
            }
        }
    }
}
