import NarratorBase
import NarratorSpeechPlan

/// The log's command rows: what silenced speech without being speech.
extension Session {
    /// A row for a command that silenced speech (SSIP `CANCEL` and `STOP`, `stop`, the daemon's
    /// own `shutdown`): what a trace exported from the log needs to replay the cancels it caused.
    mutating func logCommand(_ command: String, from client: ClientID?) {
        let record = client.flatMap { clients[$0] }
        let name = client.flatMap { ssipClients[$0]?.settings.clientName } ?? record?.name
        effects.append(
            .appendLog(
                LogRow(
                    kind: .command, text: command, policy: configuration.policy.name, clientPID: record.map { Int64($0.credentials.pid) },
                    clientUID: record.map { Int64($0.credentials.uid) }, clientName: name, queuedAt: seconds(now), endedAt: seconds(now),
                    outcome: .done, connection: client.map { Int64($0.rawValue) }, command: command),
                nil))
    }
}
