import NarratorBase
import NarratorModel
import NarratorProtocol

/// Focus moves and what they say.
extension Session {
    /// Speaks a focus move (unless it hit a boundary) and its hint, and builds the reply.
    mutating func speakFocus(_ outcome: FocusOutcome) -> FocusReport {
        if !outcome.boundary {
            // Before the focus speech: announcements waiting for a tree the focus left may go.
            follow(plan.focusMoved(toTree: outcome.focus.tree, at: batch.now))
            say(outcome.spokenText, .focus, tree: outcome.focus.tree, element: outcome.focus.element)
            if let hint = outcome.utterance.hint { say(hint, .hint, tree: outcome.focus.tree, element: outcome.focus.element) }
        }
        return FocusReport(
            utterance: outcome.boundary ? outcome.utterance.text : outcome.spokenText, hint: outcome.utterance.hint, focus: outcome.focus,
            boundary: outcome.boundary)
    }

    /// A cell move is said as a focus move; at the table's edge, where focus stays, the edge is
    /// said ("End of row"), so that the key is not met by silence.
    mutating func moveInTable(_ direction: Workspace.CellDirection, _ outcome: FocusOutcome) -> FocusReport {
        guard outcome.boundary else { return speakFocus(outcome) }
        say(outcome.spokenText, .focus, tree: outcome.focus.tree, element: outcome.focus.element)
        return FocusReport(utterance: outcome.spokenText, hint: nil, focus: outcome.focus, boundary: true)
    }

    /// A user's move (another client's request) took the focus to an element of an owned tree:
    /// its owner, when it asked (`focus_events` on `register`), hears where, so that an app mirroring another (the AT-SPI bridge) can move the
    /// application's own focus there. The owner's own focus requests are not echoed back.
    mutating func tellOwner(_ report: FocusReport, movedBy client: ClientID) -> FocusReport {
        guard !report.boundary, let owner = clients.focusListener(of: report.focus.tree, movedBy: client) else { return report }
        send(owner, .focus(report.focus))
        return report
    }

    /// Turns a rotor: a focus move, or (the actions rotor) picking the action `activate` performs.
    mutating func turnRotor(_ name: String, _ direction: Workspace.Move, within: String? = nil) throws(ReplyError) -> ReplyBody {
        switch try moving({ (w) throws(NarratorError) in try w.rotor(name, direction, within: within) }) {
        case .moved(let outcome):
            return .focus(speakFocus(outcome))
        case .selectedAction(let action, let focus):
            say(action, .value, tree: focus.tree, element: focus.element)
            return .selectedAction(action: action, focus: focus)
        }
    }
}
