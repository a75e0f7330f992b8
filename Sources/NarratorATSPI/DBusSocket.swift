import CAtspi
import Glibc
import NarratorBase
import NarratorBridge
import NarratorSystem
import NarratorDBus

/// The bridge's connection to the accessibility bus: a Unix socket spoken to in D-Bus's wire
/// format (``DBusWire``), read on the GLib main loop's thread when it has bytes and written when
/// there is something to write, every call queued in one loop iteration going out in one write.
/// No second thread and no object per message: a long page's 90,000 questions cost the bridge
/// what encoding and decoding them costs. Used on one thread only.
///
/// The same socket speaks to one application directly (``init(peer:)``): its own server, which
/// at-spi2-atk opens for `GetApplicationBusAddress`, without the bus in between. That one is
/// never waited for: its authentication is answered on the main loop like any message.
package final class DBusSocket {
    /// Why the bus could not be reached, or went.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    /// Whom the connection is to, for the reasons it closes.
    private let counterpart: String
    /// Replies over 8 MiB are not kept (``DBusMessageReader/messageLimit``): their calls fail
    /// with ``DBusIncoming/tooLarge``. GTK's whole cache for gtk3-widget-factory is 70 KB; an
    /// application that answers with a million children or a 10 MB name is hostile, and the
    /// bridge's memory must not hold what it sent.
    static let messageLimit = 8 << 20
    private var reader = DBusMessageReader(messageLimit: messageLimit)
    /// Where each read lands, kept between reads: a busy bus is readable thousands of times a second.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// Bytes queued and not yet written, from `written` on.
    private var output: [UInt8] = []
    private var written = 0
    private var flushScheduled = false
    private var waitingToWrite = false
    private var nextSerial: UInt32 = 1
    package private(set) var closedBecause: String?
    /// Whether it was the other side that closed, cleanly (an application that quit), rather than a fault.
    private(set) var endedByPeer = false
    /// A direct connection's authentication while it is under way: calls wait until it is done.
    private var handshake: DBusHandshake?
    /// Whether calls can be sent: the bus's connection at once, an application's once it said `OK`.
    var isOpen: Bool { closedBecause == nil && handshake == nil }
    /// Every message that comes, in order, on this thread.
    var received: (DBusIncoming) -> Void = { _ in }
    /// Once, when a direct connection's authentication is done (the bus's is done before its init returns).
    var opened: () -> Void = {}
    /// Once, when the other side closes the connection or speaks nonsense.
    var closed: (String) -> Void = { _ in }

    /// Connects to the first socket of `address` that answers, authenticates as this process's
    /// user (SASL `EXTERNAL`) and says `Hello`, waiting at most `timeoutMilliseconds` for each step.
    init(address: String, timeoutMilliseconds: Int32 = 5_000) throws(Failure) {
        let fd = try Self.connect(to: address, nonBlocking: false)
        self.fd = fd
        counterpart = "the accessibility bus"
        do throws(Failure) {
            do {
                try Syscall.setNonBlocking(fd, true)
            } catch {
                throw Failure(description: "cannot make the socket non-blocking: \(error)")
            }
            try authenticate(timeoutMilliseconds: timeoutMilliseconds)
            let hello = nextSerial
            nextSerial += 1
            output = DBusWire.hello(serial: hello)
            guard let reply = wait(for: hello, timeoutMilliseconds: timeoutMilliseconds) else {
                throw Failure(description: "the bus at \(address) did not answer Hello within \(timeoutMilliseconds) ms")
            }
            if reply.kind == .error { throw Failure(description: "the bus at \(address) refused Hello: \(reply.errorName ?? "") \(reply.errorMessage)") }
        } catch {
            // Closed here, once: the object's deinit then finds it closed.
            close(because: error.description)
            throw error
        }
        Trampoline.whenReadable(fd) { [weak self] in self?.readable() ?? false }
    }

    /// Connects to an application's own server at `address` (no bus: no `Hello`), without
    /// waiting: the socket is non-blocking before it connects, so a server whose queue is full
    /// is an error at once, and its answer to the authentication is read when it comes
    /// (``opened``, or ``closed`` with its refusal).
    init(peer address: String) throws(Failure) {
        fd = try Self.connect(to: address, nonBlocking: true)
        counterpart = "the application's socket"
        handshake = DBusHandshake()
        output = DBusHandshake.opening(uid: getuid())
        flush()
        Trampoline.whenReadable(fd) { [weak self] in self?.readable() ?? false }
    }

    deinit {
        if closedBecause == nil { try? Syscall.close(fd) }
    }

    /// Closes the connection now (an application's that did not answer in time); ``closed`` is told.
    func shut(because reason: String) {
        close(because: reason)
    }

    /// A socket connected to the first of `address`'s sockets that answers.
    private static func connect(to address: String, nonBlocking: Bool) throws(Failure) -> Int32 {
        let sockets: [DBusAddress]
        do {
            sockets = try DBusAddress.parse(address)
        } catch {
            throw Failure(description: error.description)
        }
        var reasons: [String] = []
        for socket in sockets {
            do {
                return try connect(socket, nonBlocking: nonBlocking)
            } catch {
                reasons.append(error.description)
            }
        }
        throw Failure(description: "cannot connect to \(address): " + reasons.joined(separator: "; "))
    }

    private static func connect(_ socket: DBusAddress, nonBlocking: Bool) throws(Failure) -> Int32 {
        let address: UnixSocketAddress
        let name: String
        do {
            switch socket {
            case .path(let path):
                name = path
                address = try UnixSocketAddress(path: path)
            case .abstract(let abstract):
                name = "@" + abstract
                address = try UnixSocketAddress(abstractName: abstract)
            }
        } catch {
            throw Failure(description: error.description)
        }
        do {
            let fd = try Syscall.unixSocket(type: Syscall.stream, nonBlocking: nonBlocking)
            do {
                try Syscall.connect(fd, to: address)
            } catch {
                try? Syscall.close(fd)
                throw error
            }
            return fd
        } catch {
            throw Failure(description: "\(name): \(error)")
        }
    }

    /// SASL on the bus's new socket (``DBusHandshake``), waited for: without the bus there is
    /// nothing to do. The answer is read as a direct connection's is, only blocking.
    private func authenticate(timeoutMilliseconds: Int32) throws(Failure) {
        handshake = DBusHandshake()
        output = DBusHandshake.opening(uid: getuid())
        guard flushBlocking(timeoutMilliseconds: timeoutMilliseconds) else { throw Failure(description: "the bus did not take the authentication") }
        let deadline = MonotonicClock.now() + .milliseconds(Int(timeoutMilliseconds))
        while handshake != nil, closedBecause == nil {
            guard MonotonicClock.now() < deadline else {
                throw Failure(description: "the bus did not answer the authentication within \(timeoutMilliseconds) ms")
            }
            _ = try? Syscall.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: MonotonicClock.milliseconds(until: deadline))
            authenticationAnswered()
        }
        if let reason = closedBecause { throw Failure(description: reason) }
        guard flushBlocking(timeoutMilliseconds: timeoutMilliseconds) else { throw Failure(description: "the bus did not take BEGIN") }
    }

    /// A direct connection's answer to the authentication, read on the main loop: on `OK`,
    /// `BEGIN` goes out and the connection is open; anything else closes it.
    private func authenticationAnswered() {
        guard var pending = handshake else { return }
        while closedBecause == nil {
            let result = chunk.withUnsafeMutableBytes { bytes in Result { () throws(Errno) -> Int in try Syscall.read(fd, into: bytes) } }
            switch result {
            case .success(0):
                close(because: "\(counterpart) closed during the authentication")
            case .success(let count):
                switch pending.feed(chunk[..<count]) {
                case .waiting:
                    handshake = pending
                    continue
                case .accepted(let rest):
                    handshake = nil
                    reader.append(rest)
                    output += DBusHandshake.begin
                    flush()
                    opened()
                case .refused(let answer):
                    close(because: "\(counterpart) refused the authentication as uid \(getuid()): \(answer)")
                }
                return
            case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
                handshake = pending
                return
            case .failure(let error):
                close(because: "reading the answer of \(counterpart) to the authentication failed: \(error)")
            }
        }
    }

    /// Queues `call` to `destination`; it is written once this loop iteration ends (or at once,
    /// when much is queued). Its serial, or nil once the connection is closed.
    func send(_ call: DBusCall, to destination: String) -> UInt32? {
        guard isOpen else { return nil }
        let serial = nextSerial
        nextSerial = nextSerial == .max ? 1 : nextSerial + 1
        output += DBusWire.methodCall(call, destination: destination, serial: serial)
        if output.count - written > 1 << 16 {
            flush()
        } else if !flushScheduled, !waitingToWrite {
            flushScheduled = true
            Trampoline.soon { [weak self] in
                self?.flushScheduled = false
                self?.flush()
            }
        }
        return serial
    }

    /// Writes what the socket takes now; the rest when it can take more.
    private func flush() {
        guard closedBecause == nil, written < output.count else { return }
        let result = output.withUnsafeBytes { bytes in
            // send(2), not write(2): an application that quit is an EPIPE here, not a SIGPIPE for the bridge.
            Result { () throws(Errno) -> Int in try Syscall.send(fd, UnsafeRawBufferPointer(rebasing: bytes[written...])) }
        }
        switch result {
        case .success(let count): written += count
        case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK: break
        case .failure(let error):
            close(because: "writing to \(counterpart) failed: \(error)")
            return
        }
        if written == output.count {
            output.removeAll(keepingCapacity: true)
            written = 0
        } else if !waitingToWrite {
            waitingToWrite = true
            Trampoline.whenWritable(fd) { [weak self] in
                guard let self else { return false }
                self.flush()
                self.waitingToWrite = self.closedBecause == nil && self.written < self.output.count
                return self.waitingToWrite
            }
        }
    }

    /// Writes everything queued, waiting for the socket as long as `timeoutMilliseconds`.
    private func flushBlocking(timeoutMilliseconds: Int32) -> Bool {
        let deadline = MonotonicClock.now() + .milliseconds(Int(timeoutMilliseconds))
        while closedBecause == nil, written < output.count, MonotonicClock.now() < deadline {
            flush()
            if written < output.count { _ = try? Syscall.poll(fd, events: Int16(POLLOUT), timeoutMilliseconds: MonotonicClock.milliseconds(until: deadline)) }
        }
        return closedBecause == nil && output.isEmpty
    }

    /// Reads everything the socket holds and hands on every whole message. Whether to keep watching.
    private func readable() -> Bool {
        guard closedBecause == nil else { return false }
        if handshake != nil {
            authenticationAnswered()
            if handshake != nil { return closedBecause == nil }
        }
        _ = readAvailable()
        return deliverWhole(until: nil) == nil && closedBecause == nil
    }

    /// Reads until the socket is empty; false when it closed.
    private func readAvailable() -> Bool {
        while closedBecause == nil {
            let result = chunk.withUnsafeMutableBytes { bytes in Result { () throws(Errno) -> Int in try Syscall.read(fd, into: bytes) } }
            switch result {
            case .success(0):
                endedByPeer = true
                close(because: "\(counterpart) closed the connection")
                return false
            case .success(let count):
                chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
                return true
            case .failure(let error):
                close(because: "reading from \(counterpart) failed: \(error)")
                return false
            }
        }
        return false
    }

    /// Hands on every whole message read, except the reply to `serial` (if given), which is
    /// returned once every other message before and after it has been handed on.
    private func deliverWhole(until serial: UInt32?) -> DBusIncoming? {
        var kept: DBusIncoming?
        while closedBecause == nil {
            do {
                guard let message = try reader.next() else { break }
                if let serial, message.replySerial == serial, message.kind == .methodReturn || message.kind == .error {
                    kept = message
                } else {
                    received(message)
                }
            } catch {
                close(because: "\(counterpart) sent what is not D-Bus: \(error)")
            }
        }
        return kept
    }

    /// Writes what is queued and waits for the reply to `serial`, handing on every other message
    /// that comes meanwhile: for the connection's Hello and the benchmarks' one-call baseline.
    func wait(for serial: UInt32, timeoutMilliseconds: Int32) -> DBusIncoming? {
        let deadline = MonotonicClock.now() + .milliseconds(Int(timeoutMilliseconds))
        guard flushBlocking(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        while closedBecause == nil, MonotonicClock.now() < deadline {
            if let reply = deliverWhole(until: serial) { return reply }
            _ = try? Syscall.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: MonotonicClock.milliseconds(until: deadline))
            guard readAvailable() else { return nil }
        }
        return nil
    }

    /// The queued call `serial`, sent and waited for (see ``wait(for:timeoutMilliseconds:)``).
    package func call(_ call: DBusCall, to destination: String, timeoutMilliseconds: Int32) -> DBusIncoming? {
        guard let serial = send(call, to: destination) else { return nil }
        return wait(for: serial, timeoutMilliseconds: timeoutMilliseconds)
    }

    private func close(because reason: String) {
        guard closedBecause == nil else { return }
        closedBecause = reason
        try? Syscall.close(fd)
        closed(reason)
    }
}
