import Glibc
import NarratorBase

/// ``PollLoop`` without sockets, threads or the real clock, for testing a ``ConnectionHandler``:
/// a test connects clients, feeds their bytes in, reads the bytes the handler wrote out, moves a
/// ``VirtualClock`` on to fire timers, and runs what other threads posted. Each call does what
/// one turn of the poll loop does after its wait (the handler's callbacks, the inbox's work,
/// due timers, `batchEnded`, writing and closing) and returns when that is all done.
///
/// Lines are framed, overflows and closes decided by the poll loop's own connection code
/// (`ClientConnection`); what differs is the socket. A peer takes all its output at the end of
/// each turn (kept for ``read(_:)``) unless told to stop reading (``stopTaking(_:)``), when its
/// output stays queued, counting against the output limit, as with a kernel buffer of size zero.
/// A closed connection is finished at once: there is no lingering for the peer.
public final class InMemoryLoop<Message: Sendable>: ConnectionLoop {
    public let inbox: LoopInbox<Message>
    public let clock: VirtualClock
    private let handler: any ConnectionHandler<Message>
    private let configuration: PollLoopConfiguration
    /// The listeners by the numbers the test gave them, and how their connections are framed.
    public private(set) var listeners: [Int32: Framing]
    private var clients: [ClientID: ClientConnection] = [:]
    /// Peers that stopped taking their output.
    private var notTaking: Set<ClientID> = []
    /// What each peer has taken and the test has not read yet.
    private var taken: [ClientID: [UInt8]] = [:]
    /// Why each finished connection ended.
    private var ended: [ClientID: DisconnectReason] = [:]
    private var nextClient: UInt64 = 1
    private var timers: [TimerID: (deadline: MonotonicInstant, body: (any ConnectionLoop<Message>) -> Void)] = [:]
    private var nextTimer: UInt64 = 1
    private var readingStopped = false
    private var shutdownDeadline: MonotonicInstant?

    /// `listeners` names the sockets the handler is served on (any numbers, with their framing);
    /// `inbox` is begun here, on the calling thread, which is then the loop's.
    public init(
        listeners: [Int32: Framing], configuration: PollLoopConfiguration = PollLoopConfiguration(), clock: VirtualClock = VirtualClock(),
        inbox: LoopInbox<Message>, handler: some ConnectionHandler<Message>
    ) throws(PollLoopError) {
        try inbox.begin()
        self.inbox = inbox
        self.listeners = listeners
        self.configuration = configuration
        self.clock = clock
        self.handler = handler
    }

    deinit {
        inbox.finish()
    }

    // MARK: - What the test does

    /// A client connects through `listener` with `peer`'s credentials; nil when that listener
    /// is not served (unknown, or closed by `stopReading` or `shutdown`).
    public func connect(to listener: Int32, peer: PeerCredentials) -> ClientID? {
        guard let framing = listeners[listener] else { return nil }
        let id = ClientID(rawValue: nextClient)
        nextClient += 1
        let connection = ClientConnection(
            id: id, peer: peer, lineLimit: configuration.maximumLineLength, framing: framing, largeLineLength: configuration.largeLineLength)
        clients[id] = connection
        handler.accept(id, peer: peer, loop: self)
        turn()
        return id
    }

    /// `client` sends `bytes`: its complete lines go to the handler, in order.
    public func send(_ bytes: some Sequence<UInt8>, from client: ClientID) {
        guard let connection = clients[client], connection.reading, !readingStopped else { return }
        let bytes = Array(bytes)
        let frames = bytes.withUnsafeBytes { connection.frames(of: $0) }
        for frame in frames {
            // As the poll loop: nothing more once the handler closed this client (or it overflowed).
            guard connection.closing == nil else { break }
            handler.receive(connection.input(for: frame), from: client, loop: self)
        }
        turn()
    }

    /// `client` sends `text` as UTF-8.
    public func send(text: String, from client: ClientID) {
        send(Array(text.utf8), from: client)
    }

    /// `client` closes its end: its unterminated last line goes to the handler, then the
    /// connection closes once its output is taken.
    public func hangUp(_ client: ClientID) {
        guard let connection = clients[client] else { return }
        if connection.reading, !readingStopped, let last = connection.endOfInput() {
            handler.receive(connection.input(for: last), from: client, loop: self)
        }
        if connection.closing == nil { connection.startClosing(.afterFlush(.peerClosed)) }
        turn()
    }

    /// Reads, and removes, what `client`'s peer took so far.
    public func read(_ client: ClientID) -> [UInt8] {
        taken.removeValue(forKey: client) ?? []
    }

    /// Reads what `client`'s peer took so far as text.
    public func readText(_ client: ClientID) -> String {
        String(decoding: read(client), as: UTF8.self)
    }

    /// `client`'s peer stops taking its output: it stays queued from now on.
    public func stopTaking(_ client: ClientID) {
        notTaking.insert(client)
    }

    /// `client`'s peer takes its output again, from the end of this turn.
    public func resumeTaking(_ client: ClientID) {
        notTaking.remove(client)
        turn()
    }

    /// Moves the clock on by `duration`, firing the timers that fall due, in order of their deadlines.
    public func advance(by duration: Duration) {
        clock.advance(by: duration)
        turn()
    }

