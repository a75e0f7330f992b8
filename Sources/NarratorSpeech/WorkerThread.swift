import Foundation

/// One dedicated thread that runs submitted jobs in order.
///
/// eSpeak NG keeps global state and is not thread-safe, so every call into it happens here.
/// The job list is the only shared state and is guarded by `condition`.
final class WorkerThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false

    init(name: String) {
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Runs `job` on the thread after the jobs already submitted.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the thread and waits for its result.
    func sync<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) throws(E) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T, E>()
        submit {
            box.result = Result { () throws(E) -> T in try body() }
            done.signal()
        }
        done.wait()
        // The semaphore orders the write on the worker before this read.
        return try box.result!.get()
    }

    /// Lets the thread finish the submitted jobs and exit.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping {
                condition.wait()
            }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// Carries a result from the worker thread to the waiting caller (handed over by a semaphore).
private final class ResultBox<T, E: Error>: @unchecked Sendable {
    var result: Result<T, E>?
}
