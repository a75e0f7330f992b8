import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorSpeechPlan

/// One reply line: the request's `id` echoed, and what became of the request.
public struct Reply: Equatable, Sendable {
    /// The request's `id`, or nil when it had none (or could not be read).
    public var id: JSONValue?
    public var outcome: Result<ReplyBody, ReplyError>

    public init(id: JSONValue?, _ outcome: Result<ReplyBody, ReplyError>) {
        self.id = id
        self.outcome = outcome
    }
}

/// What a successful reply carries, one case per shape of reply (docs/protocol.md, "Commands").
public enum ReplyBody: Equatable, Sendable {
    case hello(protocol: Int, daemon: String, client: ClientID)
    case registered(RegisterReport)
    case updated(UpdateReport)
    case unregistered(tree: String)
    case trees([TreeSummary])
    case stops(tree: String, [StopSummary])
    case exported(tree: String, document: JSONValue)
    /// A focus move, or a navigation that hit a boundary.
    case focus(FocusReport)
    /// An action sent to the app that owns the tree.
    case delivered(Delivery)
    /// A declarative value changed by the daemon.
    case adjusted(AdjustReport)
    case actions([String])
    case rotors([RotorSummary])
    /// The actions rotor picked an action; `activate` now performs it.
    case selectedAction(action: String, focus: Focus)
    case announced(AnnounceReport)
    case spoke(text: String, utterance: UtteranceID)
    case stopped
    case status(StatusReport)
    case setting(key: String, value: String)
    case voices(VoiceListing)
    case subscribed
}

/// The reply to a focus move: what is spoken, and where focus is now.
public struct FocusReport: Equatable, Sendable {
    /// The text spoken (with the tree's title when focus entered the tree); at a boundary, the
    /// focused element's utterance, which is not spoken again.
    public var utterance: String
    public var hint: String?
    public var focus: Focus
    /// The move hit the first or last stop: focus stayed and nothing was spoken.
    public var boundary: Bool

    public init(utterance: String, hint: String?, focus: Focus, boundary: Bool) {
        self.utterance = utterance
        self.hint = hint
        self.focus = focus
        self.boundary = boundary
    }
}

/// An action handed to the app that registered the tree.
public struct Delivery: Equatable, Sendable {
    public var action: String
    /// The element that handles it (for magic tap and escape, the nearest ancestor that does).
    public var element: String
    public var focus: Focus?

    public init(action: String, element: String, focus: Focus?) {
        self.action = action
        self.element = element
        self.focus = focus
    }
}

/// A declarative adjustable value after `adjust`: only the new value is spoken.
public struct AdjustReport: Equatable, Sendable {
    public var utterance: String
    public var focus: Focus
    public var value: Double
    /// The value was already at its bound and did not change.
    public var boundary: Bool

    public init(utterance: String, focus: Focus, value: Double, boundary: Bool) {
        self.utterance = utterance
        self.focus = focus
        self.value = value
        self.boundary = boundary
    }
}

public struct RegisterReport: Equatable, Sendable {
    public var tree: String
    public var stops: Int
    public var nodes: Int
    /// A tree of the same name was registered before and is replaced.
    public var replaced: Bool

    public init(tree: String, stops: Int, nodes: Int, replaced: Bool) {
        self.tree = tree
        self.stops = stops
        self.nodes = nodes
        self.replaced = replaced
    }
}

/// The reply to `update`: the focus move it caused (a notification, or focus repaired after its
/// element went away), or the value spoken for `"announce": true`.
public struct UpdateReport: Equatable, Sendable {
    public var tree: String
    public var element: String
    public var focus: FocusReport?
    public var spokenValue: String?

    public init(tree: String, element: String, focus: FocusReport? = nil, spokenValue: String? = nil) {
        self.tree = tree
        self.element = element
        self.focus = focus
        self.spokenValue = spokenValue
    }
}

/// One line of `trees`.
public struct TreeSummary: Equatable, Sendable {
    public struct Owner: Equatable, Sendable {
        public var pid: Int
        /// The name the owner gave with `hello`.
        public var name: String?

        public init(pid: Int, name: String?) {
            self.pid = pid
            self.name = name
        }
    }

