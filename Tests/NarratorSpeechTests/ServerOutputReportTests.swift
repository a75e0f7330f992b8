import Foundation
@testable import NarratorSpeech
import NarratorSpeechPlan
import Synchronization
import Testing

/// The server output reports a change of state once: failed reconnect attempts that fail the same
/// way change nothing, so the daemon's journal gets no line per attempt.
@Suite struct ServerOutputReportTests {
    @Test func failingTheSameWayAgainIsNotAChange() throws {
        let attempts = Atomic<Int>(0)
        let reports = Mutex<[OutputStatus]>([])
        let output = ServerOutput(
            spec: .auto, retryInterval: .seconds(3600), stallTimeout: .seconds(5),
            connect: { () throws(AudioOutputError) -> any AudioOutput in
                attempts.add(1, ordering: .relaxed)
                throw .openFailed(code: -2, message: "No such file or directory")
            },
            onChange: { status in reports.withLock { $0.append(status) } })
        for n in 2...5 {
            output.attemptReconnect()
            let deadline = Date().addingTimeInterval(5)
            while attempts.load(ordering: .relaxed) < n, Date() < deadline { usleep(5_000) }
            usleep(20_000)
        }
        #expect(attempts.load(ordering: .relaxed) == 5)
        #expect(reports.withLock { $0.count } == 1, "\(reports.withLock { $0 })")
        #expect(output.status.detail == "no sound server reachable: could not open the audio stream: No such file or directory (code -2)")
    }
}