    /// Runs what other threads posted, once something was: waits at most `bound` for it (a bound
    /// on how long a broken handler can hang a test, not a timing). Returns false if nothing came.
    @discardableResult
    public func runPosted(waitingAtMost bound: Duration = .seconds(60)) -> Bool {
        let end = MonotonicClock.now() + bound
        while true {
            let left = MonotonicClock.remaining(until: end)
            guard left > .zero else { return false }
            var entry = [pollfd(fd: inbox.wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = try? Syscall.poll(&entry, timeoutMilliseconds: Int32(clamping: (left.nanosecondsClamped + 999_999) / 1_000_000))
            let work = takeWork()
            // The eventfd may be left set by work an earlier turn took: wait for work itself.
            guard !work.isEmpty else { continue }
            turn(work)
            return true
        }
    }

    /// The loop receives `signal` (as the poll loop does from its signal relay).
    public func deliver(_ signal: LoopSignal) {
        handler.signal(signal, loop: self)
        turn()
    }

    /// Why `client`'s connection ended (nil while it has not).
    public func disconnection(of client: ClientID) -> DisconnectReason? {
        ended[client]
    }

    /// The handler shut the loop down and every connection is closed: `PollLoop.run` would return.
    public var hasFinished: Bool {
        shutdownDeadline != nil && clients.isEmpty
    }

    // MARK: - ConnectionLoop

    @discardableResult
    public func send(_ line: String, to client: ClientID) -> SendOutcome {
        guard let connection = clients[client], connection.closing == nil else { return .notConnected }
        guard !line.utf8.contains(UInt8(ascii: "\n")) else { return .containsNewline }
        var line = line
        return line.withUTF8 { connection.queue($0, newline: true, limit: configuration.outputBufferLimit) }
    }

    @discardableResult
    public func write(_ text: String, to client: ClientID) -> SendOutcome {
        guard let connection = clients[client], connection.closing == nil else { return .notConnected }
        var text = text
        return text.withUTF8 { connection.queue($0, newline: false, limit: configuration.outputBufferLimit) }
    }

    public func close(_ client: ClientID) {
        guard let connection = clients[client], connection.closing == nil else { return }
        connection.startClosing(.afterFlush(.closedByServer))
    }

    public func framing(of client: ClientID) -> Framing? {
        clients[client]?.framing
    }

    public func peer(of client: ClientID) -> PeerCredentials? {
        clients[client]?.peer
    }

    public func pendingOutput(of client: ClientID) -> Int {
        clients[client]?.output.count ?? 0
    }

    public var connectedClients: [ClientID] {
        clients.values.filter { $0.closing == nil }.map(\.id).sorted()
    }

    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping (any ConnectionLoop<Message>) -> Void) -> TimerID {
        let id = TimerID(rawValue: nextTimer)
        nextTimer += 1
        timers[id] = (clock.now + max(delay, .zero), body)
        return id
    }

    @discardableResult
    public func schedule(after delay: Duration, deliver message: Message) -> TimerID {
        let handler = self.handler
        return schedule(after: delay) { loop in handler.handle(message, loop: loop) }
    }

    public func cancel(_ timer: TimerID) {
        timers[timer] = nil
    }

    public func replaceListener(_ old: Int32, with new: Int32) throws(Errno) {
        // Stopped reading (shutting down): nothing is accepted any more.
        guard let framing = listeners.removeValue(forKey: old) else { return }
        listeners[new] = framing
    }

    public func stopReading() {
        listeners.removeAll()
        readingStopped = true
    }

    public func shutdown(flushTimeout: Duration?) {
        let deadline = clock.now + (flushTimeout ?? configuration.shutdownFlushTimeout)
        if let existing = shutdownDeadline {
            shutdownDeadline = min(existing, deadline)
            return
        }
        shutdownDeadline = deadline
        listeners.removeAll()
        handler.log(.shutdownStarted(clients: clients.count))
        for connection in clients.values where connection.closing == nil {
            connection.startClosing(.afterFlush(.shutdown))
        }
    }

    // MARK: - One turn

    /// What the poll loop does between its waits, in its order, again while work was posted
    /// from the loop's own thread meanwhile (which would wake the poll loop at once).
    private func turn(_ taken: [LoopInbox<Message>.Work] = []) {
        var work = taken + takeWork()
        var first = true
        while first || !work.isEmpty {
            first = false
            for item in work {
                switch item {
                case .closure(let body): body(self)
                case .message(let message): handler.handle(message, loop: self)
                }
            }
            fireDueTimers()
            handler.batchEnded(loop: self)
            deliverOutput()
            reapClosing()
            if let deadline = shutdownDeadline, clock.now >= deadline {
                for connection in clients.values {
                    connection.startClosing(.now(.shutdownFlushTimedOut(unsentBytes: connection.output.count)))
                }
                reapClosing()
            }
            work = takeWork()
        }
    }

    private func takeWork() -> [LoopInbox<Message>.Work] {
        _ = try? Syscall.drainEventFD(inbox.wakeFD)
        return inbox.takeWork()
    }

    private func fireDueTimers() {
        let due = timers.filter { $0.value.deadline <= clock.now }
            .sorted { ($0.value.deadline, $0.key.rawValue) < ($1.value.deadline, $1.key.rawValue) }
        for (id, _) in due {
            // An earlier timer in this batch may have cancelled this one.
            guard let timer = timers.removeValue(forKey: id) else { continue }
            timer.body(self)
        }
    }

    /// Each peer that takes its output takes all of it.
    private func deliverOutput() {
        for (id, connection) in clients where !notTaking.contains(id) && !connection.output.isEmpty {
            taken[id, default: []] += connection.takeOutput()
        }
    }

    private func reapClosing() {
        for connection in clients.values {
            guard let (reason, _) = connection.finished else { continue }
            clients[connection.id] = nil
            ended[connection.id] = reason
            handler.disconnected(connection.id, reason: reason, loop: self)
            switch reason {
            case .peerClosed, .closedByServer, .shutdown:
                break
            default:
                handler.log(.disconnected(connection.id, peer: connection.peer, reason: reason))
            }
        }
    }
}
