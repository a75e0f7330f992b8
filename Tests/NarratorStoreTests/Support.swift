import Foundation
import NarratorSpeechPlan
import NarratorStore

/// A fresh directory for one test's database files.
func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-store-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func row(_ n: Int64, outcome: LogRow.Outcome = .ended(.spoken), tree: String? = "chat", priority: String = "default", queued: Double? = nil, started: Double? = nil, ended: Double? = nil) -> LogRow {
    let queuedAt = queued ?? Double(n)
    return LogRow(
        announcement: n, kind: .announcement, text: "message \(n)", priority: priority, tree: tree, dedupKey: "message \(n)", policy: "default",
        clientPID: 42, clientUID: 1000, clientName: "test", queuedAt: queuedAt, startedAt: started, endedAt: ended, outcome: outcome)
}

/// The directory holding the built products (narrator-log-probe sits beside the test bundle).
let productsDirectory: String = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
        if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("narrator-log-probe").path) { return url.path }
        url.deleteLastPathComponent()
    }
    return ".build/debug"
}()
