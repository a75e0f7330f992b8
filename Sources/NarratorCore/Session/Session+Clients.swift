import NarratorBase

/// Connections: who may connect, and what happens to their trees when they go.
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
            effects.append(.close(client))
            return
        }
        clients[client] = ClientRecord(id: client, credentials: credentials)
        journal(.debug, "\(client) connected (pid \(credentials.pid))")
    }

    mutating func disconnect(_ client: ClientID) {
        guard let record = clients.removeValue(forKey: client) else { return }
        subscribers.removeAll { $0 == client }
        journal(.debug, "\(client) disconnected")
        for tree in trees(ownedBy: client) {
            owners[tree] = nil
            if ephemeral.contains(tree) {
                try? workspace.unregister(tree)
                ephemeral.remove(tree)
                focusEventTrees.remove(tree)
                journal(.info, "unregistered ephemeral tree \"\(tree)\": its owner \(record.label) disconnected")
            }
        }
    }

    /// Makes `client` receive speech events (kept sorted, as events go out in client order).
    mutating func subscribe(_ client: ClientID) {
        guard clients[client] != nil, !subscribers.contains(client) else { return }
        subscribers.insert(client, at: subscribers.firstIndex { $0 > client } ?? subscribers.endIndex)
    }
}
