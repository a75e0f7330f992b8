import NarratorCore

/// Carries out an ``ATSPIApplicationRead`` on the bus: sends every request it asks for at once,
/// feeds it the replies as they come, and reports the outcome when the last is in. One per
/// application read; used on the GLib main loop's thread only.
public final class ApplicationReader {
    private var read: ATSPIApplicationRead
    private let bus: ATSPIBus
    private let application: String
    private var completion: ((ATSPIApplicationRead.Outcome) -> Void)?
    /// Requests sent (the benchmark and the log report it).
    public private(set) var sent = 0
    /// Whether the application's cache (`GetItems`) held its tree, rather than a walk.
    public var fromCache: Bool { read.fromCache }

    /// Starts reading the application whose bus name is `application` (or, with `read`, one of
    /// its objects); `completion` runs once.
    public init(
        application: String, bus: ATSPIBus, read: ATSPIApplicationRead = ATSPIApplicationRead(),
        completion: @escaping (ATSPIApplicationRead.Outcome) -> Void
    ) {
        self.read = read
        self.application = application
        self.bus = bus
        self.completion = completion
        send(self.read.start())
    }

    private func send(_ requests: [ATSPIRequest]) {
        sent += requests.count
        for request in requests {
            // The reader keeps itself alive until every reply is in: the closures hold it.
            bus.send(request.call, to: application) { reply in
                self.take(request, reply)
            }
        }
    }

    private func take(_ request: ATSPIRequest, _ reply: Result<DBusValue, DBusFailure>) {
        send(read.take(request, reply))
        if read.isComplete, let completion {
            self.completion = nil
            completion(read.outcome)
        }
    }
}
