import NarratorModel

/// Something a toolkit reported that no tree document may hold, and what the mapping made of it
/// instead. Real applications report such values all the time (Mousepad's hidden notebook tab is
/// -1 x -1, a web page's text runs past any limit, GTK 4 lists an action twice): the window is
/// mirrored all the same, and `narrator-atspi dump` names each oddity so that it can be reported
/// to the toolkit.
public struct ATSPIOddity: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// Extents with a negative width or height, or a coordinate that is not a number: no frame.
        case extents(Rect)
        /// A text longer than the document's limit for it: cut at `limit` characters.
        case longText(field: String, characters: Int, limit: Int)
        /// A control character in the window's name, which names the tree: replaced by a space.
        case controlCharacterInName
        /// The same object reached twice in one window (two parents list it): read once.
        case repeatedObject
        /// An action with an empty name, or one listed twice: left out.
        case badAction(String)
        /// A value outside its bounds, or bounds the wrong way round: the value is kept within them.
        case valueOutOfBounds(ATSPIValue)
        /// A position in a set that is not within it ("0 of 3", "5 of 4"): left out.
        case position(SetPosition)
        /// A selection outside the text: left out.
        case selection(TextRange)
    }

    /// The element's id in its tree (its object path without AT-SPI's prefix).
    public var element: String
    public var role: ATSPIRole
    public var kind: Kind

    public init(element: String, role: ATSPIRole, kind: Kind) {
        self.element = element
        self.role = role
        self.kind = kind
    }

    public var description: String {
        let what: String
        switch kind {
        case .extents(let r):
            what = "extents [\(Self.number(r.x)), \(Self.number(r.y)), \(Self.number(r.width)), \(Self.number(r.height))] are no rectangle; it has no frame"
        case .longText(let field, let characters, let limit):
            what = "its \(field) has \(characters) characters; the first \(limit) are kept"
        case .controlCharacterInName:
            what = "its name holds a control character; a space stands for it in the tree's name"
        case .repeatedObject:
            what = "it is listed under two parents; it is read once, where it came first"
        case .badAction(let name):
            what = name.isEmpty ? "an action has no name; it is left out" : "the action \"\(name)\" is listed twice; it is offered once"
        case .valueOutOfBounds(let v):
            what = "its value \(Self.number(v.current)) is not within \(Self.number(v.minimum))...\(Self.number(v.maximum)); it is kept within them"
        case .position(let p):
            what = "its place \(p.index) of \(p.count) is not in the set; it is left out"
        case .selection(let r):
            what = "its selection [\(r.location), \(r.length)] is outside its text; it is left out"
        }
        return "element \(element) (\(role)): \(what)"
    }

    static func number(_ n: Double) -> String {
        n.isFinite && n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }
}
