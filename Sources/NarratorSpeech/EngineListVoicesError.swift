import NarratorEngines
import NarratorSystem

/// Why an engine executable's `--list-voices` gave no usable listing: what narratord says at
/// start-up about an engine it then leaves out, naming the executable and what was wrong.
public struct EngineListVoicesError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// It could not be run at all (missing, not executable).
        case couldNotRun(Errno)
        /// It was still running after the bound, and was killed.
        case timedOut(Duration)
        /// It ended other than with status 0; `message` is what it said on standard error.
        case failed(ChildTermination, message: String)
        /// It printed more than narratord reads of a listing.
        case tooLong(limit: Int)
        /// What it printed is not a listing (the field that is wrong, and why).
        case invalid(EngineListingError)
        /// It lists no voice.
        case noVoices
        /// Two of its voices have one name.
        case duplicateVoice(String)
    }

    public var executable: String
    public var problem: Problem

    public init(executable: String, problem: Problem) {
        self.executable = executable
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .couldNotRun(let error): what = "could not be run: \(error)"
        case .timedOut(let bound): what = "printed no listing within \(EngineFault.spoken(bound)), and was killed"
        case .failed(let termination, let message): what = message.isEmpty ? "\(termination)" : "\(termination): \(message)"
        case .tooLong(let limit): what = "printed more than \(limit) bytes"
        case .invalid(let error): what = "printed a listing that is wrong at \(error.path): \(error.reason)"
        case .noVoices: what = "lists no voice"
        case .duplicateVoice(let name): what = "lists the voice \"\(name)\" twice"
        }
        return "\(executable) --list-voices \(what)"
    }
}
