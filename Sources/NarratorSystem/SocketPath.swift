import Glibc

/// Where narratord listens and narratorctl connects, resolved by one rule shared by both:
/// `--socket PATH`, else `$NARRATOR_SOCKET`, else `$XDG_RUNTIME_DIR/narrator/narratord.sock`,
/// else `/tmp/narrator-UID/narratord.sock`. The resolver is pure so that both programs and the
/// tests agree on it without touching the disk.
public struct SocketPath: Hashable, Sendable, CustomStringConvertible {
    /// Which step of the rule produced the path; it decides how strictly the directory is checked.
    public enum Origin: Hashable, Sendable {
        /// `--socket PATH`.
        case flag
        /// `$NARRATOR_SOCKET`.
        case environment
        /// `$XDG_RUNTIME_DIR/narrator`.
        case runtimeDirectory
        /// `/tmp/narrator-UID`, when `XDG_RUNTIME_DIR` is unset.
        case temporaryDirectory
    }

    public static let environmentVariable = "NARRATOR_SOCKET"
    public static let socketName = "narratord.sock"

    public let path: String
    public let origin: Origin

    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    /// Applies the rule. Empty values count as unset, and a relative `XDG_RUNTIME_DIR` is
    /// ignored as the XDG specification requires.
    public static func resolve(flag: String?, environment: [String: String], uid: uid_t) -> SocketPath {
        if let flag, !flag.isEmpty {
            return SocketPath(path: flag, origin: .flag)
        }
        if let variable = environment[environmentVariable], !variable.isEmpty {
            return SocketPath(path: variable, origin: .environment)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let base = runtime.count > 1 && runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
            return SocketPath(path: "\(base == "/" ? "" : base)/narrator/\(socketName)", origin: .runtimeDirectory)
        }
        return SocketPath(path: "/tmp/narrator-\(uid)/\(socketName)", origin: .temporaryDirectory)
    }

    /// Where Speech Dispatcher's clients (spd-say, python3-speechd, Orca) look for its socket
    /// when `SPEECHD_ADDRESS` is unset: `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock`, else
    /// `$HOME/.cache/speech-dispatcher/speechd.sock`; nil when neither variable helps.
    public static func speechDispatcher(environment: [String: String]) -> SocketPath? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let base = runtime.count > 1 && runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
            return SocketPath(path: "\(base == "/" ? "" : base)/speech-dispatcher/speechd.sock", origin: .runtimeDirectory)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            let base = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
            return SocketPath(path: "\(base == "/" ? "" : base)/.cache/speech-dispatcher/speechd.sock", origin: .runtimeDirectory)
        }
        return nil
    }

    /// The directory holding the socket ("." for a bare relative name).
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// True when the directory is narrator's own (the default locations): only then is it safe
    /// to insist on our ownership and to tighten its mode. A directory named by the user through
    /// `--socket` or `NARRATOR_SOCKET` may be shared (even /tmp) and is used as it is.
    public var ownsDirectory: Bool {
        origin == .runtimeDirectory || origin == .temporaryDirectory
    }

    public var description: String { path }
}
