import Glibc
import Synchronization

/// What other threads may touch of a `PollLoop`: they post a `Message` (delivered to the
/// handler's `handle(_:loop:)`) or a closure (`execute`), in order, and the loop thread wakes
/// through an eventfd. The speech thread and the log writer hold only this, never the handler or
/// the loop's state, which is why it is `Sendable` without `@unchecked`.
///
/// An inbox serves one run of one loop: made before the loop runs (so the threads that post to it
/// can start first), it takes work once `PollLoop.run` has begun (or an `InMemoryLoop` was made)
/// and refuses it once that ended.
public final class LoopInbox<Message: Sendable>: Sendable {
    let wakeFD: Int32
    private let state: Mutex<State>
    private let loopThreadID = Atomic<Int32>(0)

    /// Something queued for the loop thread, in the order it was queued.
    enum Work: Sendable {
        case closure(@Sendable (any ConnectionLoop<Message>) -> Void)
        case message(Message)
    }

    private struct State: ~Copyable {
        enum Phase { case notStarted, running, finished }
        var phase = Phase.notStarted
        var work: [Work] = []
        var wakePending = false
    }

    public init() throws(Errno) {
        wakeFD = try Syscall.eventFD()
        state = Mutex(State())
    }

    deinit {
        try? Syscall.close(wakeFD)
    }

    /// Runs `work` on the loop thread soon, from any thread. Returns false (and drops `work`)
    /// once the loop has finished.
    @discardableResult
    public func execute(_ work: @escaping @Sendable (any ConnectionLoop<Message>) -> Void) -> Bool {
        enqueue(.closure(work))
    }

    /// Delivers `message` to the handler's `handle(_:loop:)` on the loop thread soon, from any
    /// thread, after what was queued before it. Returns false (and drops it) once the loop has finished.
    @discardableResult
    public func post(_ message: Message) -> Bool {
        enqueue(.message(message))
    }

    /// Asks the loop, from any thread, to shut down gracefully (see `PollLoop.shutdown`).
    public func shutdown() {
        execute { loop in loop.shutdown() }
    }

    /// True when called on the thread currently running the loop.
    public var isLoopThread: Bool {
        loopThreadID.load(ordering: .acquiring) == Syscall.currentThreadID()
    }

    private func enqueue(_ work: Work) -> Bool {
        let mustWake = state.withLock { state -> Bool? in
            guard state.phase != .finished else { return nil }
            state.work.append(work)
            defer { state.wakePending = true }
            return !state.wakePending
        }
        guard let mustWake else { return false }
        if mustWake {
            // Cannot fail with a valid eventfd short of a counter overflow, which EAGAIN covers.
            try? Syscall.signalEventFD(wakeFD)
        }
        return true
    }

    /// The loop begins on the calling thread; an inbox serves one run.
    func begin() throws(PollLoopError) {
        try state.withLock { (state) throws(PollLoopError) in
            guard state.phase == .notStarted else { throw .alreadyStarted }
            state.phase = .running
        }
        loopThreadID.store(Syscall.currentThreadID(), ordering: .releasing)
    }

    /// The loop has ended: what is still queued is dropped, and nothing more is taken.
    func finish() {
        state.withLock { state in
            state.phase = .finished
            state.work.removeAll()
        }
        loopThreadID.store(0, ordering: .releasing)
    }

    /// Removes and returns the queued work; called by the loop thread.
    func takeWork() -> [Work] {
        state.withLock { state in
            state.wakePending = false
            defer { state.work.removeAll(keepingCapacity: true) }
            return state.work
        }
    }
}
