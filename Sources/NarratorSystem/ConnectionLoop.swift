import NarratorBase

/// What a ``ConnectionHandler`` may do with the loop that calls it, and all it may: queue
/// output, close, read a client's framing and peer, set timers, stop. ``PollLoop`` is the one
/// with sockets; ``InMemoryLoop`` is the same without them, so that a handler can be tested by
/// feeding bytes in and reading the bytes it wrote, on a virtual clock.
public protocol ConnectionLoop<Message>: AnyObject {
    associatedtype Message: Sendable
    /// What other threads post to (`post`, `execute`): hand it to them.
    var inbox: LoopInbox<Message> { get }
    /// Queues `line` plus a newline for `client`. Never blocks: if the client's pending output
    /// would exceed the configured limit, the client is disconnected (`.outputOverflow`) instead.
    @discardableResult func send(_ line: String, to client: ClientID) -> SendOutcome
    /// Queues `text` for `client` as it is, with no newline added (SSIP's replies end their own
    /// lines in CRLF). Never blocks; overflow disconnects, as with `send`.
    @discardableResult func write(_ text: String, to client: ClientID) -> SendOutcome
    /// Closes `client` once its pending output has been written; its input is no longer read.
    func close(_ client: ClientID)
    /// How `client`'s lines are framed: which protocol it speaks (nil when it is not connected).
    func framing(of client: ClientID) -> Framing?
    /// The credentials a connected client presented when it connected.
    func peer(of client: ClientID) -> PeerCredentials?
    /// Bytes queued for `client` and not yet taken by its peer.
    func pendingOutput(of client: ClientID) -> Int
    /// The clients that are still connected and not closing.
    var connectedClients: [ClientID] { get }
    /// Runs `body` on the loop thread after `delay`.
    @discardableResult func schedule(after delay: Duration, _ body: @escaping (any ConnectionLoop<Message>) -> Void) -> TimerID
    /// Delivers `message` to the handler's `handle(_:loop:)` after `delay`, on the loop thread.
    @discardableResult func schedule(after delay: Duration, deliver message: Message) -> TimerID
    /// Cancels a timer that has not fired yet; cancelling a fired or unknown timer does nothing.
    func cancel(_ timer: TimerID)
    /// Serves `new` in place of the listener `old` (closed now), with `old`'s framing.
    func replaceListener(_ old: Int32, with new: Int32) throws(Errno)
    /// Takes nothing new (no connection, no client's input) while every reply still goes out.
    func stopReading()
    /// Graceful shutdown: stop accepting and reading, write what is queued (waiting at most
    /// `flushTimeout`, nil: the configured time), close every connection, and end.
    func shutdown(flushTimeout: Duration?)
}

extension ConnectionLoop {
    /// Graceful shutdown, waiting the configured time for output to be written.
    public func shutdown() {
        shutdown(flushTimeout: nil)
    }
}
