import NarratorProtocol

/// What a request the bridge sent narratord was for, kept until its reply: the reply is decoded
/// as an answer to that command, and a refused update is recovered by registering its window again.
enum DaemonPurpose: Equatable, Sendable, CustomStringConvertible {
    case hello
    /// Speech notices, so that the repeat key knows what was said last.
    case subscribe
    /// `generation`: the window's registration the request belongs to (``ATSPIMirror/generation(of:)``).
    case register(tree: String, generation: Int)
    case update(tree: String, generation: Int)
    case unregister(tree: String)
    case focus(tree: String, element: String?)
    case announce(tree: String)
    /// A key's command (`what` names it): its reply moves the application's focus or caret after
    /// Narrator's, or is said when the command cannot be done.
    case key(what: String, command: CommandName)

    var command: CommandName {
        switch self {
        case .hello: .hello
        case .subscribe: .subscribe
        case .register: .register
        case .update: .update
        case .unregister: .unregister
        case .focus: .focus
        case .announce: .announce
        case .key(_, let command): command
        }
    }

    var description: String {
        switch self {
        case .hello: "hello"
        case .subscribe: "subscribe"
        case .register(let tree, _): "register \(tree)"
        case .update(let tree, _): "update \(tree)"
        case .unregister(let tree): "unregister \(tree)"
        case .focus(let tree, let element): "focus \(tree) \(element ?? "(the tree)")"
        case .announce(let tree): "announce in \(tree)"
        case .key(let what, _): "the key for \(what)"
        }
    }
}
