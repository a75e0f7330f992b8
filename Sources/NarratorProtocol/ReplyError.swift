import NarratorModel

/// Why the daemon refused a request: the `error` object of a failed reply.
public struct ReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// For `invalid_document`: every problem with its JSON path.
    public var problems: [DocumentProblem]

    public init(_ code: ErrorCode, _ message: String, problems: [DocumentProblem] = []) {
        self.code = code
        self.message = message
        self.problems = problems
    }

    public init(_ error: ProtocolError) {
        self.init(error.code, error.message)
    }

    public init(_ error: NarratorError) {
        var problems: [DocumentProblem] = []
        if case .invalidDocument(let document) = error { problems = document.problems }
        self.init(error.code, error.message, problems: problems)
    }

    public var description: String { message }
}
