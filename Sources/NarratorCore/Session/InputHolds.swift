import NarratorBase
import NarratorProtocol

/// The one place that holds what waits behind what: what each JSON connection sent behind its own
/// input still outstanding (a `set` whose settings file is being written, a large line or a large
/// tree's reorder being prepared off the loop), by the one rule of ``InputOrder``. Keeping both
/// kinds here, not one in the session and one in the daemon's shell, means a line behind a `set`
/// and a large line is answered in the order it came with no hand-off between two queues.
struct InputHolds: Sendable {
    /// What a connection sent, as it waits its turn.
    enum Item: Sendable {
        /// A line decoded on the loop: when its turn comes, an update that rebuilds a large
        /// tree's reading order still goes off the loop (``SessionEffect/prepareUpdate(_:_:)``).
        case line(Result<Request, RequestFailure>)
        /// A line too large to decode on the loop: it goes to be prepared when its turn comes.
        case largeLine(LargeLine)
        /// A request prepared before it came (``SessionInput/prepared(_:_:)`` with nothing out).
        case prepared(PreparedRequest)
        case rejected(LineProblem)
        case disconnect
    }

    var order = InputOrder<Item>()
    /// The connections with a line or an update out being prepared: its result, coming back as
    /// ``SessionInput/prepared(_:_:)``, is what they wait for. At most one each, since what a
    /// connection sends after it waits.
    var preparing: Set<ClientID> = []
}
