import NarratorBase
import NarratorModel
import NarratorProtocol

/// What waits behind what, decided in one place: a JSON connection is answered in the order it
/// sent its input. While something it sent is outstanding (a `set` whose settings file is being
/// written, a large line or a large tree's reorder being prepared off the loop), what it sends
/// after waits in ``InputHolds``; other connections never wait. The daemon's shell only prepares
/// what it is told to (``SessionEffect/prepare(_:_:)``, ``SessionEffect/prepareUpdate(_:_:)``)
/// and feeds the result back; it holds nothing.
extension Session {
    /// What a connection sent: held behind what it has outstanding, else taken now, or handed
    /// out to be prepared (and then what it sends next waits for that).
    mutating func takeInOrder(_ item: consuming InputHolds.Item, from client: ClientID) {
        if holds.order.hold(item, from: client) { return }
        switch consume item {
        case .line(let decoded):
            if case .success(let request) = decoded, let update = updateToPrepare(request, from: client) {
                handOut(.prepareUpdate(client, update), for: client)
            } else {
                take(.decoded(decoded), from: client)
            }
        case .largeLine(let line):
            if isShutDown {
                // Nothing is handed out once stopping (the shell stops its worker after the
                // lines out come back): decoded here, the request is refused as stopping.
                take(PreparedRequest.decoded(line, requests: RequestDecoder(parser: configuration.limits.document.parser)), from: client)
            } else {
                handOut(.prepare(client, line), for: client)
            }
        case .prepared(let prepared):
            take(prepared, from: client)
        case .rejected(let problem):
            rejected(problem, from: client)
        case .disconnect:
            disconnect(client)
        }
    }

    /// A prepared request came back: the result of `client`'s preparation, answered now, after
    /// which what waited behind it is taken again in order; or one prepared elsewhere, taken in order.
    mutating func preparedCame(_ prepared: consuming PreparedRequest, for client: ClientID) {
        guard holds.preparing.remove(client) != nil else {
            takeInOrder(.prepared(prepared), from: client)
            return
        }
        // Let go of before answering: the answer may be outstanding in turn (a `set`), and
        // what waited then waits behind that.
        let waited = holds.order.done(client)
        take(prepared, from: client)
        for item in waited { takeInOrder(item, from: client) }
    }

    /// What `client` had outstanding is done: what it sent after, taken again in order (the
    /// first that is outstanding in turn holds the rest once more).
    mutating func release(_ client: ClientID) {
        for item in holds.order.done(client) { takeInOrder(item, from: client) }
    }

    /// The update to apply off the loop, when `request` rebuilds the reading order of a tree large
    /// enough (``SessionConfiguration/updatesPreparedFrom``) and would be answered now.
    private func updateToPrepare(_ request: Request, from client: ClientID) -> UpdateToPrepare? {
        guard let threshold = configuration.updatesPreparedFrom, !isShutDown, clients[client] != nil,
            let (tree, revision) = workspace.preparableUpdate(request, from: threshold)
        else { return nil }
        return UpdateToPrepare(request: request, tree: tree, revision: revision)
    }

    private mutating func handOut(_ preparation: SessionEffect, for client: ClientID) {
        holds.order.outstanding(client)
        holds.preparing.insert(client)
        batch.emit(preparation)
    }
}
