import NarratorBase
import NarratorEngines
import NarratorSpeechPlan

/// Speech Dispatcher's protocol (SSIP) as a machine of its own: its connections, their settings,
/// SPEAKs still arriving, pauses and held messages, message numbering, the gate that deduplicates
/// and throttles, and the events held back from a client that was just given a number.
///
/// It shares the session's speech plan (one voice, one queue, one log; docs/ssip.md), but only
/// reads and updates its own messages in it: anything that makes a plan step (speaking, cancelling,
/// stopping, pausing) it asks for as an ``Effect``, since a step has effects for every front end,
/// and the session, carrying the step out, hands back what it means to SSIP (``notice(_:_:at:)``).
/// It knows no JSON-protocol type, so it can live in a module of its own.
public struct SSIPServer: Sendable {
    /// What the server is told once, at start-up.
    public struct Configuration: Sendable {
        /// The daemon's user: only it (and root) may connect.
        public var uid: UInt32
        /// The longest message a SPEAK may send (`--max-message`).
        public var messageBytes: Int
        /// The announcement policy: the gate judges SSIP messages by it (none: it judges nothing).
        public var policy: AnnouncementPolicy
        /// Every engine, for `OUTPUT_MODULE` and the voice lists.
        public var engines: SpeechEngines
        /// eSpeak NG's voices with their variants.
        public var catalog: VoiceCatalog
        /// Unix seconds minus monotonic seconds, for log rows.
        public var wallClockOffset: Double

        public init(
            uid: UInt32, messageBytes: Int, policy: AnnouncementPolicy, engines: SpeechEngines, catalog: VoiceCatalog, wallClockOffset: Double
        ) {
            self.uid = uid
            self.messageBytes = messageBytes
            self.policy = policy
            self.engines = engines
            self.catalog = catalog
            self.wallClockOffset = wallClockOffset
        }
    }

    /// What the server asks for, in order: output to its connections and the log, and the plan
    /// steps only the session can carry out.
    public enum Effect: Sendable, Equatable {
        case send(ClientID, SSIPOutput)
        /// Close the connection once what was sent to it has been written.
        case close(ClientID)
        /// Start an engine process now: `SET OUTPUT_MODULE` chose it.
        case warmUp(engine: EngineName)
        case journal(LogLevel, String)
        case log(LogRow)
        /// A log row for a command that silenced speech (`CANCEL`, `STOP`), written as the
        /// session writes its own commands'.
        case command(String, ClientID)
        /// Hand a message to the plan as speech of this priority.
        case speak(SSIPMessage, MessagePriority, KeyEcho)
        /// End every SSIP message in the plan (`CANCEL ALL`, also of clients that already left).
        case cancelAll
        /// End this client's messages in the plan, then ``cancelHeld(of:at:)``.
        case cancel(ClientID)
        /// Stop what plays of every SSIP message, or of one client's.
        case stopAll
        case stop(ClientID)
        /// Withdraw this client's messages from the plan as paused (they were marked
        /// ``SSIPMessage/pausing``): ``notice(_:_:at:)`` holds them.
        case pause(ClientID)
    }

    public let configuration: Configuration
    var clients: [ClientID: SSIPClient] = [:]
    var nextMessage: UInt64 = 1
    var gate = SSIPGate()
    /// The one record of until when each connection's events wait (``SSIPEventHold``): from the
    /// `225` it was given to its next line, or the end of the grace.
    var eventHolds: [ClientID: SSIPEventHold] = [:]

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether `client` is an SSIP connection.
    public func serves(_ client: ClientID) -> Bool { clients[client] != nil }

    /// How many SSIP connections there are.
    public var count: Int { clients.count }

    /// Who a connection is, for the log: its process and the name it gave (`SET CLIENT_NAME`).
    public func identity(of client: ClientID) -> (credentials: Credentials, name: String)? {
        clients[client].map { ($0.credentials, $0.settings.clientName) }
    }

    /// When the first held event is due to go out even if its client sends nothing. Only holds
    /// with events count: an empty one needs no timer, since an event after its end goes at once.
    public var nextDeadline: MonotonicInstant? {
        eventHolds.values.lazy.filter { !$0.events.isEmpty }.map(\.until).min()
    }

    // MARK: Connections

    public mutating func connect(_ client: ClientID, _ credentials: Credentials) -> [Effect] {
        let uid = configuration.uid
        guard credentials.isServed(byDaemonOf: uid) else {
            return [
                .journal(.warning, "refused SSIP \(client): uid \(credentials.uid) (pid \(credentials.pid)) is not the daemon's user (uid \(uid))"),
                .send(client, .reply(SSIPReply(530, "ERR PERMISSION DENIED: narratord serves only its own user (uid \(uid)) and root"))),
                .close(client),
            ]
        }
        clients[client] = SSIPClient(credentials: credentials)
        return [.journal(.debug, "\(client) connected over SSIP (pid \(credentials.pid))")]
    }

    /// The connection is gone: a SPEAK it had not finished is dropped (nothing of it is spoken);
    /// what it queued before still plays, as Speech Dispatcher does (spd-say leaves at once);
    /// what it held paused is cancelled, since no one is left to resume it.
    public mutating func disconnect(_ client: ClientID, at now: MonotonicInstant) -> [Effect] {
        guard let state = clients.removeValue(forKey: client) else { return [] }
        gate.disconnected(client)
        eventHolds[client] = nil
        return state.held.map { .log(row(for: $0, outcome: .cancelled, startedAt: nil, interruptedBy: .disconnect, at: now)) }
            + [.journal(.debug, "\(client) disconnected")]
    }
}
