/// How a node exposes its children, as SwiftUI's `accessibilityElement(children:)`.
public enum ChildBehavior: String, CaseIterable, Sendable {
    /// One element whose label and value are merged from its children.
    case combine
    /// One element; the children are hidden from assistive technologies.
    case ignore
    /// Not an element itself: a container whose children are separate elements.
    case contain
}
