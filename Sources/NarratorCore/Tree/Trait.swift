/// An accessibility trait, as in UIKit's `UIAccessibilityTraits` (spelled as in tree documents).
public enum Trait: String, CaseIterable, Sendable {
    case button, link, header, image, staticText, selected, notEnabled, adjustable, toggle, tab, tabBar
    case searchField, keyboardKey, summaryElement, updatesFrequently, playsSound, startsMediaSession
    case allowsDirectInteraction, causesPageTurn

    var bit: UInt32 { 1 << UInt32(Trait.allCases.firstIndex(of: self)!) }
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
    public static let needsLabel = Traits([.button, .link, .image, .toggle, .adjustable])
    /// Traits that make an element actionable (used by hit-target and hidden-subtree checks).
    public static let actionable = Traits([.button, .link, .toggle, .adjustable, .tab, .searchField, .keyboardKey])
}
