import NarratorBase
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan

/// The JSON protocol's connections and what hangs on them: who each is, who hears speech events,
/// which trees each owns (and how), the announce replies waiting for their row's commit, and the
/// tickets that name work handed out. A connection's trees are read from ``owners``: one record
/// of who owns what, dropped with the connection.
struct JSONClients: Sendable {
    /// An announce reply waiting for its row's commit.
    struct AwaitingCommit: Sendable {
        var client: ClientID
        var id: JSONValue?
        var report: AnnounceReport
    }

    private var records: [ClientID: ClientRecord] = [:]
    /// The connected clients that receive speech events (narratorctl monitor), in client order,
    /// as events go out.
    private(set) var subscribers: [ClientID] = []
    /// The connection that registered each tree, while it is connected.
    private var owners: [String: ClientID] = [:]
    /// Trees removed when their owner disconnects.
    private var ephemeral: Set<String> = []
    /// Trees whose owner asked to hear where users move the focus (`focus_events`).
    private var focusEventTrees: Set<String> = []
    private var awaitingCommit: [Ticket: AwaitingCommit] = [:]
    private var nextTicket: UInt64 = 1

    subscript(client: ClientID) -> ClientRecord? { records[client] }

    var count: Int { records.count }

    mutating func connected(_ client: ClientID, _ credentials: Credentials) {
        records[client] = ClientRecord(id: client, credentials: credentials)
    }

    /// The name a connection gave with `hello`.
    mutating func name(_ client: ClientID, _ name: String) {
        records[client]?.name = name
    }

    /// The connection is gone: it hears no more events and owns nothing. Returns its record and
    /// its ephemeral trees, by name, which go with it; nil when it was not connected.
    mutating func disconnect(_ client: ClientID) -> (record: ClientRecord, ephemeral: [String])? {
        guard let record = records.removeValue(forKey: client) else { return nil }
        subscribers.removeAll { $0 == client }
        var gone: [String] = []
        for tree in trees(ownedBy: client) {
            owners[tree] = nil
            if ephemeral.remove(tree) != nil {
                focusEventTrees.remove(tree)
                gone.append(tree)
            }
        }
        return (record, gone)
    }

    /// Makes `client` receive speech events (kept sorted, as events go out in client order).
    mutating func subscribe(_ client: ClientID) {
        guard records[client] != nil, !subscribers.contains(client) else { return }
        subscribers.insert(client, at: subscribers.firstIndex { $0 > client } ?? subscribers.endIndex)
    }

    // MARK: Trees

    mutating func registered(_ tree: String, by client: ClientID, ephemeral isEphemeral: Bool, focusEvents: Bool) {
        owners[tree] = client
        if isEphemeral { ephemeral.insert(tree) } else { ephemeral.remove(tree) }
        if focusEvents { focusEventTrees.insert(tree) } else { focusEventTrees.remove(tree) }
    }

    mutating func unregistered(_ tree: String) {
        owners[tree] = nil
        ephemeral.remove(tree)
        focusEventTrees.remove(tree)
    }

    /// The connected client that owns `tree`.
    func owner(of tree: String) -> ClientRecord? {
        owners[tree].flatMap { records[$0] }
    }

    /// Who hears that a user (`mover`) moved the focus in `tree`: its owner, if it asked
    /// (`focus_events`) and is not the mover.
    func focusListener(of tree: String, movedBy mover: ClientID) -> ClientID? {
        guard focusEventTrees.contains(tree), let owner = owner(of: tree)?.id, owner != mover else { return nil }
        return owner
    }

    func isEphemeral(_ tree: String) -> Bool { ephemeral.contains(tree) }

    /// The trees `client` registered, by name.
    func trees(ownedBy client: ClientID) -> [String] {
        owners.compactMap { $0.value == client ? $0.key : nil }.sorted()
    }

    /// The ephemeral trees `client` owns: those its disconnection removes.
    func ephemeralTrees(ownedBy client: ClientID) -> [String] {
        owners.filter { $0.value == client && ephemeral.contains($0.key) }.map(\.key)
    }

    /// Each connection that owns trees, with them, by pid.
    var ownerReports: [StatusReport.Owner] {
        Dictionary(grouping: owners.sorted { $0.key < $1.key }) { $0.value }
            .compactMap { client, owned in records[client].map { (record: $0, trees: owned.map(\.key)) } }
            .sorted { ($0.record.credentials.pid, $0.record.id) < ($1.record.credentials.pid, $1.record.id) }
            .map { StatusReport.Owner(name: $0.record.name, pid: Int($0.record.credentials.pid), trees: $0.trees) }
    }

    // MARK: Tickets

    mutating func newTicket() -> Ticket {
        defer { nextTicket += 1 }
        return Ticket(nextTicket)
    }

    /// An announce reply that waits for its row, appended with `ticket`.
    mutating func awaitCommit(_ ticket: Ticket, _ waiting: AwaitingCommit) {
        awaitingCommit[ticket] = waiting
    }

    /// The row of `ticket` was committed, or failed: the reply it held, if its client is still here.
    mutating func committed(_ ticket: Ticket, _ result: Result<Void, LogProblem>) -> AwaitingCommit? {
        guard var waiting = awaitingCommit.removeValue(forKey: ticket) else { return nil }
        switch result {
        case .success: waiting.report.logged = true
        case .failure(let problem): waiting.report.logProblem = problem
        }
        return records[waiting.client] == nil ? nil : waiting
    }
}
