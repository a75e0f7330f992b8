import NarratorCore
import Glibc

/// Identifies a timer scheduled with `LoopContext.schedule(after:_:)`, for cancelling it.
public struct TimerID: Hashable, Sendable {
    let rawValue: UInt64
}

/// The result of `LoopContext.send`.
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

/// The loop's state and the operations the daemon performs on it. It lives on the loop thread
/// only (it is deliberately not `Sendable`): handlers receive it as a parameter, and other
/// threads reach it through `EventLoop.execute`.
public final class LoopContext<Message: Sendable> {
    /// The loop this context belongs to; hand it to other threads so they can `execute` on it.
    public let eventLoop: EventLoop<Message>
    private let handler: any ConnectionHandler<Message>
    private let configuration: EventLoopConfiguration
    private var listeners: [Int32]
    private var clients: [ClientID: Connection] = [:]
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
    private let readBuffer: UnsafeMutableRawBufferPointer

    init(loop: EventLoop<Message>, listeners: [Int32], handler: any ConnectionHandler<Message>) {
        self.eventLoop = loop
        self.handler = handler
        self.configuration = loop.configuration
        self.listeners = listeners
        self.readBuffer = .allocate(byteCount: loop.configuration.readChunkSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    // MARK: - Operations for the daemon

    /// Queues `line` plus a newline for `client`. Never blocks: if the client's pending output
    /// would exceed the configured limit, the client is disconnected (`.outputOverflow`) instead.
    @discardableResult
    public func send(_ line: String, to client: ClientID) -> SendOutcome {
        guard let connection = clients[client], connection.closing == nil else { return .notConnected }
        var line = line
        let bytes = line.withUTF8 { Array($0) }
        guard bytes.withUnsafeBytes({ firstNewline(in: $0) }) == nil else { return .containsNewline }
        let queued = connection.output.count + bytes.count + 1
        guard queued <= configuration.outputBufferLimit else {
            connection.output.removeAll()
            markClosing(connection, .now(.outputOverflow(limit: configuration.outputBufferLimit, queued: queued)))
            return .overflowed
        }
        connection.output.append(bytes)
        connection.output.append(CollectionOfOne(UInt8(ascii: "\n")))
        dirty.insert(client)
        return .queued
    }

    /// Queues `text` for `client` as it is, with no newline added (SSIP's replies end their own
    /// lines in CRLF). Never blocks; overflow disconnects, as with `send`.
    @discardableResult
    public func write(_ text: String, to client: ClientID) -> SendOutcome {
        guard let connection = clients[client], connection.closing == nil else { return .notConnected }
        var text = text
        let queued = connection.output.count + text.utf8.count
        guard queued <= configuration.outputBufferLimit else {
            connection.output.removeAll()
            markClosing(connection, .now(.outputOverflow(limit: configuration.outputBufferLimit, queued: queued)))
            return .overflowed
        }
        text.withUTF8 { connection.output.append($0) }
        dirty.insert(client)
        return .queued
    }

    /// How `client`'s lines are framed: which protocol it speaks (nil when it is not connected).
    public func framing(of client: ClientID) -> Framing? {
        clients[client]?.framer.framing
    }

    /// Closes `client` once its pending output has been written; its input is no longer read.
    public func close(_ client: ClientID) {
        guard let connection = clients[client], connection.closing == nil else { return }
        markClosing(connection, .afterFlush(.closedByServer))
    }

    /// Runs `body` on the loop thread after `delay` (driven by poll's timeout).
    @discardableResult
    public func schedule(after delay: Duration, _ body: @escaping (LoopContext<Message>) -> Void) -> TimerID {
        let id = TimerID(rawValue: nextTimer)
        nextTimer += 1
        timers[id] = ScheduledTimer(deadline: MonotonicClock.now() + max(delay, .zero), body: body)
        return id
    }

    /// Delivers `message` to the handler's `handle(_:loop:)` after `delay`, on the loop thread.
    @discardableResult
    public func schedule(after delay: Duration, deliver message: Message) -> TimerID {
        let handler = self.handler
        return schedule(after: delay) { context in handler.handle(message, loop: context) }
    }

    /// Cancels a timer that has not fired yet; cancelling a fired or unknown timer does nothing.
    public func cancel(_ timer: TimerID) {
        timers[timer] = nil
    }

    /// Graceful shutdown: stop accepting (listening sockets are closed), stop reading, write what
    /// is queued for each client (waiting at most `flushTimeout`, default from the configuration),
    /// close every connection, and return from `EventLoop.run`. Calling it again can only shorten
    /// the wait.
    public func shutdown(flushTimeout: Duration? = nil) {
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

    func runUntilFinished() throws(Errno) {
        var entries: [pollfd] = []
        var polledClients: [Connection] = []
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
            entries.append(pollfd(fd: eventLoop.wakeFD, events: Int16(POLLIN), revents: 0))
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
                if connection.reading { events |= Int16(POLLIN) }
                if !connection.output.isEmpty { events |= Int16(POLLOUT) }
                entries.append(pollfd(fd: connection.fd, events: events, revents: 0))
                polledClients.append(connection)
            }

            _ = try Syscall.poll(&entries, timeoutMilliseconds: pollTimeout())

            if entries[0].revents != 0 { _ = try? Syscall.drainEventFD(eventLoop.wakeFD) }
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
    func closeEverything() {
        for fd in listeners { try? Syscall.close(fd) }
        listeners.removeAll()
        for connection in clients.values { try? Syscall.close(connection.fd) }
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
        for work in eventLoop.takeWork() {
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
            let fd: Int32
            do {
                guard let accepted = try Syscall.accept(listener) else { return }
                fd = accepted
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
                peer = try PeerCredentials(socket: fd)
            } catch {
                handler.log(.peerCredentialsUnavailable(error))
                try? Syscall.close(fd)
                continue
            }
            let id = ClientID(rawValue: nextClient)
            nextClient += 1
            let connection = Connection(
                id: id, fd: fd, peer: peer, lineLimit: configuration.maximumLineLength, framing: eventLoop.framings[listener] ?? .newline)
            // Registered before telling the handler, so a line sent from `accept` is kept.
            clients[id] = connection
            handler.accept(id, peer: peer, loop: self)
        }
    }

    private func service(_ connection: Connection, events: Int16) {
        if events & Int16(POLLOUT) != 0 || events & Int16(POLLERR | POLLHUP) != 0 {
            connection.writeBlocked = false
            if !connection.output.isEmpty { flush(connection) }
        }
        if events & Int16(POLLIN) != 0, connection.reading {
            readOnce(connection)
        } else if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0, connection.closingNow == nil {
            // The peer is gone entirely; nothing more can be read or written.
            let reason: DisconnectReason
            if let error = try? Syscall.socketOption(connection.fd, level: SOL_SOCKET, name: SO_ERROR), error != 0 {
                reason = .readFailed(Errno(code: error, syscall: "poll"))
            } else {
                reason = connection.closing?.reason ?? .peerClosed
            }
            connection.output.removeAll()
            markClosing(connection, .now(reason))
        }
    }

    private func readOnce(_ connection: Connection) {
        let count: Int
        do {
            count = try Syscall.read(connection.fd, into: readBuffer)
        } catch where error.isWouldBlock {
            return
        } catch {
            markClosing(connection, .now(.readFailed(error)))
            return
        }
        let longest: Int
        if count == 0 {
            longest = deliverLast(from: connection)
            if connection.closing == nil { markClosing(connection, .afterFlush(.peerClosed)) }
        } else {
            longest = deliverLines(count, from: connection)
        }
        // A long line's bytes, its String and whatever the handler built from them (a tree
        // document's JSON) are freed only now, scattered through the heap and still resident.
        if longest >= configuration.releaseMemoryAfterLineLength { Syscall.releaseFreedMemory() }
    }

    /// Frames the `count` bytes just read and hands each complete line to the handler.
    /// Returns the length of the longest line; the frames are freed when it returns.
    private func deliverLines(_ count: Int, from connection: Connection) -> Int {
        let frames = connection.framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
        var longest = 0
        for frame in frames {
            // Stop at once if the handler closed this client (or it overflowed) meanwhile.
            guard connection.closing == nil else { break }
            longest = max(longest, frame.lineLength)
            deliver(frame, from: connection)
        }
        return longest
    }

    /// Hands the unterminated last line (at end of input) to the handler; returns its length.
    private func deliverLast(from connection: Connection) -> Int {
        guard let last = connection.framer.finish() else { return 0 }
        deliver(last, from: connection)
        return last.lineLength
    }

    private func deliver(_ frame: LineFramer.Frame, from connection: Connection) {
        let input: ClientInput
        switch frame {
        case .tooLong:
            input = .lineTooLong(limit: configuration.maximumLineLength)
        case .line(let bytes) where connection.framer.framing == .crlf:
            // SSIP clients send what their users typed: bytes that are not UTF-8 are replaced, not refused.
            input = .line(String(decoding: bytes, as: UTF8.self))
        case .line(let bytes):
            if let text = String(validating: bytes, as: UTF8.self) {
                input = .line(text)
            } else {
                input = .invalidUTF8(byteCount: bytes.count)
            }
        }
        handler.receive(input, from: connection.id, loop: self)
    }

    private func flushDirty() {
        guard !dirty.isEmpty else { return }
        for id in dirty {
            guard let connection = clients[id], !connection.writeBlocked, !connection.output.isEmpty else { continue }
            flush(connection)
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func flush(_ connection: Connection) {
        do {
            connection.writeBlocked = try !connection.output.flush(to: connection.fd)
        } catch {
            connection.output.removeAll()
            markClosing(connection, .now(.writeFailed(error)))
        }
    }

    private func markClosing(_ connection: Connection, _ closing: Connection.Closing) {
        if case .now = connection.closing { return }
        connection.closing = closing
        connection.reading = false
        self.closing.insert(connection.id)
    }

    private func reapClosing() {
        guard !closing.isEmpty else { return }
        for id in closing {
            guard let connection = clients[id], let state = connection.closing else {
                closing.remove(id)
                continue
            }
            switch state {
            case .afterFlush(let reason) where connection.output.isEmpty:
                finalize(connection, reason: reason, graceful: true)
            case .now(let reason):
                finalize(connection, reason: reason, graceful: false)
            case .afterFlush:
                continue
            }
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

    private func finalize(_ connection: Connection, reason: DisconnectReason, graceful: Bool) {
        clients[connection.id] = nil
        dirty.remove(connection.id)
        if graceful {
            // Signal end of output, then linger, discarding input, until the peer closes too:
            // closing a Unix socket while the peer is still writing makes its writes fail with
            // EPIPE and its reads with ECONNRESET, so it might never see our last line (for a
            // refused client, the reason it was refused).
            try? Syscall.shutdown(connection.fd, writing: true, reading: false)
            lingering[connection.fd] = MonotonicClock.now() + Self.lingerTime
            discardInput(lingering: connection.fd)
        } else {
            try? Syscall.close(connection.fd)
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

/// One client's state, owned by the `LoopContext`.
private final class Connection {
    enum Closing {
        /// Close once the output buffer is empty.
        case afterFlush(DisconnectReason)
        /// Close at the next opportunity, dropping unsent output.
        case now(DisconnectReason)

        var reason: DisconnectReason {
            switch self {
            case .afterFlush(let reason), .now(let reason): return reason
            }
        }
    }

    let id: ClientID
    let fd: Int32
    let peer: PeerCredentials
    var framer: LineFramer
    var output = OutputBuffer()
    var reading = true
    var writeBlocked = false
    var closing: Closing?

    var closingNow: DisconnectReason? {
        if case .now(let reason) = closing { return reason }
        return nil
    }

    init(id: ClientID, fd: Int32, peer: PeerCredentials, lineLimit: Int, framing: Framing) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.framer = LineFramer(limit: lineLimit, framing: framing)
    }
}

private struct ScheduledTimer<Message: Sendable> {
    let deadline: MonotonicInstant
    let body: (LoopContext<Message>) -> Void
}
