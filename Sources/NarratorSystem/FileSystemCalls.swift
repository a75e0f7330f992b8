import Glibc

/// The parts of `struct stat` the socket layer decides on.
public struct FileStatus: Hashable, Sendable {
    public let mode: mode_t
    public let owner: uid_t
    public let device: UInt64
    public let inode: UInt64

    init(_ raw: stat) {
        mode = raw.st_mode
        owner = raw.st_uid
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
    }

    /// Permission bits only (for example 0o700).
    public var permissions: mode_t { mode & 0o7777 }
    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
}

/// stat(2) outside `Syscall`, where the bare name `stat` means the C function, not our wrapper.
private func followingStat(_ path: String, _ raw: UnsafeMutablePointer<stat>) -> Int32 {
    stat(path, raw)
}

extension Syscall {
    /// mkdir(2) with an explicit mode (still filtered by the umask; callers chmod afterwards).
    public static func mkdir(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retryingInterrupts("mkdir") { Glibc.mkdir(path, mode) }
    }

    /// chmod(2).
    public static func chmod(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retryingInterrupts("chmod") { Glibc.chmod(path, mode) }
    }

    /// chown(2); tests use it to build directories owned by another user.
    public static func chown(_ path: String, owner: uid_t, group: gid_t) throws(Errno) {
        _ = try retryingInterrupts("chown") { Glibc.chown(path, owner, group) }
    }

    /// lstat(2): does not follow a final symbolic link, so a planted link is seen as a link.
    public static func lstat(_ path: String) throws(Errno) -> FileStatus {
        var raw = Glibc.stat()
        _ = try retryingInterrupts("lstat") { Glibc.lstat(path, &raw) }
        return FileStatus(raw)
    }

    /// stat(2): follows symbolic links.
    public static func stat(_ path: String) throws(Errno) -> FileStatus {
        var raw = Glibc.stat()
        _ = try retryingInterrupts("stat") { followingStat(path, &raw) }
        return FileStatus(raw)
    }

    /// readlink(2): where a symbolic link points (`/proc/self/exe`: this program's file).
    public static func readLink(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retryingInterrupts("readlink") { Glibc.readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// unlink(2).
    public static func unlink(_ path: String) throws(Errno) {
        _ = try retryingInterrupts("unlink") { Glibc.unlink(path) }
    }

    /// rmdir(2).
    public static func rmdir(_ path: String) throws(Errno) {
        _ = try retryingInterrupts("rmdir") { Glibc.rmdir(path) }
    }

    /// rename(2): atomic within one file system, which is what saving a file whole relies on.
    public static func rename(_ from: String, to: String) throws(Errno) {
        _ = try retryingInterrupts("rename") { Glibc.rename(from, to) }
    }

    /// access(2) for `mode` (`F_OK`, or `R_OK`, `W_OK`, `X_OK` or'd), by the real uid as
    /// FileManager's `isReadableFile` asks it; false whatever the reason.
    public static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
        Glibc.access(path, mode) == 0
    }

    /// Whether anything (a file, a directory, a dangling link's target not included) is at `path`.
    public static func exists(_ path: String) -> Bool {
        isAccessible(path, F_OK)
    }
}
