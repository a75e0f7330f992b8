/// An event line group for 700..705: `700-msg` `700-client` [`700-mark`] `700 INDEX MARK`. Sent
/// only to the connection that queued the message, and only for the kinds it turned on.
public enum SSIPEvent: Sendable, Hashable {
    case indexMark(message: UInt64, client: UInt64, mark: String)
    case begin(message: UInt64, client: UInt64)
    case end(message: UInt64, client: UInt64)
    /// Also after STOP, and for a message dropped by priority.
    case canceled(message: UInt64, client: UInt64)
    case paused(message: UInt64, client: UInt64)
    case resumed(message: UInt64, client: UInt64)

    /// The notification a client turns on to receive this event.
    public var kind: SSIPEventKind {
        switch self {
        case .indexMark: .indexMarks
        case .begin: .begin
        case .end: .end
        case .canceled: .cancel
        case .paused: .pause
        case .resumed: .resume
        }
    }

    /// The event as a reply: message id, client id, mark name (700 only), then the final line.
    public var reply: SSIPReply {
        switch self {
        case .indexMark(let message, let client, let mark): SSIPReply(700, "INDEX MARK", data: [String(message), String(client), mark])
        case .begin(let message, let client): SSIPReply(701, "BEGIN", data: [String(message), String(client)])
        case .end(let message, let client): SSIPReply(702, "END", data: [String(message), String(client)])
        case .canceled(let message, let client): SSIPReply(703, "CANCELED", data: [String(message), String(client)])
        case .paused(let message, let client): SSIPReply(704, "PAUSED", data: [String(message), String(client)])
        case .resumed(let message, let client): SSIPReply(705, "RESUMED", data: [String(message), String(client)])
        }
    }

    /// The bytes to send, every line ending "\r\n".
    public var wire: String { reply.wire }
}
