/// One node of an accessibility tree, as written in a tree document.
///
/// A node is a view: it may be an accessibility element (a focus stop) or a container of
/// elements, depending on its children, `childBehavior` and `isElement`.
public struct Node: Equatable, Sendable {
    /// Unique in its tree; doubles as the accessibility identifier apps and tests query by.
    public var id: String
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: Traits
    public var childBehavior: ChildBehavior?
    /// UIKit's `isAccessibilityElement`; `nil` means "decide from the other properties".
    public var isElement: Bool?
    /// Hides the whole subtree from assistive technologies.
    public var hidden: Bool
    /// While present, navigation stays inside this node.
    public var modal: Bool
    /// Higher is read first among siblings.
    public var sortPriority: Double
    /// In the parent's coordinate space (the root's in screen space).
    public var frame: Rect?
    // After the frame, these two fill bytes its padding leaves free.
    public var magicTap: Bool
    public var escape: Bool
    /// The rarely set properties below, out of line (nil when none is set): this keeps a node
    /// at 136 bytes instead of 360, and a large tree at about half its memory.
    private var rare: RareNodePropertiesBox?
    public var children: [Node]

    private var rareProperties: RareNodeProperties {
        get { rare?.properties ?? .empty }
        set { rare = .boxing(newValue) }
    }

    /// In the node's own coordinate space; the default is the centre of its frame.
    public var activationPoint: Point? {
        get { rare?.properties.activationPoint }
        set { rareProperties.activationPoint = newValue }
    }
    /// Names of custom actions, in order.
    public var actions: [String] {
        get { rare?.properties.actions ?? [] }
        set { rareProperties.actions = newValue }
    }
    public var adjustable: AdjustableValue? {
        get { rare?.properties.adjustable }
        set { rareProperties.adjustable = newValue }
    }
    public var representation: Representation? {
        get { rare?.properties.representation }
        set { rareProperties.representation = newValue }
    }
    public var rotors: [CustomRotor] {
        get { rare?.properties.rotors ?? [] }
        set { rareProperties.rotors = newValue }
    }
    /// The selected part of the value (a field whose text is selected as it takes the focus,
    /// which typing replaces): said with the value, as "selected".
    public var selectedTextRange: TextRange? {
        get { rare?.properties.selectedTextRange }
        set { rareProperties.selectedTextRange = newValue }
    }
    /// Its place among its like ("2 of 10000"), where the tree does not hold them all to count.
    public var positionInSet: SetPosition? {
        get { rare?.properties.positionInSet }
        set { rareProperties.positionInSet = newValue }
    }
    /// A header's level, 1 for the page's title down to 6 ("heading level 2"), as a web page's
    /// headings have: the outline a user navigates by.
    public var headingLevel: Int? {
        get { rare?.properties.headingLevel }
        set { rareProperties.headingLevel = newValue }
    }
    /// A table's size: the node holds the rows and cells (a web page's `table`).
    public var table: TableSize? {
        get { rare?.properties.table }
        set { rareProperties.table = newValue }
    }
    /// A cell's place in the nearest ``table`` around it.
    public var tableCell: TableCell? {
        get { rare?.properties.tableCell }
        set { rareProperties.tableCell = newValue }
    }
    /// A cell that heads its column or row.
    public var cellHeader: CellHeader? {
        get { rare?.properties.cellHeader }
        set { rareProperties.cellHeader = newValue }
    }

    /// The landmark this node is (a page's `nav`, `main`...): the landmarks rotor's, and said as
    /// the cursor enters and leaves it.
    public var landmark: Landmark? {
        get { rare?.properties.landmark }
        set { rareProperties.landmark = newValue }
    }
    /// A list's number of items: the node holds them (a page's `ul`), the lists rotor's.
    public var listSize: Int? {
        get { rare?.properties.listSize }
        set { rareProperties.listSize = newValue }
    }
    /// A live region (`aria-live`): the live regions rotor's.
    public var live: LiveSetting? {
        get { rare?.properties.live }
        set { rareProperties.live = newValue }
    }
    /// A paragraph or a block quote: the paragraphs and block quotes rotors'.
    public var block: TextBlock? {
        get { rare?.properties.block }
        set { rareProperties.block = newValue }
    }
    /// Whether the node is one of a page's regions the structure rotors reach at their first stop.
    public var isPageRegion: Bool { landmark != nil || listSize != nil || live != nil || block != nil }

    public init(
        id: String, label: String? = nil, value: String? = nil, hint: String? = nil, traits: Traits = [],
        childBehavior: ChildBehavior? = nil, isElement: Bool? = nil, hidden: Bool = false,
        sortPriority: Double = 0, modal: Bool = false, frame: Rect? = nil, activationPoint: Point? = nil,
        actions: [String] = [], magicTap: Bool = false, escape: Bool = false,
        adjustable: AdjustableValue? = nil, representation: Representation? = nil,
        rotors: [CustomRotor] = [], children: [Node] = []
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.hint = hint
        self.traits = traits
        self.childBehavior = childBehavior
        self.isElement = isElement
        self.hidden = hidden
        self.sortPriority = sortPriority
        self.modal = modal
        self.frame = frame
        self.magicTap = magicTap
        self.escape = escape
        self.rare = .boxing(
            RareNodeProperties(
                activationPoint: activationPoint, actions: actions, adjustable: adjustable, representation: representation,
                rotors: rotors))
        self.children = children
    }

    /// A node with only an id, every other property at its default: what decoders fill in.
    /// Unlike the memberwise initialiser it builds no rare properties only to find them empty.
    init(bareID id: String) {
        self.id = id
        traits = []
        hidden = false
        modal = false
        sortPriority = 0
        magicTap = false
        escape = false
        children = []
    }

    /// The traits the element presents: its own, those implied by a declarative adjustable,
    /// or, for a representation, the control's plus the node's state traits.
    public var effectiveTraits: Traits {
        if let representation {
            return representation.control.traits.union(traits.intersection(Traits([.selected, .notEnabled])))
        }
        return adjustable == nil ? traits : traits.union(Traits(.adjustable))
    }

    /// The declarative adjustable value, from the node or its representation.
    public var declarativeAdjustable: AdjustableValue? {
        representation?.adjustable ?? adjustable
    }

    /// Whether the node is an accessibility element when it has (or lacks) live children.
    /// Whether a tree indexes this node as it would `other` in its place (with the same
    /// children): the same screen frame, hidden and modal scope, rotors, being a table, focus stop and reading
    /// order among its siblings. Changing one into the other needs no reindex (`AccessibilityTree.reindex`
    /// reads no other property).
    func indexesLike(_ other: Node, hasChildren: Bool) -> Bool {
        id == other.id && frame == other.frame && hidden == other.hidden && modal == other.modal && sortPriority == other.sortPriority
            && rotors.isEmpty == other.rotors.isEmpty && (table == nil) == (other.table == nil) && isPageRegion == other.isPageRegion
            && isAccessibilityElement(hasChildren: hasChildren) == other.isAccessibilityElement(hasChildren: hasChildren)
    }

    func isAccessibilityElement(hasChildren: Bool) -> Bool {
        if representation != nil { return true }
        if let isElement { return isElement }
        switch childBehavior {
        case .combine, .ignore: return true
        case .contain: return false
        case nil:
            return !hasChildren && (label != nil || value != nil || !traits.isEmpty || adjustable != nil)
        }
    }
}
