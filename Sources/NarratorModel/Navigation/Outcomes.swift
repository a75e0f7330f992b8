/// Where the focus cursor is: an element of a registered tree.
public struct Focus: Equatable, Hashable, Sendable {
    public var tree: String
    public var element: String
    public init(tree: String, element: String) {
        self.tree = tree
        self.element = element
    }
}

/// The result of a command that moves (or tries to move) focus.
public struct FocusOutcome: Equatable, Sendable {
    public var focus: Focus
    /// The focused element's utterance.
    public var utterance: Utterance
    /// The tree's title, spoken first when focus entered this tree from another one.
    public var title: String?
    /// The move hit the first or last stop; focus stayed and nothing new is spoken.
    public var boundary: Bool

    /// The full text to speak: the title (when entering the tree) joined with the utterance's
    /// parts, so that a part repeating the title is said once.
    public private(set) var spokenText: String

    init(focus: Focus, utterance: Utterance, title: String?, spokenText: String? = nil, boundary: Bool) {
        self.focus = focus
        self.utterance = utterance
        self.title = title
        self.spokenText = spokenText ?? utterance.text
        self.boundary = boundary
    }
    /// A rotor went round past its last (or first) target: `phrase` ("wrapped to top") is said
    /// before the target.
    mutating func wrap(saying phrase: String) {
        spokenText = phrase + ", " + spokenText
    }
    /// Where the target is, said after it ("row 2, column 2").
    mutating func add(saying phrase: String) {
        spokenText += ", " + phrase
    }
    /// A move that stayed says why instead of the element ("End of row").
    mutating func say(instead phrase: String) {
        spokenText = phrase
    }
    /// A move whose asker says what it read there (browse mode's line or character): those
    /// words, and not the element's, are said and are the utterance.
    public mutating func say(instead phrase: String, hint: String?) {
        spokenText = phrase
        utterance = Utterance(text: phrase, hint: hint)
    }
}

/// A request for the app that owns a tree: it performs the action and answers with an update.
public struct OwnerAction: Equatable, Sendable {
    public var tree: String
    /// The element that handles the action (for magic tap and escape, the nearest ancestor that does).
    public var element: String
    /// `activate`, `increment`, `decrement`, `magicTap`, `escape`, or a custom action's name.
    public var action: String
    /// For `activate`: the element's activation point in screen coordinates, where an app
    /// that handles activation as a tap should tap.
    public var point: Point?

    public init(tree: String, element: String, action: String, point: Point? = nil) {
        self.tree = tree
        self.element = element
        self.action = action
        self.point = point
    }
}

/// The result of an increment or decrement.
public enum AdjustOutcome: Equatable, Sendable {
    /// A declarative value changed (or stayed at its bound); `spoken` is the new value alone.
    case changed(focus: Focus, value: Double, spoken: String, atBound: Bool)
    /// The app adjusts the element itself: send it this action.
    case delegated(OwnerAction)
}

/// A rotor the user can turn to, with its items.
public struct RotorSummary: Equatable, Sendable {
    /// `structure`: the elements of one kind a page is read by (buttons, check boxes, headings
    /// of one level), as a screen reader's single-letter keys jump between them.
    public enum Kind: String, Sendable { case headings, links, controls, structure, actions, custom }
    public var name: String
    public var kind: Kind
    /// Element ids for navigation rotors; action names for the actions rotor.
    public var items: [String]

    public init(name: String, kind: Kind, items: [String]) {
        self.name = name
        self.kind = kind
        self.items = items
    }
}

/// What a rotor turn did.
public enum RotorOutcome: Equatable, Sendable {
    /// Focus moved to the next or previous target (or stayed at a boundary).
    case moved(FocusOutcome)
    /// The actions rotor selected an action; activating now performs it.
    case selectedAction(name: String, focus: Focus)
}

/// One focus stop, as `show` prints it.
public struct StopSummary: Equatable, Sendable {
    public var id: String
    public var utterance: Utterance
    /// Screen coordinates, when the element has a frame.
    public var frame: Rect?

    public init(id: String, utterance: Utterance, frame: Rect?) {
        self.id = id
        self.utterance = utterance
        self.frame = frame
    }
}
