import NarratorModel
import NarratorProtocol

/// An update the session hands out to be applied to a copy of its large tree off the loop
/// (``SessionEffect/prepareUpdate(_:_:)``): the shell runs ``PreparedUpdate`` on it and feeds the
/// result back as ``SessionInput/prepared(_:_:)``.
public struct UpdateToPrepare: Sendable, Equatable {
    public let request: Request
    /// The tree as the workspace holds it now (shared, not copied: the update copies what it writes).
    public let tree: AccessibilityTree
    /// The tree's revision: the session swaps the copy in only if the tree is still at it.
    public let revision: UInt64

    public init(request: Request, tree: AccessibilityTree, revision: UInt64) {
        self.request = request
        self.tree = tree
        self.revision = revision
    }

    /// Equal when they ask for the same update of the same revision: the tree is the one at that revision.
    public static func == (a: UpdateToPrepare, b: UpdateToPrepare) -> Bool {
        a.request == b.request && a.revision == b.revision
    }
}
