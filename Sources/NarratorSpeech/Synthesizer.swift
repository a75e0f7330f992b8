import NarratorEngines

/// A speech engine: what the speech layer needs of eSpeak NG, Flite or Piper, and nothing more,
/// so that the player, the daemon and the benchmarks never name an engine's own types.
///
/// An engine runs its jobs one at a time, in the order they were submitted, on a thread of its
/// own (eSpeak NG's library thread, or the threads that talk to an engine process): `submit`
/// returns at once, and the job's handlers report what happened (see ``SynthesisJob``). A job's
/// ``SynthesisJob/cancel()`` stops it before its next chunk of audio.
public protocol Synthesizer: AnyObject, Sendable {
    /// The engine's name, as SSIP's `OUTPUT_MODULE` and `narratorctl set engine` name it
    /// ("espeak-ng", "flite", "piper").
    var engineName: EngineName { get }
    /// Its voices, known without starting it (an engine process is started by its first job).
    var voices: [InstalledVoice] { get }
    /// The rate of the PCM a job in `voice` produces (mono, signed 16-bit).
    func sampleRate(for voice: VoiceChoice) -> Int
    /// Queues a job; it runs after the jobs submitted before it.
    func submit(_ job: SynthesisJob)
    /// How the engine is doing, for `status` (an engine process may be restarting).
    var health: EngineHealth { get }
    /// Gets ready for a job that is expected soon (an engine process starts); returns at once.
    func warmUp()
    /// Stops the engine's process once it has gone unused this long (nil: never), to give its
    /// memory back; its next job starts it again. Returns at once.
    func setIdleLimit(_ limit: Duration?)
}

extension Synthesizer {
    /// An engine in narratord's process is always ready.
    public func warmUp() {}
    /// An engine in narratord's process has no process of its own to stop.
    public func setIdleLimit(_ limit: Duration?) {}
}

/// Why a job produced no (or not all of its) audio.
public enum SynthesisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// eSpeak NG refused the voice, a parameter or the text.
    case espeak(EspeakError)
    /// An engine process could not synthesize the job and said why (an `F` frame); it serves the next.
    case refused(engine: EngineName, message: String)

    public var description: String {
        switch self {
        case .espeak(let error): "\(error)"
        case .refused(let engine, let message): "\(engine): \(message)"
        }
    }
}

/// An engine that failed in the middle of a job: it crashed or stopped answering, and was given
/// up. What the listener had not heard yet is `remainder`, from the start of the sentence that
/// was playing, for the fallback engine to say.
public struct EngineFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var engine: EngineName
    public var reason: String
    /// The job's text from the sentence that was being heard (the whole text if none began).
    public var remainder: String

    public init(engine: EngineName, reason: String, remainder: String) {
        self.engine = engine
        self.reason = reason
        self.remainder = remainder
    }

    public var description: String { "\(engine) \(reason)" }
}
