import NarratorBase
import NarratorModel

/// What `status` reports: the session's own state, with the output and log figures their shells
/// last reported.
extension Session {
    var status: StatusReport {
        let uptime = Double((now - configuration.startedAt).nanosecondsClamped) / 1e9
        let queue = plan.queue
        var report = StatusReport(
            version: NarratorVersion.daemon, pid: configuration.pid, uptime: (uptime * 1000).rounded() / 1000, socket: configuration.socket,
            clients: clients.count + ssip.count, trees: workspace.trees.count, focus: workspace.focus, audio: output,
            voice: settings.voice ?? configuration.standardVoice, speaking: plan.scheduler.playing != nil, queue: plan.scheduler.waiting.count + (plan.scheduler.held == nil ? 0 : 1),
            announcements: StatusReport.Announcements(
                policy: queue.policy.name, waiting: queue.waiting.count,
                treePolicies: queue.treePolicies.sorted { $0.key < $1.key }.map { ($0.key, $0.value.name) }, deferred: queue.deferred.count),
            log: log,
            owners: ownerReports)
        report.engines = configuration.engines.names.map { EngineStatus(name: $0, health: engineHealth[$0] ?? .ready) }
        return report
    }

    /// Each connection that owns trees, with them, by pid.
    private var ownerReports: [StatusReport.Owner] {
        Dictionary(grouping: owners.sorted { $0.key < $1.key }) { $0.value }
            .compactMap { client, owned in clients[client].map { (record: $0, trees: owned.map(\.key)) } }
            .sorted { ($0.record.credentials.pid, $0.record.id) < ($1.record.credentials.pid, $1.record.id) }
            .map { StatusReport.Owner(name: $0.record.name, pid: Int($0.record.credentials.pid), trees: $0.trees) }
    }
}
