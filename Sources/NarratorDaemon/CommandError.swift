import NarratorCore

/// Why the daemon refused a request: a stable `code` for scripts and a message for people.
struct CommandError: Error, Sendable {
    var code: String
    var message: String
    /// Extra fields for the error object (e.g. the list of document problems).
    var details: [JSONObject.Member] = []

    init(code: String, message: String, details: [JSONObject.Member] = []) {
        self.code = code
        self.message = message
        self.details = details
    }

    init(_ error: NarratorError) {
        code = error.code
        message = error.message
        if case .invalidDocument(let document) = error {
            details = [.init(key: "problems", value: .array(document.problems.map(Self.problem)))]
        }
    }

    init(_ error: ProtocolError) {
        code = error.code.rawValue
        message = error.message
    }

    static func problem(_ problem: DocumentProblem) -> JSONValue {
        ["path": .string(problem.path), "message": .string(problem.message)]
    }

    static func ownerGone(tree: String, element: String, action: String) -> CommandError {
        CommandError(
            code: "owner_gone",
            message: "the app that registered tree \"\(tree)\" has disconnected, so nothing can perform \(action) on \"\(element)\"; the app must register the tree again")
    }

    var json: JSONValue {
        var object = JSONObject(["code": .string(code), "message": .string(message)])
        object.members.append(contentsOf: details)
        return .object(object)
    }
}
