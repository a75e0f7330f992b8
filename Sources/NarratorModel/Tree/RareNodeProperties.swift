/// The properties few nodes set: an activation point, custom actions, a declarative value, a
/// representation, rotors, a text selection, a place in a set, a table's
/// structure, a page's landmarks, lists, live regions and blocks of text. They take well over 200 bytes
/// inline; kept in a box that only the nodes setting one of them allocate, every other node of a
/// large tree pays 8 bytes for them.
struct RareNodeProperties: Equatable, Sendable {
    var activationPoint: Point?
    var actions: [String] = []
    var adjustable: AdjustableValue?
    var representation: Representation?
    var rotors: [CustomRotor] = []
    var selectedTextRange: TextRange?
    var positionInSet: SetPosition?
    var headingLevel: Int?
    var table: TableSize?
    var tableCell: TableCell?
    var cellHeader: CellHeader?
    var landmark: Landmark?
    var listSize: Int?
    var live: LiveSetting?
    var block: TextBlock?

    /// None of them set: the node stores no box.
    static let empty = RareNodeProperties()
}

/// `RareNodeProperties` behind one pointer: an `indirect` case keeps its payload in a heap box,
/// shared between copies of a node and replaced (never changed in place) when a property is set.
enum RareNodePropertiesBox: Equatable, Sendable {
    indirect case boxed(RareNodeProperties)

    var properties: RareNodeProperties {
        switch self {
        case .boxed(let properties): properties
        }
    }

    /// A box for `properties`, or nil when none is set, so that equal nodes compare equal.
    static func boxing(_ properties: RareNodeProperties) -> RareNodePropertiesBox? {
        properties == .empty ? nil : .boxed(properties)
    }
}
