import Dispatch
import Synchronization

/// One job as the reader thread hands it to the synthesis thread.
enum QueuedJob: Sendable, Equatable {
    /// Synthesize `text` in `voice`: rate in words per minute, pitch 0...100, volume 0...200.
    case speak(job: UInt32, text: String, voice: String, rate: Int, pitch: Int, volume: Int)
    /// A speak line that named its job but could not be understood: the job gets an `F` frame,
    /// in its turn, so that narratord does not wait for it forever.
    case reject(job: UInt32, message: String)

    var job: UInt32 {
        switch self {
        case .speak(let job, _, _, _, _, _), .reject(let job, _): job
        }
    }
}

/// The jobs waiting for the synthesis thread, and which of them were cancelled. The reader thread
/// adds and cancels; the synthesis thread takes jobs in order and asks, between two pieces of
/// audio, whether the one it is speaking was cancelled.
final class JobQueue: Sendable {
    private struct State {
        var waiting: [QueuedJob] = []
        /// Waiting jobs that were cancelled before their turn.
        var cancelledWaiting: Set<UInt32> = []
        /// The job being synthesized, and whether a cancel came for it.
        var current: UInt32?
        var currentCancelled = false
    }

    private let state = Mutex(State())
    /// Counts the waiting jobs, so that the synthesis thread sleeps while there are none.
    private let available = DispatchSemaphore(value: 0)

    func add(_ job: QueuedJob) {
        state.withLock { $0.waiting.append(job) }
        available.signal()
    }

    /// Marks `job` cancelled if it is being synthesized or waiting; a job already ended or never
    /// seen is ignored, as the protocol says.
    func cancel(_ job: UInt32) {
        state.withLock { state in
            if state.current == job {
                state.currentCancelled = true
            } else if state.waiting.contains(where: { $0.job == job }) {
                state.cancelledWaiting.insert(job)
            }
        }
    }

    /// Waits for the next job and makes it the current one; `cancelled` tells whether a cancel
    /// came for it while it waited.
    func next() -> (job: QueuedJob, cancelled: Bool) {
        available.wait()
        return state.withLock { state in
            let job = state.waiting.removeFirst()
            let cancelled = state.cancelledWaiting.remove(job.job) != nil
            state.current = job.job
            state.currentCancelled = cancelled
            return (job, cancelled)
        }
    }

    /// Whether the current job has been cancelled (checked between two pieces of audio).
    var currentIsCancelled: Bool {
        state.withLock { $0.currentCancelled }
    }

    /// The current job has ended (its `E` or `F` frame is written): cancels for it are ignored
    /// from now on. Returns whether another job is waiting.
    @discardableResult
    func finishCurrent() -> Bool {
        state.withLock { state in
            state.current = nil
            state.currentCancelled = false
            return !state.waiting.isEmpty
        }
    }
}
