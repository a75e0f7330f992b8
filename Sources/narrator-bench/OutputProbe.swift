import Foundation
import NarratorCore
import NarratorSpeech

/// Measurement at the output boundary: forwards every call to a real output and timestamps, per
/// utterance, the first `write`, the end of an `interrupt`, and the return of any write of that
/// utterance that was still in the device when the interrupt came. Not a mock: the audio goes on
/// to the real output (null or pulse) unchanged.
final class OutputProbe: AudioOutput, @unchecked Sendable {
    struct Record {
        var firstWrite: Double?
        var interruptRequested = false
        var interruptDone: Double?
        var lastWriteAfterInterrupt: Double?
        var ended: Double?

        /// When the utterance could no longer be heard: the device flushed and no write of it in flight.
        var silentAt: Double? {
            guard let interruptDone, ended != nil else { return nil }
            return max(interruptDone, lastWriteAfterInterrupt ?? 0)
        }
    }

    let inner: any AudioOutput
    var name: String { inner.name }
    var status: OutputStatus { inner.status }
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var current: UtteranceID?
    private var records: [UtteranceID: Record] = [:]

    init(_ inner: any AudioOutput) {
        self.inner = inner
    }

    func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) throws(AudioOutputError) {
        update { current = utterance; records[utterance] = Record() }
        try inner.begin(utterance, kind: kind, format: format)
    }

    func write(_ samples: [Int16]) throws(AudioOutputError) {
        let entered = Clock.now()
        // A write that enters after the interrupt completed returns without sound (the outputs check
        // for it first); one that entered before may still reach the device, so its return counts.
        let (id, mayLeak) = update { () -> (UtteranceID?, Bool) in
            guard let current else { return (nil, false) }
            if records[current]?.firstWrite == nil { records[current]?.firstWrite = entered }
            return (current, records[current]?.interruptDone == nil)
        }
        defer {
            let returned = Clock.now()
            update {
                if let id, mayLeak, records[id]?.interruptRequested == true { records[id]?.lastWriteAfterInterrupt = returned }
            }
        }
        try inner.write(samples)
    }

    func end() throws(AudioOutputError) {
        let id = update { current }
        defer { update { if let id { records[id]?.ended = Clock.now() } } }
        try inner.end()
    }

    func interrupt() {
        let id = update { () -> UtteranceID? in
            if let current { records[current]?.interruptRequested = true }
            return current
        }
        inner.interrupt()
        let done = Clock.now()
        update { if let id, records[id]?.interruptDone == nil { records[id]?.interruptDone = done } }
    }

    /// Waits (up to `timeout` seconds) until the record of `id` satisfies `ready`.
    func wait<T>(for id: UtteranceID, timeout: Double = 10, _ ready: (Record) -> T?) -> T? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let record = records[id], let value = ready(record) { return value }
            if !condition.wait(until: deadline) { return records[id].flatMap(ready) }
        }
    }

    /// The utterance being played (the last one begun).
    var playing: UtteranceID? { update { current } }

    private func update<T>(_ body: () -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}
