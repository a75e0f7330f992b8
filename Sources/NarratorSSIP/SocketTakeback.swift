import NarratorBase

/// What narratord does when the path its SSIP listener is bound at stops leading to it: another
/// server (speech-dispatcher started by hand with its own pid file, which narratord's does not
/// stop) removed the socket file and bound its own. Clients that connect by path would reach
/// that server and never narratord, with nothing said, so the path is taken back; a server that
/// keeps taking it is left to it after a few rounds rather than fought forever.
public struct SocketTakeback: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Bind a new listener at the path (said each time: it happens once a server start).
        case takeBack
        /// Taken `limit` times within `window`: leave the path to the other server, said once.
        case giveUp
        /// Given up before: nothing more is done or said.
        case leave
    }

    public let limit: Int
    public let window: Duration
    private var takenBack: [MonotonicInstant] = []
    public private(set) var gaveUp = false

    public init(limit: Int = 3, window: Duration = .seconds(60)) {
        self.limit = limit
        self.window = window
    }

    /// The path no longer leads to narratord's listener, found at `now`.
    public mutating func lost(at now: MonotonicInstant) -> Decision {
        guard !gaveUp else { return .leave }
        takenBack.removeAll { now - $0 >= window }
        guard takenBack.count < limit else {
            gaveUp = true
            return .giveUp
        }
        takenBack.append(now)
        return .takeBack
    }
}
