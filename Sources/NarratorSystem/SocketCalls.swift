import CNarratorSystem
import Glibc

/// One small wrapper per system call, each throwing a typed `Errno` and retrying EINTR where
/// repeating the call is correct. Descriptors are plain `Int32`s: ownership is documented at the
/// call sites that create them (the event loop, the client, the listening socket).
public enum Syscall {}

extension Syscall {
    /// socket(2) for the Unix family, always close-on-exec so that children never inherit it.
    public static func unixSocket(type: Int32, nonBlocking: Bool = false) throws(Errno) -> Int32 {
        var flags = type | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { flags |= Int32(SOCK_NONBLOCK.rawValue) }
        return try retryingInterrupts("socket") { socket(AF_UNIX, flags, 0) }
    }

    /// SOCK_STREAM as the Int32 that `unixSocket(type:)` expects.
    public static var stream: Int32 { Int32(SOCK_STREAM.rawValue) }
    /// SOCK_DGRAM as the Int32 that `unixSocket(type:)` expects.
    public static var datagram: Int32 { Int32(SOCK_DGRAM.rawValue) }

    /// bind(2) to a Unix address.
    public static func bind(_ fd: Int32, to address: UnixSocketAddress) throws(Errno) {
        _ = try address.withSockaddr { (pointer, length) throws(Errno) -> Int32 in
            try retryingInterrupts("bind") { Glibc.bind(fd, pointer, length) }
        }
    }

    /// listen(2).
    public static func listen(_ fd: Int32, backlog: Int32) throws(Errno) {
        _ = try retryingInterrupts("listen") { Glibc.listen(fd, backlog) }
    }

    /// accept4(2) returning a non-blocking, close-on-exec descriptor, or nil when no connection
    /// is waiting (EAGAIN) so that the loop can go back to poll. The caller owns the connection:
    /// dropped, it is closed.
    public static func accept(_ fd: Int32) throws(Errno) -> OwnedDescriptor? {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        do {
            return OwnedDescriptor(try retryingInterrupts("accept4") { narrator_accept4(fd, nil, nil, flags) })
        } catch where error.isWouldBlock || error.code == ECONNABORTED {
            return nil
        }
    }

    /// connect(2). On a blocking socket an interrupted connect keeps going in the kernel, so
    /// EINTR is finished by waiting for writability and reading SO_ERROR rather than by calling
    /// connect again (which would fail with EALREADY).
    public static func connect(_ fd: Int32, to address: UnixSocketAddress) throws(Errno) {
        let result = address.withSockaddr { pointer, length in Glibc.connect(fd, pointer, length) }
        if result == 0 { return }
        let code = errno
        guard code == EINTR else { throw Errno(code: code, syscall: "connect") }
        _ = try poll(fd, events: Int16(POLLOUT), timeoutMilliseconds: -1)
        let pending = try socketOption(fd, level: SOL_SOCKET, name: SO_ERROR)
        if pending != 0 { throw Errno(code: pending, syscall: "connect") }
    }

    /// send(2) with MSG_NOSIGNAL: a vanished peer is an EPIPE error, never a process-killing SIGPIPE.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, nonBlocking: Bool = false) throws(Errno) -> Int {
        var flags = Int32(MSG_NOSIGNAL)
        if nonBlocking { flags |= Int32(MSG_DONTWAIT) }
        return try retryingInterrupts("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }
    }

    /// sendto(2) a datagram to a Unix address (systemd notifications), with MSG_NOSIGNAL.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: UnixSocketAddress) throws(Errno) -> Int {
        try address.withSockaddr { (pointer, length) throws(Errno) -> Int in
            try retryingInterrupts("sendto") {
                Glibc.sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), pointer, length)
            }
        }
    }

    /// shutdown(2) one direction of a connected socket.
    public static func shutdown(_ fd: Int32, writing: Bool, reading: Bool) throws(Errno) {
        let how: Int32
        switch (reading, writing) {
        case (true, true): how = Int32(SHUT_RDWR)
        case (true, false): how = Int32(SHUT_RD)
        default: how = Int32(SHUT_WR)
        }
        _ = try retryingInterrupts("shutdown") { Glibc.shutdown(fd, how) }
    }

    /// getsockopt(2) for an integer option (SO_ERROR, SO_TYPE, SO_ACCEPTCONN).
    public static func socketOption(_ fd: Int32, level: Int32, name: Int32) throws(Errno) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try retryingInterrupts("getsockopt") { getsockopt(fd, level, name, &value, &length) }
        return value
    }

    /// getsockopt(SO_PEERCRED): the pid, uid and gid of the process that connected.
    public static func peerCredentials(_ fd: Int32) throws(Errno) -> (pid: pid_t, uid: uid_t, gid: gid_t) {
        var credentials = narrator_ucred()
        var length = socklen_t(MemoryLayout<narrator_ucred>.size)
        _ = try retryingInterrupts("getsockopt(SO_PEERCRED)") {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        return (credentials.pid, credentials.uid, credentials.gid)
    }

    /// getsockname(2)'s address family, to check that an inherited descriptor is a Unix socket.
    public static func socketFamily(_ fd: Int32) throws(Errno) -> Int32 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { (pointer) throws(Errno) -> Int32 in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (generic) throws(Errno) -> Int32 in
                try retryingInterrupts("getsockname") { getsockname(fd, generic, &length) }
            }
        }
        return Int32(storage.ss_family)
    }

    /// getsockname(2)'s path for a Unix socket bound to one (nil for an unnamed or abstract one):
    /// where a socket systemd passed us lives.
    public static func unixSocketPath(_ fd: Int32) throws(Errno) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        _ = try withUnsafeMutablePointer(to: &address) { (pointer) throws(Errno) -> Int32 in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (generic) throws(Errno) -> Int32 in
                try retryingInterrupts("getsockname") { getsockname(fd, generic, &length) }
            }
        }
        guard Int32(address.sun_family) == AF_UNIX else { return nil }
        let pathLength = Int(length) - MemoryLayout<sa_family_t>.size
        guard pathLength > 0 else { return nil }
        let bytes = withUnsafeBytes(of: address.sun_path) { Array($0.prefix(pathLength)) }
        guard let first = bytes.first, first != 0 else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// True when `fd` is a listening Unix stream socket, the kind of descriptor systemd should pass us.
    public static func isListeningUnixStreamSocket(_ fd: Int32) -> Bool {
        do {
            return try socketFamily(fd) == AF_UNIX
                && socketOption(fd, level: SOL_SOCKET, name: SO_TYPE) == stream
                && socketOption(fd, level: SOL_SOCKET, name: SO_ACCEPTCONN) != 0
        } catch {
            return false
        }
    }
}
