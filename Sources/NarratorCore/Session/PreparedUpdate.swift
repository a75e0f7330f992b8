import NarratorModel
import NarratorProtocol

/// An update applied to a copy of its tree off the loop: on a large tree, an update that changes
/// the reading order (a `sortPriority`, a subtree replaced or removed, an element hidden) rebuilds
/// the tree's index, about 16 ms for 100,000 elements, which every other client would otherwise
/// wait through. The session swaps the copy in if the tree is still at the revision it was made
/// from, and applies the update itself otherwise, so the reply is the same either way.
public struct PreparedUpdate: Sendable {
    /// The tree with the update applied, and the revision of the tree it was applied to.
    public typealias Result = Workspace.PreparedTree

    /// The `update` request, answered as if it had come whole.
    public let request: Request
    /// Nil when applying it failed: the session applies it again, and replies with the error.
    public let result: Result?

    /// Trees with fewer elements than this are updated on the loop: their index is rebuilt in
    /// well under a millisecond, less than handing the update over and back costs.
    public static let threshold = 20_000

    /// Applies `request`'s update to `tree` (at `revision`). Pure: run it on any thread.
    /// The tree is taken: its storage is copied as the update writes to it, and the caller's
    /// reference, shared with the workspace, should not outlive the copy.
    public init(request: Request, tree: consuming AccessibilityTree, revision: UInt64, decoder: TreeDocumentDecoder) {
        self.request = request
        guard case .update(_, let update, _, _) = request.command else {
            result = nil
            return
        }
        var changed = consume tree
        do {
            try changed.apply(update, decoder: decoder, path: [.key(update.payloadKey)])
            result = Result(tree: changed, revision: revision)
        } catch {
            result = nil
        }
    }
}

extension Workspace {
    /// The tree `request` would change and its revision, when the request is an update worth
    /// applying off the loop: one that rebuilds the reading order of a tree of at least
    /// `threshold` elements. Nil for anything else (which is handled at once).
    public func preparableUpdate(_ request: Request, from threshold: Int = PreparedUpdate.threshold) -> (tree: AccessibilityTree, revision: UInt64)? {
        guard case .update(let name, let update, _, _) = request.command, let tree = trees[name], let revision = revision(of: name),
            tree.nodeCount >= threshold, tree.rebuildsIndex(update, decoder: decoder)
        else { return nil }
        return (tree, revision)
    }
}
