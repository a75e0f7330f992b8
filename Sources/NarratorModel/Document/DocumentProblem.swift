/// One thing wrong with a tree document, at a JSON path such as `root.children[2].frame`.
public struct DocumentProblem: Equatable, Sendable, CustomStringConvertible {
    /// Where the problem is; empty for the document as a whole.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Why a tree document (or an update to one) was rejected: either it is not JSON at all,
/// or it is JSON with every problem listed.
public enum DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    case syntax(JSONSyntaxError)
    case invalid([DocumentProblem])

    public var problems: [DocumentProblem] {
        switch self {
        case .syntax(let error): [DocumentProblem(path: "", message: "not valid JSON: \(error)")]
        case .invalid(let problems): problems
        }
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
