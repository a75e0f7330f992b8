import NarratorModel
import NarratorProtocol

/// Actions on the focused element: the daemon's own (a declarative value) and those it hands to
/// the app that owns the tree.
extension Session {
    /// Sends an action to the tree's owner, or fails when the owner is gone.
    mutating func deliver(_ action: OwnerAction) throws(ReplyError) -> Delivery {
        guard let owner = clients.owner(of: action.tree)?.id else {
            throw ReplyError(
                .ownerGone,
                "the app that registered tree \"\(action.tree)\" has disconnected, so nothing can perform \(action.action) on \"\(action.element)\"; the app must register the tree again (from a shell, narratorctl register --follow FILE stays connected as its owner)")
        }
        send(owner, .action(action))
        return Delivery(action: action.action, element: action.element, focus: workspace.focus)
    }

    /// Increments or decrements the focused element: a declarative value here (speaking only the
    /// new value and telling the owner), anything else by its app.
    mutating func adjust(_ direction: AdjustableValue.Direction) throws(ReplyError) -> ReplyBody {
        switch try moving({ (w) throws(NarratorError) in try w.adjust(direction) }) {
        case .delegated(let action):
            return .delivered(try deliver(action))
        case .changed(let focus, let value, let spoken, let atBound):
            say(spoken, .value, tree: focus.tree, element: focus.element)
            if let owner = clients.owner(of: focus.tree)?.id {
                send(owner, .value(ValueChange(tree: focus.tree, element: focus.element, value: value, spoken: spoken)))
            }
            return .adjusted(AdjustReport(utterance: spoken, focus: focus, value: value, boundary: atBound))
        }
    }
}
