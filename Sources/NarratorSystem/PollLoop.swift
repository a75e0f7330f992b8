import Glibc
import NarratorBase

/// Identifies a timer scheduled with `PollLoop.schedule(after:_:)`, for cancelling it.
public struct TimerID: Hashable, Sendable {
    let rawValue: UInt64
}

/// The result of `PollLoop.send`.
public enum SendOutcome: Hashable, Sendable {
    /// Queued; it is written as soon as the client's socket takes it.
    case queued
    /// No such client, or it is already closing: nothing was queued.
    case notConnected
    /// The client's output buffer would overflow: it is being disconnected.
    case overflowed
    /// The line contains a newline, which would break the framing: nothing was queued.
    case containsNewline
}

/// A single-threaded poll loop that owns every connection of a server: the listening sockets,
/// the clients (each a `ClientConnection`), timers and signals all live on one thread, so the
/// daemon's handler needs no locks. It exists only inside `run`, on the loop thread (it is
/// deliberately not `Sendable`): handlers receive it as a parameter, and other threads reach it
/// through its `inbox`.
public final class PollLoop<Message: Sendable>: ConnectionLoop {
    /// Hand it to other threads so that they can `post` and `execute` on this loop.
    public let inbox: LoopInbox<Message>
    private let handler: any ConnectionHandler<Message>
    private let configuration: PollLoopConfiguration
    private var listeners: [Int32]
    /// How each listener's connections are split into lines (LF when not named).
    private var framings: [Int32: Framing]
    private var clients: [ClientID: ClientConnection] = [:]
    private var nextClient: UInt64 = 1
    private var timers: [TimerID: ScheduledTimer<Message>] = [:]
    private var nextTimer: UInt64 = 1
    /// Clients with newly queued output, written before the loop next sleeps.
    private var dirty: Set<ClientID> = []
    /// Clients marked for closing, finalised before the loop next sleeps.
    private var closing: Set<ClientID> = []
    /// Closed connections waiting for their peer to finish (descriptor -> give-up time); see `finalize`.
    private var lingering: [Int32: MonotonicInstant] = [:]
    private var shutdownDeadline: MonotonicInstant?
    private var acceptPausedUntil: MonotonicInstant?
    /// Nothing more is read from any client (``stopReading()``): replies still go out.
    private var readingStopped = false
    private let readBuffer: UnsafeMutableRawBufferPointer

