import Glibc

/// Who is on the other end of a Unix connection, as the kernel recorded it at connect time
/// (SO_PEERCRED). The daemon admits only its own user and root; a client cannot forge this.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public let pid: pid_t
    public let uid: uid_t
    public let gid: gid_t

    public init(pid: pid_t, uid: uid_t, gid: gid_t) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads the credentials of the peer connected to `socket`.
    public init(socket fd: Int32) throws(Errno) {
        let raw = try Syscall.peerCredentials(fd)
        self.init(pid: raw.pid, uid: raw.uid, gid: raw.gid)
    }

    public var description: String { "pid \(pid), uid \(uid), gid \(gid)" }
}
