import Dispatch
import NarratorSystem
import Synchronization

/// One dedicated thread that runs submitted jobs in order, and owns a state that only it touches.
///
/// eSpeak NG keeps global state and is not thread-safe, so every call into it happens on one such
/// thread; an audio device gets one too, so that a device that stops answering blocks only its own
/// thread; and the daemon prepares its large requests on one, at a lower priority than speech. The state (`State`, which need not be `Sendable`) is created on the thread by the
/// closure given to `init` and handed to each job by reference, so no job captures it and no other
/// thread can reach it. The job list is the only shared state: a `Mutex`, with a semaphore counting
/// what the thread has to wake up for (a job, or the stop).
public final class WorkerThread<State>: Sendable {
    private struct Inbox {
        var jobs: [@Sendable (inout State) -> Void] = []
        var stopping = false
    }

    private let inbox = Mutex(Inbox())
    /// Signalled once per submitted job and once by `stop`.
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the thread; `makeState` runs on it before the first job.
    public init(name: String, state makeState: @escaping @Sendable () -> State) {
        DetachedThread.start(name: name) { [self] in self.run(makeState) }
    }

    /// Runs `job` on the thread after the jobs already submitted.
    public func submit(_ job: @escaping @Sendable (inout State) -> Void) {
        inbox.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    /// Runs `body` on the thread and waits for its result (without a deadline: only for threads
    /// that cannot hang, or from a thread that may).
    func sync<T: Sendable, E: Error>(_ body: @escaping @Sendable (inout State) throws(E) -> T) throws(E) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<T, E>?>(nil)
        submit { state in
            let outcome = Result { () throws(E) -> T in try body(&state) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        // The job stored the result before it signalled.
        return try result.withLock { $0 }!.get()
    }

    /// Lets the thread finish the jobs submitted so far and exit; the state goes with it.
    public func stop() {
        inbox.withLock { $0.stopping = true }
        wake.signal()
    }

    private enum Next {
        case job(@Sendable (inout State) -> Void)
        case exit
        case nothing
    }

    private func run(_ makeState: @Sendable () -> State) {
        var state = makeState()
        while true {
            wake.wait()
            let next = inbox.withLock { inbox -> Next in
                if !inbox.jobs.isEmpty { return .job(inbox.jobs.removeFirst()) }
                return inbox.stopping ? .exit : .nothing
            }
            switch next {
            case .job(let job): job(&state)
            case .exit: return
            case .nothing: continue
            }
        }
    }
}

extension WorkerThread where State == Void {
    /// A thread with no state of its own.
    public convenience init(name: String) {
        self.init(name: name, state: {})
    }
}
