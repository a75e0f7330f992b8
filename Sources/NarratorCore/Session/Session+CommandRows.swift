import NarratorBase
import NarratorSpeechPlan

/// The log's command rows: what silenced speech without being speech.
extension Session {
    /// A row for a command that silenced speech (SSIP `CANCEL` and `STOP`, `stop`, the daemon's
    /// own `shutdown`): what a trace exported from the log needs to replay the cancels it caused.
    mutating func logCommand(_ command: String, from client: ClientID?) {
        let ssipClient = client.flatMap { ssip.identity(of: $0) }
        let record = client.flatMap { clients[$0] }
        let credentials = ssipClient?.credentials ?? record?.credentials
        let name = ssipClient?.name ?? record?.name
        batch.emit(
            .appendLog(
                LogRow(
                    kind: .command, text: command, policy: configuration.policy.name, clientPID: credentials.map { Int64($0.pid) },
                    clientUID: credentials.map { Int64($0.uid) }, clientName: name, queuedAt: seconds(batch.now), endedAt: seconds(batch.now),
                    outcome: .done, connection: client.map { Int64($0.rawValue) }, command: command),
                nil))
    }
}
