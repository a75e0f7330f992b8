import CNarratorSystem
import Glibc

/// A named pthread that runs to its end on its own (nobody joins it): the engine's, the audio
/// device's and the log writer's threads, which wait on their own queues for their whole life.
public enum DetachedThread {
    /// Starts `body` on a new thread called `name` (the kernel keeps its first 15 bytes, shown in
    /// /proc/PID/task/TID/comm).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(NamedBody(name: name, run: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<NamedBody>.fromOpaque(argument).takeRetainedValue()
            _ = narrator_set_thread_name(body.name)
            body.run()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(Errno(code: result, syscall: "pthread_create"))")
    }
}

private final class NamedBody: Sendable {
    let name: String
    let run: @Sendable () -> Void
    init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}
