/// What the session sends an SSIP connection: a reply to its command, or an event about one of
/// its messages. Written as is (every line ends in CRLF), unlike the JSON protocol's lines.
public enum SSIPOutput: Sendable, Hashable {
    case reply(SSIPReply)
    case event(SSIPEvent)

    /// The bytes on the wire.
    public var wire: String {
        switch self {
        case .reply(let reply): reply.wire
        case .event(let event): event.wire
        }
    }
}
