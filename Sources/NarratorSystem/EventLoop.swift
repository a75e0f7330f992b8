import Glibc
import Synchronization

/// A single-threaded poll loop that owns every connection of a server: the listening sockets,
/// the clients, their framing and output buffers, timers and signals all live on one thread, so
/// the daemon's handler needs no locks. Other threads (the speech thread, the log writer) talk to it
/// only by posting a `Message` (delivered to the handler's `handle(_:loop:)`) or a closure
/// (`execute`), which wakes the loop through an eventfd; neither needs a reference to the handler.
///
/// `EventLoop` itself holds only what other threads may touch (the wake-up descriptor and a
/// locked inbox), which is why it is `Sendable` without `@unchecked`; the mutable loop state is a
/// `LoopContext` that exists only inside `run` on the loop thread.
public final class EventLoop<Message: Sendable>: Sendable {
    public let configuration: EventLoopConfiguration
    let wakeFD: Int32
    private let inbox: Mutex<Inbox>
    private let loopThreadID = Atomic<Int32>(0)

    /// Something queued for the loop thread, in the order it was queued.
    enum Work: Sendable {
        case closure(@Sendable (LoopContext<Message>) -> Void)
        case message(Message)
    }

    struct Inbox: ~Copyable {
        enum Phase { case notStarted, running, finished }
        var phase = Phase.notStarted
        var work: [Work] = []
        var wakePending = false
        /// Listening descriptors, owned by the loop from `init`; handed to `run` or closed in deinit.
        var listeners: [Int32]
    }

    /// How each listener's connections are split into lines (LF when not named).
    let framings: [Int32: Framing]

    /// Takes ownership of `listeners` (already bound and listening, for example from
    /// `SocketPath.bindListener` or `SocketActivation`) and makes them non-blocking.
    /// `framings` names the listeners whose connections use another framing than LF (SSIP's CRLF).
    public init(
        listeners: [Int32], framings: [Int32: Framing] = [:], configuration: EventLoopConfiguration = EventLoopConfiguration()
    ) throws(Errno) {
        for fd in listeners {
            try Syscall.setNonBlocking(fd, true)
            try Syscall.setCloseOnExec(fd)
        }
        self.configuration = configuration
        self.framings = framings
        self.wakeFD = try Syscall.eventFD()
        self.inbox = Mutex(Inbox(listeners: listeners))
    }

    deinit {
        let leftover = inbox.withLock { inbox in
            inbox.phase == .notStarted ? inbox.listeners : []
        }
        for fd in leftover { try? Syscall.close(fd) }
        try? Syscall.close(wakeFD)
    }

    /// Runs the loop on the calling thread until it has shut down (see `LoopContext.shutdown`)
    /// and every connection is closed. Listening sockets are closed when it returns.
    public func run(_ handler: some ConnectionHandler<Message>) throws(EventLoopError) {
        let listeners = try inbox.withLock { (inbox) throws(EventLoopError) -> [Int32] in
            guard inbox.phase == .notStarted else { throw .alreadyStarted }
            inbox.phase = .running
            return inbox.listeners
        }
        loopThreadID.store(Syscall.currentThreadID(), ordering: .releasing)
        if !configuration.signals.isEmpty {
            do {
                try SignalRelay.claim(configuration.signals, wakeFD: wakeFD)
            } catch {
                finish(closing: listeners)
                throw error
            }
        }
        let context = LoopContext(loop: self, listeners: listeners, handler: handler)
        defer {
            if !configuration.signals.isEmpty { SignalRelay.release() }
            context.closeEverything()
            finish(closing: [])
        }
        do {
            try context.runUntilFinished()
        } catch {
            throw .system(error)
        }
    }

    private func finish(closing listeners: [Int32]) {
        for fd in listeners { try? Syscall.close(fd) }
        inbox.withLock { inbox in
            inbox.phase = .finished
            inbox.work.removeAll()
        }
        loopThreadID.store(0, ordering: .releasing)
    }

    /// Runs `work` on the loop thread soon, from any thread. Returns false (and drops `work`)
    /// once the loop has finished.
    @discardableResult
    public func execute(_ work: @escaping @Sendable (LoopContext<Message>) -> Void) -> Bool {
        enqueue(.closure(work))
    }

    /// Delivers `message` to the handler's `handle(_:loop:)` on the loop thread soon, from any
    /// thread, after what was queued before it. Returns false (and drops it) once the loop has finished.
    @discardableResult
    public func post(_ message: Message) -> Bool {
        enqueue(.message(message))
    }

    private func enqueue(_ work: Work) -> Bool {
        let mustWake = inbox.withLock { inbox -> Bool? in
            guard inbox.phase != .finished else { return nil }
            inbox.work.append(work)
            defer { inbox.wakePending = true }
            return !inbox.wakePending
        }
        guard let mustWake else { return false }
        if mustWake {
            // Cannot fail with a valid eventfd short of a counter overflow, which EAGAIN covers.
            try? Syscall.signalEventFD(wakeFD)
        }
        return true
    }

    /// Asks the loop, from any thread, to shut down gracefully (see `LoopContext.shutdown`).
    public func shutdown() {
        execute { context in context.shutdown() }
    }

    /// True when called on the thread currently running this loop.
    public var isLoopThread: Bool {
        loopThreadID.load(ordering: .acquiring) == Syscall.currentThreadID()
    }

    /// Removes and returns the queued closures; called by the loop thread.
    func takeWork() -> [Work] {
        inbox.withLock { inbox in
            inbox.wakePending = false
            defer { inbox.work.removeAll(keepingCapacity: true) }
            return inbox.work
        }
    }
}
