import NarratorBridge
import NarratorDBus

/// Carries out an ``ATSPIApplicationRead`` on the bus: sends every request it asks for at once,
/// feeds it the replies as they come, and reports the outcome when the last is in. One per
/// application read; used on the GLib main loop's thread only.
public final class ApplicationReader {
    private var read: ATSPIApplicationRead
    private let bus: ATSPIBus
    private let application: String
    private var completion: ((ATSPIApplicationRead.Outcome) -> Void)?
    /// Questions waiting for a place: at most `window` are in flight at once, as the bridge
    /// sends them (``QuestionWindow``), so that a big page's last question does not wait in
    /// the application's queue past its bound.
    private var waiting: [ATSPIRequest] = []
    private var next = 0
    private var inFlight = 0
    private let window: Int
    /// Requests sent (the benchmark and the log report it).
    public private(set) var sent = 0
    /// Whether the application's cache (`GetItems`) held its tree, rather than a walk.
    public var fromCache: Bool { read.fromCache }

    /// Starts reading the application whose bus name is `application` (or, with `read`, one of
    /// its objects); `completion` runs once.
    public init(
        application: String, bus: ATSPIBus, read: ATSPIApplicationRead = ATSPIApplicationRead(), window: Int = 128,
        completion: @escaping (ATSPIApplicationRead.Outcome) -> Void
    ) {
        self.read = read
        self.window = window
        self.application = application
        self.bus = bus
        self.completion = completion
        send(self.read.start())
    }

    private func send(_ requests: [ATSPIRequest]) {
        waiting += requests
        while inFlight < window, next < waiting.count {
            let request = waiting[next]
            next += 1
            inFlight += 1
            sent += 1
            // The reader keeps itself alive until every reply is in: the closures hold it.
            bus.send(request.call, to: application) { reply in
                self.take(request, reply)
            }
        }
        if next > 1024, next * 2 > waiting.count {
            waiting.removeFirst(next)
            next = 0
        }
    }

    private func take(_ request: ATSPIRequest, _ reply: Result<DBusValue, DBusFailure>) {
        inFlight -= 1
        var more = read.take(request, reply)
        // Not answered in time: what waits is given up with it.
        if case .failure(let failure) = reply, failure == .timedOut || failure == .gone {
            for withdrawn in waiting[next...] { more += read.take(withdrawn, .failure(failure)) }
            waiting = []
            next = 0
        }
        send(more)
        if read.isComplete, let completion {
            self.completion = nil
            completion(read.outcome)
        }
    }
}
