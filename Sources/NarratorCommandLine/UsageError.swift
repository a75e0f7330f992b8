/// A command-line usage mistake: exit status 2, with the message and a pointer to help.
/// Both programs throw it: `narratorctl` names the command whose help explains the right
/// usage; `narratord` has one grammar, so its errors name none.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The command whose help explains the right usage, if there is one.
    public var command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}
