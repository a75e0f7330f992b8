/// An accessibility trait, as in UIKit's `UIAccessibilityTraits` (spelled as in tree documents),
/// with the roles and states desktop toolkits add (GTK and Qt through AT-SPI): check boxes,
/// radio buttons, menus, combo boxes, text fields, list items, progress bars, dialogs, alerts,
/// and whether something is expanded or collapsed.
public enum Trait: String, CaseIterable, Sendable {
    case button, link, header, image, staticText, selected, notEnabled, adjustable, toggle, tab, tabBar
    case searchField, keyboardKey, summaryElement, updatesFrequently, playsSound, startsMediaSession
    case allowsDirectInteraction, causesPageTurn
    /// Its value says whether it is checked: "1" (or true, on, yes, checked), "0", or "mixed".
    case checkBox, radioButton
    case comboBox, textField, menu, menuItem, listItem, progressBar, dialog, alert
    /// States of something that opens and closes (a combo box, a menu, a tree row).
    case expanded, collapsed
    /// A link whose page was visited: said "visited link", as Orca does.
    case visited

    /// The trait's bit in `Traits` (a switch: this runs for every trait of every node).
    package var bit: UInt32 {
        switch self {
        case .button: 1 << 0
        case .link: 1 << 1
        case .header: 1 << 2
        case .image: 1 << 3
        case .staticText: 1 << 4
        case .selected: 1 << 5
        case .notEnabled: 1 << 6
        case .adjustable: 1 << 7
        case .toggle: 1 << 8
        case .tab: 1 << 9
        case .tabBar: 1 << 10
        case .searchField: 1 << 11
        case .keyboardKey: 1 << 12
        case .summaryElement: 1 << 13
        case .updatesFrequently: 1 << 14
        case .playsSound: 1 << 15
        case .startsMediaSession: 1 << 16
        case .allowsDirectInteraction: 1 << 17
        case .causesPageTurn: 1 << 18
        case .checkBox: 1 << 19
        case .radioButton: 1 << 20
        case .comboBox: 1 << 21
        case .textField: 1 << 22
        case .menu: 1 << 23
        case .menuItem: 1 << 24
        case .listItem: 1 << 25
        case .progressBar: 1 << 26
        case .dialog: 1 << 27
        case .alert: 1 << 28
        case .expanded: 1 << 29
        case .collapsed: 1 << 30
        case .visited: 1 << 31
        }
    }
}

/// A set of traits, stored as a bit mask so that a million-element tree stays small.
public struct Traits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ trait: Trait) { rawValue = trait.bit }
    public init<S: Sequence>(_ traits: S) where S.Element == Trait {
        rawValue = traits.reduce(0) { $0 | $1.bit }
    }

    public func contains(_ trait: Trait) -> Bool { rawValue & trait.bit != 0 }
    public mutating func insert(_ trait: Trait) { self.formUnion(Traits(trait)) }
    public mutating func remove(_ trait: Trait) { self.subtract(Traits(trait)) }

    /// The traits in declaration order, for encoding and display.
    public var list: [Trait] { Trait.allCases.filter { contains($0) } }

    /// Traits that make an element something a user operates, so it needs a label.
    public static let needsLabel = Traits([
        .button, .link, .image, .toggle, .adjustable, .checkBox, .radioButton, .comboBox, .textField, .menuItem,
    ])
    /// Traits that make an element actionable (used by hit-target and hidden-subtree checks).
    public static let actionable = Traits([
        .button, .link, .toggle, .adjustable, .tab, .searchField, .keyboardKey, .checkBox, .radioButton, .comboBox,
        .textField, .menuItem,
    ])
    /// Traits whose value says whether the element is checked.
    public static let checkable = Traits([.checkBox, .radioButton])
}
