import Glibc

/// `Type=notify` readiness without libsystemd: state lines sent as one datagram to the Unix
/// socket named by `NOTIFY_SOCKET` (a path, or an abstract name written "@name"). When the
/// variable is unset (not started by systemd) every call does nothing, so the daemon can call it
/// unconditionally.
public struct SystemdNotifier: Sendable {
    /// One `KEY=VALUE` line of the notification protocol.
    public enum State: Hashable, Sendable {
        /// Start-up finished; systemd considers the service active.
        case ready
        /// Free-form status shown by `systemctl status`.
        case status(String)
        /// Shutdown began.
        case stopping
        /// Configuration reload began (`MONOTONIC_USEC` is added, as Type=notify-reload requires).
        case reloading
        /// The main process, if it is not the one systemd started.
        case mainPID(pid_t)

        func lines(monotonicMicroseconds: () -> UInt64) -> [String] {
            switch self {
            case .ready: return ["READY=1"]
            case .stopping: return ["STOPPING=1"]
            case .reloading: return ["RELOADING=1", "MONOTONIC_USEC=\(monotonicMicroseconds())"]
            case .mainPID(let pid): return ["MAINPID=\(pid)"]
            case .status(let text):
                // A newline would start a new assignment; keep the status on one line.
                return ["STATUS=" + text.split(whereSeparator: \.isNewline).joined(separator: " ")]
            }
        }
    }

    /// The notification socket's address as given, or nil when not running under systemd.
    public let socket: String?

    public init(environment: [String: String]) {
        if let value = environment["NOTIFY_SOCKET"], !value.isEmpty {
            socket = value
        } else {
            socket = nil
        }
    }

    public var isEnabled: Bool { socket != nil }

    /// Sends `states` as one datagram; does nothing when `NOTIFY_SOCKET` is unset.
    public func notify(_ states: [State]) throws(SystemdNotifierError) {
        guard let socket, !states.isEmpty else { return }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(systemdNotation: socket)
        } catch {
            throw .invalidSocket(socket, error)
        }
        guard socket.hasPrefix("@") || socket.hasPrefix("/") else {
            throw .invalidSocket(socket, nil)
        }
        let message = states.flatMap { $0.lines(monotonicMicroseconds: Self.monotonicMicroseconds) }
            .joined(separator: "\n") + "\n"
        do throws(Errno) {
            let fd = try Syscall.unixSocket(type: Syscall.datagram)
            defer { try? Syscall.close(fd) }
            var bytes = Array(message.utf8)
            let sent = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try Syscall.send(fd, UnsafeRawBufferPointer(raw), to: address) }
            }.get()
            if sent != bytes.count { throw Errno(code: EMSGSIZE, syscall: "sendto") }
        } catch {
            throw .sendFailed(socket, error)
        }
    }

    /// READY=1, with an optional status line.
    public func ready(status: String? = nil) throws(SystemdNotifierError) {
        try notify([.ready] + (status.map { [.status($0)] } ?? []))
    }

    /// STATUS=...
    public func status(_ text: String) throws(SystemdNotifierError) {
        try notify([.status(text)])
    }

    /// STOPPING=1
    public func stopping() throws(SystemdNotifierError) {
        try notify([.stopping])
    }

    /// RELOADING=1 with MONOTONIC_USEC; send `ready()` when the reload is done.
    public func reloading() throws(SystemdNotifierError) {
        try notify([.reloading])
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}

/// Why a notification could not be delivered.
public enum SystemdNotifierError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidSocket(String, UnixSocketAddress.Failure?)
    case sendFailed(String, Errno)

    public var description: String {
        switch self {
        case .invalidSocket(let socket, let failure):
            return "NOTIFY_SOCKET=\(socket) is not a Unix socket path or @abstract name"
                + (failure.map { ": \($0)" } ?? "")
        case .sendFailed(let socket, let error):
            return "could not notify systemd through \(socket): \(error)"
        }
    }
}
