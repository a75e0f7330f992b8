import NarratorBase

/// Why a command on the trees or the focus could not be carried out.
///
/// Each case has a stable `code` (for scripts and the socket protocol) and a `message` a person
/// can act on, naming the tree and element and suggesting the nearest name when one is close.
public enum NarratorError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownTree(String, suggestion: String?)
    case unknownElement(tree: String, element: String, suggestion: String?)
    case hiddenElement(tree: String, element: String)
    case outsideModal(tree: String, element: String, modal: String)
    case notFocusable(tree: String, element: String)
    case emptyTree(String)
    case noFocus
    case notAdjustable(tree: String, element: String)
    case noActions(tree: String, element: String)
    case unknownAction(String, tree: String, element: String, available: [String])
    case noHandler(action: String, tree: String, element: String)
    case unknownRotor(String, available: [String])
    /// A cell move with the focus on no table's cell.
    case notInTable(tree: String, element: String)
    case noTarget(x: Double, y: Double, tree: String)
    case cannotRemoveRoot(tree: String)
    case invalidDocument(DocumentError)

    public var code: ErrorCode {
        switch self {
        case .unknownTree: .unknownTree
        case .unknownElement: .unknownElement
        case .hiddenElement: .hiddenElement
        case .outsideModal: .outsideModal
        case .notFocusable: .notFocusable
        case .emptyTree: .emptyTree
        case .noFocus: .noFocus
        case .notAdjustable: .notAdjustable
        case .noActions: .noActions
        case .unknownAction: .unknownAction
        case .noHandler: .noHandler
        case .unknownRotor: .unknownRotor
        case .notInTable: .notInTable
        case .noTarget: .noTarget
        case .cannotRemoveRoot: .cannotRemoveRoot
        case .invalidDocument: .invalidDocument
        }
    }

    public var message: String {
        func didYouMean(_ s: String?) -> String { s.map { "; did you mean \"\($0)\"?" } ?? "" }
        switch self {
        case .unknownTree(let name, let suggestion):
            return "no tree named \"\(name)\" is registered" + didYouMean(suggestion)
        case .unknownElement(let tree, let element, let suggestion):
            return "tree \"\(tree)\" has no element \"\(element)\"" + didYouMean(suggestion)
        case .hiddenElement(let tree, let element):
            return "element \"\(element)\" in tree \"\(tree)\" is hidden (it or an ancestor has \"hidden\": true)"
        case .outsideModal(let tree, let element, let modal):
            return "element \"\(element)\" in tree \"\(tree)\" is outside the modal \"\(modal)\", which confines navigation"
        case .notFocusable(let tree, let element):
            return "element \"\(element)\" in tree \"\(tree)\" is not an accessibility element and contains none"
        case .emptyTree(let tree):
            return "tree \"\(tree)\" has no focusable elements"
        case .noFocus:
            return "nothing has focus yet; focus a tree first (narratorctl focus TREE)"
        case .notAdjustable(let tree, let element):
            return "element \"\(element)\" in tree \"\(tree)\" is not adjustable"
        case .noActions(let tree, let element):
            return "element \"\(element)\" in tree \"\(tree)\" has no custom actions"
        case .unknownAction(let name, let tree, let element, let available):
            let hint = Suggestion.nearest(to: name, in: available).map { "; did you mean \"\($0)\"?" } ?? ""
            return "element \"\(element)\" in tree \"\(tree)\" has no action \"\(name)\"" + hint
                + " (available: \(available.joined(separator: ", ")))"
        case .noHandler(let action, let tree, let element):
            return "neither element \"\(element)\" in tree \"\(tree)\" nor any of its ancestors handles \(action)"
        case .unknownRotor(let name, let available):
            let hint = Suggestion.nearest(to: name, in: available).map { "; did you mean \"\($0)\"?" } ?? ""
            return "no rotor \"\(name)\"" + hint
                + (available.isEmpty ? " (no rotors here)" : " (available: \(available.joined(separator: ", ")))")
        case .notInTable(let tree, let element):
            return "element \"\(element)\" in tree \"\(tree)\" is in no table's cell; a cell move starts from a cell (the tables rotor reaches one)"
        case .noTarget(let x, let y, let tree):
            return "no element of tree \"\(tree)\" is at (\(JSONWriter.format(x)), \(JSONWriter.format(y)))"
        case .cannotRemoveRoot(let tree):
            return "the root of tree \"\(tree)\" cannot be removed; unregister the tree instead"
        case .invalidDocument(let error):
            return error.description
        }
    }

    public var description: String { message }
}
