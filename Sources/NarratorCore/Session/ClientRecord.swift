import NarratorBase

/// What the session knows about one connection.
struct ClientRecord: Sendable {
    let id: ClientID
    let credentials: Credentials
    /// Given with `hello`, shown in `trees`, `status` and the log.
    var name: String?

    var label: String { "\(name ?? "client") (pid \(credentials.pid))" }
}
