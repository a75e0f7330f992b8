/// What `status` reports: the session's own state, with the output and log figures their shells
/// last reported.
extension Session {
    var status: StatusReport {
        let uptime = Double((now - configuration.startedAt).nanosecondsClamped) / 1e9
        let queue = plan.queue
        return StatusReport(
            version: NarratorVersion.daemon, pid: configuration.pid, uptime: (uptime * 1000).rounded() / 1000, socket: configuration.socket,
            clients: clients.count, trees: workspace.trees.count, focus: workspace.focus, audio: output,
            voice: settings.voice ?? configuration.standardVoice, speaking: plan.scheduler.playing != nil, queue: plan.scheduler.waiting.count,
            announcements: StatusReport.Announcements(
                policy: queue.policy.name, waiting: queue.waiting.count,
                treePolicies: queue.treePolicies.keys.sorted().map { ($0, queue.treePolicies[$0]!.name) }, deferred: queue.deferred.count),
            log: log,
            owners: clients.values.filter { !$0.ownedTrees.isEmpty }.sorted { $0.credentials.pid < $1.credentials.pid }.map {
                StatusReport.Owner(name: $0.name, pid: Int($0.credentials.pid), trees: $0.ownedTrees.sorted())
            })
    }
}
