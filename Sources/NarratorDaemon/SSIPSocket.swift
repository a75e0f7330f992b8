import NarratorSystem

/// Where narratord serves Speech Dispatcher's protocol (`--ssip`), and how systemd names that
/// socket when it passes it (`FileDescriptorName=ssip` in narratord-ssip.socket).
enum SSIPSocket {
    static let descriptorName = "ssip"

    /// The path `--ssip` names: nil for off; for auto, where Speech Dispatcher's clients look
    /// without `SPEECHD_ADDRESS`.
    static func path(_ listening: DaemonOptions.SSIPListening, environment: [String: String]) throws -> SocketPath? {
        switch listening {
        case .off:
            return nil
        case .path(let path):
            return SocketPath(path: path, origin: .flag)
        case .auto:
            guard let path = SocketPath.speechDispatcher(environment: environment) else {
                throw DaemonMain.StartError(description: "--ssip auto: neither XDG_RUNTIME_DIR nor HOME is set, so there is no place Speech Dispatcher's clients look; give --ssip PATH")
            }
            return path
        }
    }
}
