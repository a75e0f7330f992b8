import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorProtocol

/// What `status` reports: the session's own state, with the output and log figures their shells
/// last reported.
extension Session {
    var status: StatusReport {
        let uptime = Double((batch.now - configuration.startedAt).nanosecondsClamped) / 1e9
        let queue = plan.queue
        var report = StatusReport(
            version: NarratorVersion.daemon, pid: configuration.pid, uptime: (uptime * 1000).rounded() / 1000, socket: configuration.socket,
            clients: clients.count + ssip.count, trees: workspace.trees.count, focus: workspace.focus, audio: speech.output,
            voice: speech.settings.voice ?? configuration.standardVoice, speaking: plan.scheduler.playing != nil, queue: plan.scheduler.waiting.count + (plan.scheduler.held == nil ? 0 : 1),
            announcements: StatusReport.Announcements(
                policy: queue.policy.name, waiting: queue.waiting.count,
                treePolicies: queue.treePolicies.sorted { $0.key < $1.key }.map { ($0.key, $0.value.name) }, deferred: queue.deferred.count),
            log: logBook.health,
            owners: clients.ownerReports)
        report.engines = configuration.engines.names.map { EngineStatus(name: $0.rawValue, health: speech.engineHealth[$0] ?? .ready) }
        return report
    }
}
