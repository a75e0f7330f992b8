/// Whose settings or speech a command addresses: SELF/self, ALL/all, or a client id number.
public enum SSIPTarget: Sendable, Hashable {
    /// The connection that sent the command (`SELF`).
    case own
    /// Every connection (`ALL`).
    case all
    /// The connection with this client id (`HISTORY GET CLIENT_ID`); it may not exist.
    case client(UInt64)

    /// The word SSIP sends for this target, as the canonical line of a command spells it.
    public var ssip: String {
        switch self {
        case .own: "SELF"
        case .all: "ALL"
        case .client(let id): String(id)
        }
    }
}
