import Glibc
import NarratorBase

/// One client's end of the loop: its framing, its queued output, and the state it is in. A
/// connection reads until it starts closing; it closes once its output is written (`afterFlush`)
/// or at once, dropping what is unsent (`now`), and only moves from the first to the second. The
/// loop owns one per client and decides when each is serviced; what every state allows is here.
final class ClientConnection {
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

    /// What one read from the socket brought.
    enum ReadOutcome {
        /// Nothing was there after all (a spurious wake-up).
        case nothing
        /// The complete lines it finished (possibly none).
        case frames([LineFramer.Frame])
        /// The peer closed its end; the unterminated last line, when it sent one.
        case endOfInput(LineFramer.Frame?)
        case failed(Errno)
    }

    let id: ClientID
    /// The socket's number, for the calls that use it; `owned` says whether it is still this connection's to close.
    let fd: Int32
    /// The socket until the loop closes it or hands it to the lingering set; closed with the
    /// connection if neither happened.
    private var owned: OwnedDescriptor?
    let peer: PeerCredentials
    private var framer: LineFramer
    /// Lines at least this long are handed over unchecked (`ClientInput.largeLine`).
    private let largeLineLength: Int
    private(set) var output = OutputBuffer()
    /// False once closing: what the client sends after that is not read.
    private(set) var reading = true
    /// The socket took less than was queued: wait for POLLOUT before writing again.
    private(set) var writeBlocked = false
    private(set) var closing: Closing?

    init(id: ClientID, socket: consuming OwnedDescriptor, peer: PeerCredentials, lineLimit: Int, framing: Framing, largeLineLength: Int = .max) {
        self.id = id
        self.fd = socket.rawValue
        self.owned = .some(socket)
        self.peer = peer
        self.framer = LineFramer(limit: lineLimit, framing: framing)
        self.largeLineLength = largeLineLength
    }

    /// A connection with no socket, for the loop without sockets (`InMemoryLoop`): what it frames
    /// and queues is the same; there is nothing to close.
    init(id: ClientID, peer: PeerCredentials, lineLimit: Int, framing: Framing, largeLineLength: Int = .max) {
        self.id = id
        self.fd = -1
        self.owned = nil
        self.peer = peer
        self.framer = LineFramer(limit: lineLimit, framing: framing)
        self.largeLineLength = largeLineLength
    }

    var framing: Framing { framer.framing }

    /// Closes the socket now (once: later calls do nothing).
    func closeSocket() {
        if let socket = owned.take() { try? socket.close() }
    }

    /// Hands the socket's ownership to the caller, who closes it (nil when already given up).
    func takeSocket() -> Int32? {
        guard let socket = owned.take() else { return nil }
        return socket.take()
    }

    var closingNow: DisconnectReason? {
        if case .now(let reason) = closing { return reason }
        return nil
    }

    /// Why the connection can be finalized now (and whether gracefully), nil while it may not.
    var finished: (reason: DisconnectReason, graceful: Bool)? {
        switch closing {
        case .afterFlush(let reason) where output.isEmpty: return (reason, true)
        case .now(let reason): return (reason, false)
        case .afterFlush, nil: return nil
        }
    }

    /// Queues `bytes` (and a newline when `newline`), unless that takes the output over `limit`:
    /// then everything queued is dropped and the connection closes now (`.overflowed`).
    func queue(_ bytes: UnsafeBufferPointer<UInt8>, newline: Bool, limit: Int) -> SendOutcome {
        guard closing == nil else { return .notConnected }
        let queued = output.count + bytes.count + (newline ? 1 : 0)
        guard queued <= limit else {
            startClosing(.now(.outputOverflow(limit: limit, queued: queued)))
            return .overflowed
        }
        output.append(bytes)
        if newline { output.append(CollectionOfOne(UInt8(ascii: "\n"))) }
        return .queued
    }

    /// Moves towards closed (closing `now` drops the unsent output); returns false when it was
    /// already closing `now`, which nothing undoes.
    @discardableResult
    func startClosing(_ next: Closing) -> Bool {
        if case .now = closing { return false }
        closing = next
        reading = false
        if case .now = next { output.removeAll() }
        return true
    }

    /// Poll says the socket takes output again (or failed, which a write finds out): writes what
    /// waits. Returns false when writing failed.
    func becameWritable() -> Bool {
        writeBlocked = false
        return output.isEmpty || flush()
    }

    /// Writes what the socket takes without blocking. Returns false when writing failed: the
    /// output is dropped and the connection closes now.
    func flush() -> Bool {
        do {
            writeBlocked = try !output.flush(to: fd)
            return true
        } catch {
            startClosing(.now(.writeFailed(error)))
            return false
        }
    }

    /// Reads one chunk into `buffer` and frames it.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        let count: Int
        do {
            count = try Syscall.read(fd, into: buffer)
        } catch where error.isWouldBlock {
            return .nothing
        } catch {
            return .failed(error)
        }
        guard count > 0 else { return .endOfInput(framer.finish()) }
        return .frames(framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
    }

    /// Frames bytes that arrived without a socket (``InMemoryLoop``), as `read` frames a chunk.
    func frames(of bytes: UnsafeRawBufferPointer) -> [LineFramer.Frame] {
        framer.append(bytes)
    }

    /// The peer closed its end without a socket (``InMemoryLoop``): its unterminated last line.
    func endOfInput() -> LineFramer.Frame? {
        framer.finish()
    }

    /// What is queued, taken as a peer that reads everything takes it (``InMemoryLoop``).
    func takeOutput() -> [UInt8] {
        output.takeAll()
    }

    /// The peer is gone (poll reported an error or a hang-up with nothing left to read): why.
    func goneReason() -> DisconnectReason {
        if let error = try? Syscall.socketOption(fd, level: SOL_SOCKET, name: SO_ERROR), error != 0 {
            return .readFailed(Errno(code: error, syscall: "poll"))
        }
        return closing?.reason ?? .peerClosed
    }

    /// What the handler is told of a frame: a line, or why there is none.
    func input(for frame: LineFramer.Frame) -> ClientInput {
        switch frame {
        case .tooLong:
            return .lineTooLong(limit: framer.limit)
        case .pieces(let pieces) where framer.framing == .newline && frame.lineLength >= largeLineLength:
            return .largeLine(LargeLine(pieces: pieces))
        case .pieces(let pieces):
            return input(forLine: LargeLine(pieces: pieces).joined())
        case .line(let bytes):
            return input(forLine: bytes)
        }
    }

    private func input(forLine bytes: [UInt8]) -> ClientInput {
        switch framer.framing {
        case .crlf:
            // SSIP clients send what their users typed: bytes that are not UTF-8 are replaced, not refused.
            return .line(String(decoding: bytes, as: UTF8.self))
        case .newline where bytes.count >= largeLineLength:
            return .largeLine(LargeLine(pieces: [bytes]))
        case .newline:
            guard let text = String(validating: bytes, as: UTF8.self) else { return .invalidUTF8(byteCount: bytes.count) }
            return .line(text)
        }
    }
}
