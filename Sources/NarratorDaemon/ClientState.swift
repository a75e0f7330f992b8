import NarratorCore
import NarratorSystem

/// What the daemon knows about one connection.
struct ClientState {
    let id: ClientID
    let peer: PeerCredentials
    /// Given with `hello`, shown in `trees`, `status` and logs.
    var name: String?
    /// Receives speech events (narratorctl monitor).
    var subscribed = false
    /// Trees this connection registered.
    var ownedTrees: Set<String> = []

    var label: String { "\(name ?? "client") (pid \(peer.pid))" }
}
