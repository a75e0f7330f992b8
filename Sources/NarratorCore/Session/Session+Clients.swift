import NarratorBase
import NarratorProtocol

/// JSON connections: who may connect, and what happens to their trees when they go.
extension Session {
    mutating func connect(_ client: ClientID, _ credentials: Credentials) {
        let uid = configuration.uid
        guard credentials.isServed(byDaemonOf: uid) else {
            journal(.warning, "refused \(client): uid \(credentials.uid) (pid \(credentials.pid)) is not the daemon's user (uid \(uid))")
            send(
                client,
                Reply(
                    id: nil,
                    .failure(
                        ReplyError(.permissionDenied, "narratord serves only its own user (uid \(uid)) and root; you are uid \(credentials.uid)"))))
            batch.emit(.close(client))
            return
        }
        clients.connected(client, credentials)
        journal(.debug, "\(client) connected (pid \(credentials.pid))")
    }

    mutating func disconnect(_ client: ClientID) {
        guard let (record, ephemeral) = clients.disconnect(client) else { return }
        journal(.debug, "\(client) disconnected")
        for tree in ephemeral {
            try? workspace.unregister(tree)
            journal(.info, "unregistered ephemeral tree \"\(tree)\": its owner \(record.label) disconnected")
        }
    }
}
