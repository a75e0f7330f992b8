import NarratorBase

/// The one rule for what waits behind what: a client answered in the order it sent its input.
/// While something a client sent is outstanding (a `set` whose settings file is being written, a
/// large line being prepared off the loop), what it sends after waits here, in order; when that
/// is done, the waiting input is taken again in order, and the first that is itself outstanding
/// holds the rest once more. Other clients never wait. The session keeps one, in ``InputHolds``,
/// for its settings writes and its preparations alike.
public struct InputOrder<Item: Sendable>: Sendable {
    private var waiting: [ClientID: [Item]] = [:]

    public init() {}

    /// Whether something `client` sent is outstanding: its next input waits.
    public func isWaiting(_ client: ClientID) -> Bool { waiting[client] != nil }

    /// Something `client` sent is outstanding now: what it sends next waits.
    public mutating func outstanding(_ client: ClientID) {
        if waiting[client] == nil { waiting[client] = [] }
    }

    /// Holds `item` behind what `client` has outstanding; false when nothing is, and it is for now.
    public mutating func hold(_ item: Item, from client: ClientID) -> Bool {
        guard waiting[client] != nil else { return false }
        waiting[client, default: []].append(item)
        return true
    }

    /// What `client` had outstanding is done: what waited, in order, to be taken again (each
    /// through ``hold(_:from:)`` first, since one of them may be outstanding in turn).
    public mutating func done(_ client: ClientID) -> [Item] {
        waiting.removeValue(forKey: client) ?? []
    }
}
