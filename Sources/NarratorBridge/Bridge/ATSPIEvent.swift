/// One AT-SPI2 event as the bridge's core takes it: plain values the shell copies out of
/// libatspi's `AtspiEvent` (no call made to get them, so decoding an event never waits on the
/// application that sent it).
public struct ATSPIEvent: Equatable, Sendable, CustomStringConvertible {
    /// The event's type as AT-SPI2 names it: `object:state-changed:focused`, `window:activate`.
    public var type: String
    /// The D-Bus name of the application that sent it (":1.42").
    public var application: String
    /// The object it is about.
    public var path: String
    /// `detail1`: 1 when a state was set, 0 when cleared; an active descendant's index; where
    /// text changed or the caret moved, the offset.
    public var detail1: Int
    /// `detail2`: how many characters a text change inserted or deleted.
    public var detail2: Int
    /// The object the event carries, where it carries one (the row an active descendant change names).
    public var object: String?
    /// The text the event carries: what a text change inserted or deleted.
    public var text: String?

    public init(_ type: String, application: String, path: String, detail1: Int = 0, detail2: Int = 0, object: String? = nil, text: String? = nil) {
        self.type = type
        self.application = application
        self.path = path
        self.detail1 = detail1
        self.detail2 = detail2
        self.object = object
        self.text = text
    }

    public var description: String { "\(type)(\(detail1)) on \(application)\(path)" }

    /// What the bridge does with events of its type.
    enum Kind: Equatable {
        /// The application's focus moved here (`state-changed:focused` set) or left (cleared).
        case focus(gained: Bool)
        /// A list that manages its descendants made another of its rows active.
        case activeDescendant
        case windowActivated
        /// Text was put into the object at an offset (`object:text-changed:insert`, with the text).
        case textInserted
        /// Text was taken out of the object (`object:text-changed:delete`, with the text).
        case textDeleted
        /// The caret moved to the offset in `detail1`.
        case caretMoved
        /// The object's selection changed (its new extent has to be asked).
        case selectionChanged
        /// One object's own facts changed (a state, its name, value, description or text): that
        /// object alone is read again, at once.
        case objectChanged
        /// The tree's shape changed (children, a window created or destroyed, `showing`): the
        /// whole application is read again after the batch delay.
        case structure
    }

    var kind: Kind {
        switch type {
        case "object:state-changed:focused": return .focus(gained: detail1 == 1)
        case "object:active-descendant-changed": return .activeDescendant
        case "window:activate": return .windowActivated
        case "object:text-caret-moved": return .caretMoved
        case "object:text-selection-changed": return .selectionChanged
        // Firefox adds ":system" to a change that no user input made.
        case _ where type.hasPrefix("object:text-changed:insert"): return .textInserted
        case _ where type.hasPrefix("object:text-changed:delete"): return .textDeleted
        default:
            return Self.objectEvents.contains(where: { type.hasPrefix($0) }) ? .objectChanged : .structure
        }
    }

    /// Whether the event says that what is under its object changed (children added or removed,
    /// a document loaded), and nothing above it: reading that part again is enough.
    public var changesChildren: Bool {
        type.hasPrefix("object:children-changed") || type.hasPrefix("document:load-complete") || type.hasPrefix("document:reload")
    }

    /// Event types that change only their object's own facts.
    static let objectEvents = [
        "object:property-change:accessible-name", "object:property-change:accessible-value", "object:property-change:accessible-description",
        "object:state-changed:checked", "object:state-changed:selected", "object:state-changed:sensitive", "object:state-changed:expanded",
        "object:state-changed:indeterminate", "object:state-changed:visited", "object:text-changed",
    ]

    /// Every event type the bridge subscribes to.
    public static let subscribed = [
        "object:state-changed:focused", "object:children-changed", "object:property-change:accessible-name",
        "object:property-change:accessible-value", "object:property-change:accessible-description", "object:state-changed:checked",
        "object:state-changed:selected", "object:state-changed:sensitive", "object:state-changed:showing",
        "object:state-changed:expanded", "object:state-changed:indeterminate", "object:state-changed:visited", "object:state-changed:defunct", "object:text-changed",
        "object:text-selection-changed", "object:text-caret-moved", "object:active-descendant-changed", "window:create", "window:destroy",
        "window:activate", "document:load-complete", "document:reload",
    ]
}
