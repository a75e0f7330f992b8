import NarratorBase

/// Why narratord gave an engine process up: what the journal, `status` and the fallback's
/// ``EngineHealth/restarting(reason:attempt:)`` say, after the engine's name ("flite exited
/// with status 1").
public enum EngineFault: Sendable, Hashable, CustomStringConvertible {
    /// The process could not be spawned (a missing or non-executable file): the shell's error.
    case couldNotStart(String)
    /// The process ended by itself, as its parent reaped it ("exited with status 1", "killed by signal 9").
    case ended(String)
    /// Its standard output ended while the process still ran.
    case closedOutput
    /// It wrote bytes that are not a frame.
    case malformed(EngineFrameError)
    /// It wrote a frame the protocol does not allow there (`what` names it).
    case brokeProtocol(String)
    /// A job was in flight and no frame came for this long while narratord was reading, and the
    /// process used (almost) no CPU time in the last hang bound of it, or the silence reached its cap.
    case hung(Duration)
    /// A job was in flight and the process used more than this CPU time without writing a frame.
    case runaway(Duration)
    /// Its ready frame did not come within the start bound.
    case notReady(Duration)

    public var description: String {
        switch self {
        case .couldNotStart(let why): "could not be started: \(why)"
        case .ended(let how): how
        case .closedOutput: "closed its output"
        case .malformed(let error): "sent a malformed frame: \(error)"
        case .brokeProtocol(let what): "broke the engine protocol: \(what)"
        case .hung(let silence): "did not answer for \(Self.spoken(silence))"
        case .runaway(let cpu): "used \(Self.spoken(cpu)) of CPU time without answering"
        case .notReady(let bound): "was not ready within \(Self.spoken(bound))"
        }
    }

    /// "1 s", "1.5 s", "250 ms": how a bound reads in the journal.
    public static func spoken(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000) s" }
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
