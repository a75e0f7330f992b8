import NarratorModel
import NarratorSpeechPlan

/// One request line of the socket protocol: `{"id": 7, "cmd": "focus", "tree": "player", ...}`.
public struct Request: Equatable, Sendable {
    /// Echoed in the reply so clients can match them; any JSON number or string, or absent.
    public var id: JSONValue?
    public var command: RequestCommand

    public init(id: JSONValue? = nil, command: RequestCommand) {
        self.id = id
        self.command = command
    }
}

/// Every command of protocol version 1, with its typed arguments.
public enum RequestCommand: Equatable, Sendable {
    case hello(client: String?)
    /// The document stays text until the daemon decodes it, straight from its bytes.
    /// `focusEvents`: the owner hears where a user moves the focus in the tree (`focus` events),
    /// as an app mirroring another one does to move that one's focus along.
    case register(document: RawJSON, ephemeral: Bool, focusEvents: Bool = false)
    case update(tree: String, update: TreeUpdate, announce: Bool, notify: LayoutNotification?)
    case unregister(tree: String)
    case trees
    case show(tree: String)
    /// The registered tree as a document, as it is now (after updates).
    case export(tree: String)
    /// `saying`: the words said instead of the element's own (browse mode's line, character or
    /// word, the element being where it starts), so that the focus moves with what is read.
    case focus(tree: String, element: String?, saying: String? = nil)
    case move(Workspace.Move, tree: String?)
    case touch(x: Double, y: Double, tree: String?)
    case activate
    case adjust(AdjustableValue.Direction)
    case actions
    case action(name: String)
    case magicTap
    case escape
    case rotors
    /// `within`: only the targets inside that element (a page's document: browse mode's
    /// structural keys stay out of the browser's toolbar).
    case rotor(name: String, direction: Workspace.Move, within: String? = nil)
    /// The neighbouring cell in the table around the focus (Orca's Alt+Shift+arrows).
    case cell(Workspace.CellDirection)
    /// `language` (a BCP 47 tag) picks the voice; without it, the tree's language, else the focused tree's.
    case announce(text: String, priority: AnnouncementPriority, tree: String?, element: String?, key: String?, language: String? = nil)
    /// `language` picks the voice as for `announce`; without it, the focused tree's language.
    case speak(text: String, language: String? = nil)
    case stop
    case status
    case set(key: String, value: JSONValue)
    case get(key: String)
    /// The voices and variants a query keeps, a page of them.
    case voices(VoiceQuery)
    case subscribe

    /// The `cmd` spelling of each command, for help and "did you mean" (from ``CommandName``).
    public static var names: [String] { CommandName.allCases.map(\.rawValue) }

    /// The `cmd` this command is sent as.
    public var name: CommandName {
        switch self {
        case .hello: .hello
        case .register: .register
        case .update: .update
        case .unregister: .unregister
        case .trees: .trees
        case .show: .show
        case .export: .export
        case .focus: .focus
        case .move(let move, _):
            switch move {
            case .next: .next
            case .previous: .previous
            case .first: .first
            case .last: .last
            }
        case .touch: .touch
        case .activate: .activate
        case .adjust: .adjust
        case .actions: .actions
        case .action: .action
        case .magicTap: .magicTap
        case .escape: .escape
        case .rotors, .rotor: .rotor
        case .cell: .cell
        case .announce: .announce
        case .speak: .speak
        case .stop: .stop
        case .status: .status
        case .set: .set
        case .get: .get
        case .voices: .voices
        case .subscribe: .subscribe
        }
    }
}

/// UIKit's layout notifications, sent with an update: focus moves to `element` (or the first
/// stop) and is spoken.
public enum LayoutNotification: Equatable, Sendable {
    case screenChanged(element: String?)
    case layoutChanged(element: String?)
}
