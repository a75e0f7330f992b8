import Foundation
import NarratorBase
import NarratorSpeech
import NarratorSpeechPlan
import NarratorSystem
import Synchronization

/// Measurement at the output boundary: forwards every call to a real output and timestamps, per
/// utterance, the first `write`, the end of an `interrupt`, and the return of any write of that
/// utterance that was still in the device when the interrupt came. Not a mock: the audio goes on
/// to the real output (null or pulse) unchanged.
final class OutputProbe: AudioOutput, Sendable {
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
    private struct State {
        var current: UtteranceID?
        var records: [UtteranceID: Record] = [:]
    }

    private let state = Mutex(State())
    /// Signalled after every change, for the one thread that waits (the benchmark's).
    private let changed = DispatchSemaphore(value: 0)

    init(_ inner: any AudioOutput) {
        self.inner = inner
    }

    func begin(_ utterance: UtteranceID, kind: SpeechKind, format: AudioFormat) throws(AudioOutputError) {
        update { $0.current = utterance; $0.records[utterance] = Record() }
        try inner.begin(utterance, kind: kind, format: format)
    }

    func write(_ samples: [Int16]) throws(AudioOutputError) {
        let entered = Clock.now()
        // A write that enters after the interrupt completed returns without sound (the outputs check
        // for it first); one that entered before may still reach the device, so its return counts.
        let (id, mayLeak) = update { state -> (UtteranceID?, Bool) in
            guard let current = state.current else { return (nil, false) }
            if state.records[current]?.firstWrite == nil { state.records[current]?.firstWrite = entered }
            return (current, state.records[current]?.interruptDone == nil)
        }
        defer {
            let returned = Clock.now()
            update { state in
                if let id, mayLeak, state.records[id]?.interruptRequested == true { state.records[id]?.lastWriteAfterInterrupt = returned }
            }
        }
        try inner.write(samples)
    }

    func end() throws(AudioOutputError) {
        let id = update { $0.current }
        defer { update { state in if let id { state.records[id]?.ended = Clock.now() } } }
        try inner.end()
    }

    func interrupt() {
        let id = update { state -> UtteranceID? in
            if let current = state.current { state.records[current]?.interruptRequested = true }
            return state.current
        }
        inner.interrupt()
        let done = Clock.now()
        update { state in if let id, state.records[id]?.interruptDone == nil { state.records[id]?.interruptDone = done } }
    }

    /// Waits (up to `timeout` seconds) until the record of `id` satisfies `ready`.
    func wait<T>(for id: UtteranceID, timeout: Double = 10, _ ready: (Record) -> T?) -> T? {
        let deadline = MonotonicClock.now() + .nanoseconds(Int64(timeout * 1e9))
        while true {
            let record = state.withLock { $0.records[id] }
            if let record, let value = ready(record) { return value }
            if !changed.wait(until: deadline) { return state.withLock { $0.records[id] }.flatMap(ready) }
        }
    }

    /// The utterance being played (the last one begun).
    var playing: UtteranceID? { state.withLock { $0.current } }

    private func update<T>(_ body: (inout State) -> T) -> T {
        defer { changed.signal() }
        return state.withLock { body(&$0) }
    }
}
