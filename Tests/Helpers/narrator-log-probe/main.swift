import Foundation
import NarratorSpeechPlan
import NarratorStore

// narrator-log-probe DB: appends announcement rows as fast as the writer takes them and prints
// "ack N" for each row once its transaction has committed, until it is killed.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: narrator-log-probe DB\n".utf8))
    exit(2)
}
let writer: LogWriter
do {
    writer = try LogWriter(path: CommandLine.arguments[1])
} catch {
    FileHandle.standardError.write(Data("narrator-log-probe: \(error)\n".utf8))
    exit(1)
}
var next: Int64 = 1
while true {
    for _ in 0..<50 {
        let id = next
        next += 1
        let row = LogRow(announcement: id, kind: .announcement, text: "message \(id)", priority: "default", queuedAt: Date().timeIntervalSince1970, outcome: .ended(.spoken))
        writer.append(row) { result in
            if case .success = result { FileHandle.standardOutput.write(Data("ack \(id)\n".utf8)) }
        }
    }
    writer.flush()
}