    private init(
        inbox: LoopInbox<Message>, listeners: [Int32], framings: [Int32: Framing], configuration: PollLoopConfiguration,
        handler: any ConnectionHandler<Message>
    ) {
        self.inbox = inbox
        self.handler = handler
        self.configuration = configuration
        self.listeners = listeners
        self.framings = framings
        self.readBuffer = .allocate(byteCount: configuration.readChunkSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Serves `listeners` on the calling thread until the loop has shut down (see `shutdown`) and
    /// every connection is closed; other threads reach it through `inbox` meanwhile.
    ///
    /// Takes ownership of `listeners` (already bound and listening, for example from
    /// `SocketPath.bindListener` or `SocketActivation`): they are closed when it returns or
    /// throws. `framings` names the listeners whose connections use another framing than LF (SSIP's CRLF).
    public static func run(
        listeners: [Int32], framings: [Int32: Framing] = [:], configuration: PollLoopConfiguration = PollLoopConfiguration(),
        inbox: LoopInbox<Message>, handler: some ConnectionHandler<Message>
    ) throws(PollLoopError) {
        func abandon() { for fd in listeners { try? Syscall.close(fd) } }
        do {
            for fd in listeners {
                try Syscall.setNonBlocking(fd, true)
                try Syscall.setCloseOnExec(fd)
            }
        } catch {
            abandon()
            throw .system(error)
        }
        do {
            try inbox.begin()
        } catch {
            abandon()
            throw error
        }
        defer { inbox.finish() }
        if !configuration.signals.isEmpty {
            do {
                try SignalRelay.claim(configuration.signals, wakeFD: inbox.wakeFD)
            } catch {
                abandon()
                throw error
            }
        }
        let loop = PollLoop(inbox: inbox, listeners: listeners, framings: framings, configuration: configuration, handler: handler)
        defer {
            if !configuration.signals.isEmpty { SignalRelay.release() }
            loop.closeEverything()
        }
        do {
            try loop.runUntilFinished()
        } catch {
            throw .system(error)
        }
    }

    // MARK: - Operations for the daemon

    /// Serves `new` in place of the listener `old` (closed now), with `old`'s framing: a socket
    /// path taken back after another server took it. Connections made through `old` stay.
    public func replaceListener(_ old: Int32, with new: Int32) throws(Errno) {
        do {
            try Syscall.setNonBlocking(new, true)
            try Syscall.setCloseOnExec(new)
        } catch {
            try? Syscall.close(new)
            throw error
        }
        guard let index = listeners.firstIndex(of: old) else {
            // Stopped reading (shutting down): nothing is accepted any more.
            try? Syscall.close(new)
            return
        }
        listeners[index] = new
        if let framing = framings.removeValue(forKey: old) { framings[new] = framing }
        try? Syscall.close(old)
    }

    /// Queues `line` plus a newline for `client`. Never blocks: if the client's pending output
    /// would exceed the configured limit, the client is disconnected (`.outputOverflow`) instead.
    @discardableResult
    public func send(_ line: String, to client: ClientID) -> SendOutcome {
        guard let connection = clients[client], connection.closing == nil else { return .notConnected }
        var line = line
        let outcome = line.withUTF8 { bytes -> SendOutcome in
            guard firstNewline(in: UnsafeRawBufferPointer(bytes)) == nil else { return .containsNewline }
            return connection.queue(bytes, newline: true, limit: configuration.outputBufferLimit)
        }
        noteQueued(outcome, connection)
        return outcome
    }

    /// Queues `text` for `client` as it is, with no newline added (SSIP's replies end their own
    /// lines in CRLF). Never blocks; overflow disconnects, as with `send`.
    @discardableResult
    public func write(_ text: String, to client: ClientID) -> SendOutcome {
        guard let connection = clients[client], connection.closing == nil else { return .notConnected }
        var text = text
        let outcome = text.withUTF8 { connection.queue($0, newline: false, limit: configuration.outputBufferLimit) }
        noteQueued(outcome, connection)
        return outcome
    }

    /// Marks a connection that queued output for writing, or one that overflowed for closing.
    private func noteQueued(_ outcome: SendOutcome, _ connection: ClientConnection) {
        switch outcome {
        case .queued: dirty.insert(connection.id)
        case .overflowed: closing.insert(connection.id)
        case .notConnected, .containsNewline: break
        }
    }

    /// How `client`'s lines are framed: which protocol it speaks (nil when it is not connected).
    public func framing(of client: ClientID) -> Framing? {
        clients[client]?.framing
    }

    /// Closes `client` once its pending output has been written; its input is no longer read.
    public func close(_ client: ClientID) {
        guard let connection = clients[client], connection.closing == nil else { return }
        markClosing(connection, .afterFlush(.closedByServer))
    }

    /// Runs `body` on the loop thread after `delay` (driven by poll's timeout).
    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping (any ConnectionLoop<Message>) -> Void) -> TimerID {
        let id = TimerID(rawValue: nextTimer)
        nextTimer += 1
        timers[id] = ScheduledTimer(deadline: MonotonicClock.now() + max(delay, .zero), body: body)
        return id
    }

    /// Delivers `message` to the handler's `handle(_:loop:)` after `delay`, on the loop thread.
    @discardableResult
    public func schedule(after delay: Duration, deliver message: Message) -> TimerID {
        let handler = self.handler
        return schedule(after: delay) { loop in handler.handle(message, loop: loop) }
    }

    /// Cancels a timer that has not fired yet; cancelling a fired or unknown timer does nothing.
    public func cancel(_ timer: TimerID) {
        timers[timer] = nil
    }

    /// Graceful shutdown: stop accepting (listening sockets are closed), stop reading, write what
    /// is queued for each client (waiting at most `flushTimeout`, default from the configuration),
    /// close every connection, and return from `run`. Calling it again can only shorten
    /// the wait.
    public func shutdown(flushTimeout: Duration?) {
        let deadline = MonotonicClock.now() + (flushTimeout ?? configuration.shutdownFlushTimeout)
        if let existing = shutdownDeadline {
            shutdownDeadline = min(existing, deadline)
            return
        }
        shutdownDeadline = deadline
        for fd in listeners { try? Syscall.close(fd) }
        listeners.removeAll()
        handler.log(.shutdownStarted(clients: clients.count))
        for connection in clients.values where connection.closing == nil {
            markClosing(connection, .afterFlush(.shutdown))
        }
    }

    /// The first step of stopping when some replies are still being prepared off the loop: take
    /// nothing new (the listening sockets are closed and no client is read from any more) while
    /// every reply still goes out; ``shutdown(flushTimeout:)`` follows once they are all queued.
    public func stopReading() {
        for fd in listeners { try? Syscall.close(fd) }
        listeners.removeAll()
        readingStopped = true
    }

    /// The clients that are still connected and not closing.
    public var connectedClients: [ClientID] {
        clients.values.filter { $0.closing == nil }.map(\.id).sorted()
    }

    /// The credentials a connected client presented when it connected.
    public func peer(of client: ClientID) -> PeerCredentials? {
        clients[client]?.peer
    }

    /// Bytes queued for `client` and not yet taken by its socket.
    public func pendingOutput(of client: ClientID) -> Int {
        clients[client]?.output.count ?? 0
    }

    // MARK: - The loop

    private func runUntilFinished() throws(Errno) {
        var entries: [pollfd] = []
        var polledClients: [ClientConnection] = []
        while true {
            runQueuedWork()
            fireDueTimers()
            handler.batchEnded(loop: self)
            flushDirty()
            reapClosing()
            expireLingering(force: false)
            if let deadline = shutdownDeadline {
                if clients.isEmpty && lingering.isEmpty { return }
                if MonotonicClock.now() >= deadline {
                    for connection in clients.values {
                        markClosing(connection, .now(.shutdownFlushTimedOut(unsentBytes: connection.output.count)))
                    }
                    reapClosing()
                    expireLingering(force: true)
                    return
                }
            }

            entries.removeAll(keepingCapacity: true)
            polledClients.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: inbox.wakeFD, events: Int16(POLLIN), revents: 0))
            let accepting = acceptPausedUntil.map { MonotonicClock.now() >= $0 } ?? true
            if accepting {
                acceptPausedUntil = nil
                for fd in listeners { entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            }
            let listenerCount = entries.count - 1
            let lingeringFDs = Array(lingering.keys)
            for fd in lingeringFDs { entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let clientsStart = 1 + listenerCount + lingeringFDs.count
            for connection in clients.values {
                var events: Int16 = 0
                if connection.reading, !readingStopped { events |= Int16(POLLIN) }
                if !connection.output.isEmpty { events |= Int16(POLLOUT) }
                entries.append(pollfd(fd: connection.fd, events: events, revents: 0))
                polledClients.append(connection)
            }

            _ = try Syscall.poll(&entries, timeoutMilliseconds: pollTimeout())

            if entries[0].revents != 0 { _ = try? Syscall.drainEventFD(inbox.wakeFD) }
            for index in 0..<listenerCount where entries[1 + index].revents != 0 {
                acceptPending(on: entries[1 + index].fd)
            }
            for (offset, fd) in lingeringFDs.enumerated() where entries[1 + listenerCount + offset].revents != 0 {
                discardInput(lingering: fd)
            }
            for (offset, connection) in polledClients.enumerated() {
                let events = entries[clientsStart + offset].revents
                if events != 0 { service(connection, events: events) }
            }
        }
    }

    /// Closes whatever is left when `run` ends (normally nothing but the listeners).
    private func closeEverything() {
        for fd in listeners { try? Syscall.close(fd) }
        listeners.removeAll()
        for connection in clients.values { connection.closeSocket() }
        clients.removeAll()
        expireLingering(force: true)
        timers.removeAll()
    }

    private func pollTimeout() -> Int32 {
        // The earliest deadline, without building an array (this runs before every poll).
        var next: MonotonicInstant?
        func consider(_ deadline: MonotonicInstant?) {
            guard let deadline else { return }
            next = next.map { min($0, deadline) } ?? deadline
        }
        for timer in timers.values { consider(timer.deadline) }
        consider(shutdownDeadline)
        consider(acceptPausedUntil)
        for lingerEnd in lingering.values { consider(lingerEnd) }
        guard let next else { return -1 }
        let remaining = next - MonotonicClock.now()
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        // Round up so that a timer never fires a little early and costs an extra wake-up.
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    private func runQueuedWork() {
        // Only the loop that claimed the relay may take from it: taking clears the pending bits.
        if !configuration.signals.isEmpty {
            for signal in SignalRelay.take() where configuration.signals.contains(signal) {
                handler.signal(signal, loop: self)
            }
        }
        for work in inbox.takeWork() {
            switch work {
            case .closure(let body): body(self)
            case .message(let message): handler.handle(message, loop: self)
            }
        }
    }

    private func fireDueTimers() {
        guard !timers.isEmpty else { return }
        let now = MonotonicClock.now()
        let due = timers.filter { $0.value.deadline <= now }
            .sorted { ($0.value.deadline, $0.key.rawValue) < ($1.value.deadline, $1.key.rawValue) }
        for (id, _) in due {
            // An earlier timer in this batch may have cancelled this one.
            guard let timer = timers.removeValue(forKey: id) else { continue }
            timer.body(self)
        }
    }

    private func acceptPending(on listener: Int32) {
        // A bounded batch per wake-up keeps a connection storm from starving existing clients.
        for _ in 0..<64 {
            let socket: OwnedDescriptor
            do {
                guard let accepted = try Syscall.accept(listener) else { return }
                socket = accepted
            } catch {
                handler.log(.acceptFailed(error))
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.code) {
                    // The pending connection stays queued, so poll would report it again at once.
                    acceptPausedUntil = MonotonicClock.now() + .milliseconds(100)
                }
                return
            }
            let peer: PeerCredentials
            do {
                peer = try PeerCredentials(socket: socket.rawValue)
            } catch {
                // Dropping `socket` closes it.
                handler.log(.peerCredentialsUnavailable(error))
                continue
            }
            let id = ClientID(rawValue: nextClient)
            nextClient += 1
            let connection = ClientConnection(
                id: id, socket: socket, peer: peer, lineLimit: configuration.maximumLineLength, framing: framings[listener] ?? .newline,
                largeLineLength: configuration.largeLineLength)
            // Registered before telling the handler, so a line sent from `accept` is kept.
            clients[id] = connection
            handler.accept(id, peer: peer, loop: self)
        }
    }

    private func service(_ connection: ClientConnection, events: Int16) {
        if events & Int16(POLLOUT) != 0 || events & Int16(POLLERR | POLLHUP) != 0 {
            if !connection.becameWritable() { closing.insert(connection.id) }
        }
        if events & Int16(POLLIN) != 0, connection.reading, !readingStopped {
            readOnce(connection)
        } else if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, connection.closingNow == nil {
            // The peer is gone entirely; nothing more can be read or written.
            markClosing(connection, .now(connection.goneReason()))
        }
    }

    private func readOnce(_ connection: ClientConnection) {
        var longest = 0
        switch connection.read(into: readBuffer) {
        case .nothing:
            return
        case .failed(let error):
            markClosing(connection, .now(.readFailed(error)))
            return
        case .frames(let frames):
            for frame in frames {
                // Stop at once if the handler closed this client (or it overflowed) meanwhile.
                guard connection.closing == nil else { break }
                longest = max(longest, frame.lineLength)
                handler.receive(connection.input(for: frame), from: connection.id, loop: self)
            }
        case .endOfInput(let last):
            if let last {
                longest = last.lineLength
                handler.receive(connection.input(for: last), from: connection.id, loop: self)
            }
            if connection.closing == nil { markClosing(connection, .afterFlush(.peerClosed)) }
        }
        // A long line's bytes, its String and whatever the handler built from them (a tree
        // document's JSON) are freed only now, scattered through the heap and still resident.
        if longest >= configuration.releaseMemoryAfterLineLength { Syscall.releaseFreedMemory() }
    }

    private func flushDirty() {
        guard !dirty.isEmpty else { return }
        for id in dirty {
            guard let connection = clients[id], !connection.writeBlocked, !connection.output.isEmpty else { continue }
            if !connection.flush() { closing.insert(id) }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func markClosing(_ connection: ClientConnection, _ next: ClientConnection.Closing) {
        if connection.startClosing(next) { closing.insert(connection.id) }
    }

    private func reapClosing() {
        guard !closing.isEmpty else { return }
        for id in closing {
            guard let connection = clients[id], connection.closing != nil else {
                closing.remove(id)
                continue
            }
            guard let (reason, graceful) = connection.finished else { continue }
            finalize(connection, reason: reason, graceful: graceful)
            closing.remove(id)
        }
    }

    /// How long a gracefully closed connection waits for its peer to close before it is dropped.
    static var lingerTime: Duration { .seconds(2) }

    /// Reads and drops what a lingering peer sent; closes once it reached end of file.
    private func discardInput(lingering fd: Int32) {
        for _ in 0..<16 {
            do {
                if try Syscall.read(fd, into: readBuffer) > 0 { continue }
            } catch where error.isWouldBlock {
                return
            } catch {
                // A reset peer is gone just the same.
            }
            lingering[fd] = nil
            try? Syscall.close(fd)
            return
        }
    }

    /// Closes lingering connections whose time is up (all of them when `force`).
    private func expireLingering(force: Bool) {
        guard !lingering.isEmpty else { return }
        let now = MonotonicClock.now()
        for (fd, deadline) in lingering where force || deadline <= now {
            lingering[fd] = nil
            try? Syscall.close(fd)
        }
    }

    private func finalize(_ connection: ClientConnection, reason: DisconnectReason, graceful: Bool) {
        clients[connection.id] = nil
        dirty.remove(connection.id)
        if graceful {
            // Signal end of output, then linger, discarding input, until the peer closes too:
            // closing a Unix socket while the peer is still writing makes its writes fail with
            // EPIPE and its reads with ECONNRESET, so it might never see our last line (for a
            // refused client, the reason it was refused).
            try? Syscall.shutdown(connection.fd, writing: true, reading: false)
            if let fd = connection.takeSocket() {
                lingering[fd] = MonotonicClock.now() + Self.lingerTime
                discardInput(lingering: fd)
            }
        } else {
            connection.closeSocket()
        }
        handler.disconnected(connection.id, reason: reason, loop: self)
        switch reason {
        case .peerClosed, .closedByServer, .shutdown:
            break
        default:
            handler.log(.disconnected(connection.id, peer: connection.peer, reason: reason))
        }
    }
}

private struct ScheduledTimer<Message: Sendable> {
    let deadline: MonotonicInstant
    let body: (any ConnectionLoop<Message>) -> Void
}
