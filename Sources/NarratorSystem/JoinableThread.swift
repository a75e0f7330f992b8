import Glibc

/// A plain pthread that can be joined: the event loop blocks its thread in poll, so it gets a
/// thread of its own rather than one borrowed from Swift concurrency's small cooperative pool.
public final class JoinableThread: Sendable {
    private let thread: pthread_t

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
            body.run()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(Errno(code: result, syscall: "pthread_create"))")
        self.thread = thread
    }

    /// Waits for the thread to finish. Call once.
    public func join() {
        pthread_join(thread, nil)
    }
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
