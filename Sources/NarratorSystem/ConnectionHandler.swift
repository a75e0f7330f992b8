import Glibc
import NarratorBase

/// What a client sent, one framed message at a time.
public enum ClientInput: Hashable, Sendable {
    /// One line, without its newline.
    case line(String)
    /// A line at least `PollLoopConfiguration.largeLineLength` long, without its newline, as bytes
    /// not yet checked to be UTF-8: checking (and whatever is done with it) is left to a thread
    /// other than the loop's.
    case largeLine(LargeLine)
    /// A line longer than the configured limit; its bytes were discarded up to the next newline
    /// and the connection keeps working.
    case lineTooLong(limit: Int)
    /// A line that is not valid UTF-8.
    case invalidUTF8(byteCount: Int)
}

/// Why a connection ended.
public enum DisconnectReason: Hashable, Sendable, CustomStringConvertible {
    /// The client closed its end (after its pending replies were written).
    case peerClosed
    /// The daemon called `close(_:)`.
    case closedByServer
    /// The client did not read fast enough: queuing more output would exceed the limit.
    case outputOverflow(limit: Int, queued: Int)
    case readFailed(Errno)
    case writeFailed(Errno)
    /// The loop shut down after flushing this client's output.
    case shutdown
    /// The loop shut down before this client took all its output.
    case shutdownFlushTimedOut(unsentBytes: Int)

    public var description: String {
        switch self {
        case .peerClosed: return "the client closed the connection"
        case .closedByServer: return "closed by the daemon"
        case .outputOverflow(let limit, let queued):
            return "the client stopped reading: \(queued) bytes of replies would exceed the \(limit)-byte output buffer"
        case .readFailed(let error): return "reading failed: \(error)"
        case .writeFailed(let error): return "writing failed: \(error)"
        case .shutdown: return "the daemon shut down"
        case .shutdownFlushTimedOut(let unsent):
            return "the daemon shut down before the client read its last \(unsent) bytes"
        }
    }
}

/// Signals delivered to the loop as ordinary callbacks (never as work inside a signal handler).
public enum LoopSignal: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case terminate
    case interrupt
    case hangup

    public var number: Int32 {
        switch self {
        case .terminate: return SIGTERM
        case .interrupt: return SIGINT
        case .hangup: return SIGHUP
        }
    }

    public var description: String {
        switch self {
        case .terminate: return "SIGTERM"
        case .interrupt: return "SIGINT"
        case .hangup: return "SIGHUP"
        }
    }
}

/// Things worth a line in the daemon's log, reported through `ConnectionHandler.log`.
public enum LoopLogEvent: Hashable, Sendable, CustomStringConvertible {
    /// A client was disconnected for a reason other than closing its end normally.
    case disconnected(ClientID, peer: PeerCredentials, reason: DisconnectReason)
    /// accept4 failed; on descriptor exhaustion accepting pauses briefly instead of spinning.
    case acceptFailed(Errno)
    /// SO_PEERCRED failed, so the connection was closed unidentified.
    case peerCredentialsUnavailable(Errno)
    /// Shutdown began: listeners closed, `clients` connections flushing.
    case shutdownStarted(clients: Int)

    public var description: String {
        switch self {
        case .disconnected(let client, let peer, let reason):
            return "\(client) (\(peer)) disconnected: \(reason)"
        case .acceptFailed(let error):
            return "accepting a connection failed: \(error)"
        case .peerCredentialsUnavailable(let error):
            return "could not identify a connecting client, closed it: \(error)"
        case .shutdownStarted(let clients):
            return "shutting down: stopped accepting, flushing \(clients) connection(s)"
        }
    }
}

/// The daemon's side of the event loop. Every method runs on the loop thread, one at a time, so
/// the handler can keep plain mutable state without locks; `loop` is valid only during the call,
/// and is all the handler sees of it (``ConnectionLoop``: the ``PollLoop``, or in a test the
/// ``InMemoryLoop``). `Message` is what other threads post to it (`LoopInbox.post`); `Never` when
/// nothing is posted.
public protocol ConnectionHandler<Message>: AnyObject {
    associatedtype Message: Sendable
    /// A client connected. A handler that will not serve it (its credentials say who it is) sends
    /// it the reason and closes it: what is sent from here is written before the close.
    func accept(_ client: ClientID, peer: PeerCredentials, loop: any ConnectionLoop<Message>)
    /// A client sent a line (or an over-long or invalid one).
    func receive(_ input: ClientInput, from client: ClientID, loop: any ConnectionLoop<Message>)
    /// An accepted client's connection ended; `send` to it is ignored from now on.
    func disconnected(_ client: ClientID, reason: DisconnectReason, loop: any ConnectionLoop<Message>)
    /// One of the configured signals arrived. The default shuts down on SIGTERM and SIGINT.
    func signal(_ signal: LoopSignal, loop: any ConnectionLoop<Message>)
    /// A message another thread posted with `LoopInbox.post`.
    func handle(_ message: Message, loop: any ConnectionLoop<Message>)
    /// Something the daemon should log (overflow disconnects, accept failures).
    func log(_ event: LoopLogEvent)
    /// Everything that was ready when the loop last woke (lines, posted messages, timers) has
    /// been handled, and the loop is about to write replies and wait again: work a handler
    /// gathered over the batch can be done now, once. Under load a batch holds many inputs; when
    /// idle it holds one, so nothing waits for a batch to fill.
    func batchEnded(loop: any ConnectionLoop<Message>)
}

extension ConnectionHandler where Message == Never {
    public func handle(_ message: Never, loop: any ConnectionLoop<Never>) {}
}

extension ConnectionHandler {
    public func disconnected(_ client: ClientID, reason: DisconnectReason, loop: any ConnectionLoop<Message>) {}

    public func batchEnded(loop: any ConnectionLoop<Message>) {}

    public func signal(_ signal: LoopSignal, loop: any ConnectionLoop<Message>) {
        switch signal {
        case .terminate, .interrupt: loop.shutdown()
        case .hangup: break
        }
    }
}
