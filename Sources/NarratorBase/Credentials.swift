/// Who is at the other end of a connection.
public struct Credentials: Sendable, Hashable {
    public var pid: Int
    public var uid: UInt32

    public init(pid: Int, uid: UInt32) {
        self.pid = pid
        self.uid = uid
    }

    /// Only the daemon's own user and root are served, on either protocol.
    public func isServed(byDaemonOf uid: UInt32) -> Bool { self.uid == uid || self.uid == 0 }
}
