import Glibc

/// Sockets passed by systemd socket activation (`LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES`),
/// read without libsystemd. With a `.socket` unit, systemd binds the socket before the daemon
/// starts, so clients can connect during start-up and the daemon does not bind anything itself.
public struct SocketActivation: Hashable, Sendable {
    /// systemd passes descriptors starting right after stdin, stdout and stderr.
    public static let firstDescriptor: Int32 = 3
    public static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// The passed descriptors, `3 ..< 3 + LISTEN_FDS`.
    public let descriptors: [Int32]
    /// Their names from `LISTEN_FDNAMES` (`FileDescriptorName=`), or "unknown" for each when unset.
    public let names: [String]

    public init(descriptors: [Int32], names: [String]) {
        self.descriptors = descriptors
        self.names = names
    }

    /// Reads the activation variables. Returns nil when the process was not socket-activated:
    /// the variables are absent, `LISTEN_FDS` is 0, or `LISTEN_PID` names another process (the
    /// variables were inherited from a parent and are not meant for us).
    public static func parse(
        environment: [String: String], pid: pid_t
    ) throws(SocketActivationError) -> SocketActivation? {
        guard let pidText = environment["LISTEN_PID"] else { return nil }
        guard let listenPID = pid_t(pidText), listenPID > 0 else { throw .invalidValue("LISTEN_PID", pidText) }
        guard listenPID == pid else { return nil }
        guard let countText = environment["LISTEN_FDS"] else { return nil }
        guard let count = Int32(countText), count >= 0, count <= Int32.max - firstDescriptor else {
            throw .invalidValue("LISTEN_FDS", countText)
        }
        guard count > 0 else { return nil }
        let descriptors = Array(firstDescriptor..<(firstDescriptor + count))
        var names = Array(repeating: "unknown", count: Int(count))
        if let namesText = environment["LISTEN_FDNAMES"] {
            let given = namesText.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard given.count == Int(count) else { throw .nameCountMismatch(descriptors: Int(count), names: given.count) }
            names = given
        }
        return SocketActivation(descriptors: descriptors, names: names)
    }

    /// Reads the activation variables of this process, then removes them from the environment
    /// (so that child processes do not mistake our sockets for theirs) and marks the passed
    /// descriptors close-on-exec. Call it early, before other threads read the environment.
    public static func takeFromProcess() throws(SocketActivationError) -> SocketActivation? {
        var environment: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        defer { for name in variables { unsetenv(name) } }
        guard let activation = try parse(environment: environment, pid: getpid()) else { return nil }
        for fd in activation.descriptors {
            do {
                try Syscall.setCloseOnExec(fd)
            } catch {
                throw .descriptorUnusable(fd, error)
            }
        }
        return activation
    }

    /// The passed descriptors that are listening Unix stream sockets, the only kind narratord serves.
    public var listeningUnixStreamSockets: [Int32] {
        descriptors.filter(Syscall.isListeningUnixStreamSocket)
    }

    /// The passed listening sockets named `name` (`FileDescriptorName=` in the socket unit).
    public func listeningUnixStreamSockets(named name: String) -> [Int32] {
        zip(descriptors, names).filter { $0.1 == name && Syscall.isListeningUnixStreamSocket($0.0) }.map(\.0)
    }
}

/// Malformed socket-activation variables: a broken unit file, reported rather than guessed at.
public enum SocketActivationError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidValue(String, String)
    case nameCountMismatch(descriptors: Int, names: Int)
    case descriptorUnusable(Int32, Errno)

    public var description: String {
        switch self {
        case .invalidValue(let name, let value):
            return "socket activation: \(name)=\(value.debugDescription) is not a valid number"
        case .nameCountMismatch(let descriptors, let names):
            return "socket activation: LISTEN_FDS says \(descriptors) descriptors but LISTEN_FDNAMES lists \(names) names"
        case .descriptorUnusable(let fd, let error):
            return "socket activation: descriptor \(fd) is unusable: \(error)"
        }
    }
}
