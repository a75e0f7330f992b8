import NarratorSSIP
import NarratorSpeechPlan

/// One line of a replay trace: `{"at": 0.25, "kind": "announce", "text": "3 new messages", "tree": "chat"}`.
///
/// Hand-written traces hold announcements and focus moves; a trace exported from the live log
/// (`narratorctl log --trace`) also holds the rest of what shared the one voice (hints, values,
/// direct speech, Speech Dispatcher clients' messages and their cancels), how long each
/// utterance played, and the outcome the daemon logged, so a replay can be checked against it.
public struct TraceEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case announce(text: String, priority: AnnouncementPriority, key: String?)
        /// Focus moved to `element` of `tree`; `text` is what focus speech says.
        case focus(text: String)
        /// Other speech that is not an announcement: a hint, a value, or direct speech (`speak`).
        case speech(text: String, kind: SpeechKind)
        /// A Speech Dispatcher client's message, and the command that sent it.
        case ssip(text: String, priority: MessagePriority, command: SSIPSpeechCommand)
        /// An SSIP client's `CANCEL` (`all`: `CANCEL all`).
        case ssipCancel(all: Bool)
        /// An SSIP client's `STOP`.
        case ssipStop(all: Bool)
        /// `narratorctl stop`: cancels what waits and silences speech.
        case stop
        /// The daemon stopped: everything still open ended `cancelled`, and what follows is
        /// decided afresh, as by a daemon just started.
        case shutdown
    }

    /// Time from the start of the trace.
    public var at: Duration
    public var kind: Kind
    public var tree: String?
    public var element: String?
    /// Who asked: a JSON client's `hello` name, an SSIP client's `CLIENT_NAME` (its throttling and
    /// deduplication are per name).
    public var client: String?
    /// The connection it came on: an SSIP client's cancels and pile-ups are per connection.
    public var connection: Int?
    /// How long it played in the run the trace was recorded from (started to ended).
    public var duration: Duration?
    /// The outcome that run logged, when it was final.
    public var logged: AnnouncementOutcome?
    /// The policy that decided it in that run.
    public var policy: String?

    public init(
        at: Duration, kind: Kind, tree: String? = nil, element: String? = nil, client: String? = nil, connection: Int? = nil,
        duration: Duration? = nil, logged: AnnouncementOutcome? = nil, policy: String? = nil
    ) {
        self.at = at
        self.kind = kind
        self.tree = tree
        self.element = element
        self.client = client
        self.connection = connection
        self.duration = duration
        self.logged = logged
        self.policy = policy
    }

    /// What it says, for events that speak.
    public var text: String? {
        switch kind {
        case .announce(let text, _, _), .focus(let text), .speech(let text, _), .ssip(let text, _, _): text
        case .ssipCancel, .ssipStop, .stop, .shutdown: nil
        }
    }

    /// Whether it asks for speech that apps want heard (announcements, SSIP messages), as opposed
    /// to the user's own speech (focus, hints, values) or a command.
    public var isMessage: Bool {
        switch kind {
        case .announce, .ssip: true
        case .focus, .speech, .ssipCancel, .ssipStop, .stop, .shutdown: false
        }
    }
}
