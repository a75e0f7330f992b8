/// Why a keymap line was refused. The line is kept out and the rest of the keymap is used.
public enum KeymapProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case noKey(String)
    case unknownKey(String)
    case unknownModifier(String)
    case unknownCommand(String, suggestion: String?)
    case notABinding(String)
    case unknownLayout(String)
    /// A Narrator key, or a chord whose key is Shift, Control or Alt alone, cannot be bound.
    case reservedKey(String)

    public var description: String {
        switch self {
        case .noKey(let text): "\"\(text)\" names no key"
        case .unknownKey(let name): "no key is called \"\(name)\" (X's names: h, 1, KP_Add, Insert, Page_Down, semicolon)"
        case .unknownModifier(let name): "\"\(name)\" is not a modifier (Narrator, Control, Alt, Shift)"
        case .unknownCommand(let name, let suggestion):
            "no command is called \"\(name)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "") + "; \"narratorctl keys --commands\" lists them"
        case .notABinding(let text): "\"\(text)\" is not \"KEY = COMMAND\""
        case .unknownLayout(let name): "no layout is called \"\(name)\" (desktop, laptop)"
        case .reservedKey(let text): "\(text) cannot be bound: it is Narrator's key or a modifier alone"
        }
    }
}

/// A refused line: where it is and why.
public struct KeymapLineProblem: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var problem: KeymapProblem

    public var description: String { "line \(line): \(problem)" }
}