    public var tree: String
    public var title: String?
    public var language: String?
    public var nodes: Int
    public var stops: Int
    /// The connection that registered it, while it is connected.
    public var owner: Owner?
    public var ephemeral: Bool
    public var focused: Bool

    public init(
        tree: String, title: String?, language: String?, nodes: Int, stops: Int, owner: Owner?, ephemeral: Bool, focused: Bool
    ) {
        self.tree = tree
        self.title = title
        self.language = language
        self.nodes = nodes
        self.stops = stops
        self.owner = owner
        self.ephemeral = ephemeral
        self.focused = focused
    }
}

/// What the announcement queue decided about a new announcement (docs/announcements.md).
public struct AnnounceReport: Equatable, Sendable {
    public var announcement: AnnouncementID
    /// The first decision: `queued`, `speaking`, `deferred`, or a final outcome.
    public var decision: String
    public var priority: AnnouncementPriority
    public var key: String
    public var policy: String
    /// For `deduplicated`: the announcement it repeats.
    public var duplicateOf: AnnouncementID?
    /// Whether its row was committed to the log (the reply waits for the commit).
    public var logged: Bool
    public var logProblem: LogProblem?

    public init(
        announcement: AnnouncementID, decision: String, priority: AnnouncementPriority, key: String, policy: String,
        duplicateOf: AnnouncementID?, logged: Bool, logProblem: LogProblem?
    ) {
        self.announcement = announcement
        self.decision = decision
        self.priority = priority
        self.key = key
        self.policy = policy
        self.duplicateOf = duplicateOf
        self.logged = logged
        self.logProblem = logProblem
    }
}

/// Everything `status` reports.
public struct StatusReport: Equatable, Sendable {
    public struct Announcements: Equatable, Sendable {
        public var policy: String
        public var waiting: Int
        /// Trees with a policy of their own, and its name, sorted by tree.
        public var treePolicies: [(tree: String, policy: String)]
        public var deferred: Int

        public init(policy: String, waiting: Int, treePolicies: [(tree: String, policy: String)], deferred: Int) {
            self.policy = policy
            self.waiting = waiting
            self.treePolicies = treePolicies
            self.deferred = deferred
        }

        public static func == (a: Announcements, b: Announcements) -> Bool {
            a.policy == b.policy && a.waiting == b.waiting && a.deferred == b.deferred
                && a.treePolicies.map(\.tree) == b.treePolicies.map(\.tree) && a.treePolicies.map(\.policy) == b.treePolicies.map(\.policy)
        }
    }

    /// A connection that owns trees (an application, the AT-SPI bridge) and its trees: for the
    /// bridge, one per mirrored window, named after its application.
    public struct Owner: Equatable, Sendable {
        public var name: String?
        public var pid: Int
        public var trees: [String]

        public init(name: String?, pid: Int, trees: [String]) {
            self.name = name
            self.pid = pid
            self.trees = trees
        }
    }

    public var version: String
    public var pid: Int
    /// Seconds since the daemon started, to the millisecond.
    public var uptime: Double
    /// The socket it listens on; nil when systemd passed it.
    public var socket: String?
    public var clients: Int
    public var trees: Int
    public var focus: Focus?
    public var audio: OutputStatus
    /// The voice used when the tree gives no language.
    public var voice: String
    public var speaking: Bool
    /// Utterances waiting to be spoken.
    public var queue: Int
    public var announcements: Announcements
    public var log: LogHealth
    /// The connections that own trees, by pid.
    public var owners: [Owner]
    /// Every engine and how it is doing, eSpeak NG first.
    public var engines: [EngineStatus] = []

    public init(
        version: String, pid: Int, uptime: Double, socket: String?, clients: Int, trees: Int, focus: Focus?, audio: OutputStatus,
        voice: String, speaking: Bool, queue: Int, announcements: Announcements, log: LogHealth, owners: [Owner] = []
    ) {
        self.owners = owners
        self.version = version
        self.pid = pid
        self.uptime = uptime
        self.socket = socket
        self.clients = clients
        self.trees = trees
        self.focus = focus
        self.audio = audio
        self.voice = voice
        self.speaking = speaking
        self.queue = queue
        self.announcements = announcements
        self.log = log
    }
}
