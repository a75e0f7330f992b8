import NarratorBase

/// What an engine's supervisor asks its shell to do, as a value: the only way it acts. The
/// shell carries the effects out in order; tests compare them exactly.
public enum EngineSupervisorEffect: Sendable, Hashable {
    /// Start a process of the engine (`ENGINE --serve`) with pipes for its standard streams;
    /// if it cannot be started, ``EngineSupervisorInput/failed(_:_:)`` says why.
    case spawn(EngineProcessID)
    /// Write a request to the process's standard input, after those written before (without
    /// making anyone wait: a stopped engine's full pipe holds only the writing thread).
    case write(EngineProcessID, EngineRequest)
    /// Give the process up: SIGKILL, reap it, close its pipes. Nothing it wrote is read after.
    /// Also how an engine unused for its idle limit is stopped.
    case kill(EngineProcessID)
    /// The job's audio begins (its `onStart`), before any of its audio.
    case begin(job: UInt32, sampleRate: Int)
    /// The audio that follows is of the sentence starting at this UTF-8 byte offset of the job's
    /// text (an `S` frame; its `onSentence`).
    case sentence(job: UInt32, offset: Int)
    /// PCM of the job, in order (its `onChunk`; false from it is a ``EngineSupervisorInput/cancel(job:)``).
    case audio(job: UInt32, samples: [Int16])
    /// The job ended (its `onEnd`); nothing more comes for it.
    case end(job: UInt32, EngineJobEnd)
    /// The engine's health changed (said once per change: the journal and `status` show it).
    case health(EngineHealth)
    /// A line the engine sent for the journal (an `L` frame).
    case log(String)
    /// Feed ``EngineSupervisorInput/timerFired`` at this instant (replacing any timer set before).
    case setTimer(MonotonicInstant)
    case cancelTimer
}

/// How one engine job ended.
public enum EngineJobEnd: Sendable, Hashable {
    /// Its `E` frame came; `samples` of audio were handed over.
    case completed(samples: Int)
    /// It was cancelled after its audio began (its `E` came, or the engine was given up meanwhile).
    case cancelled(samples: Int)
    /// It was cancelled before its audio began: no `begin` was given for it.
    case skipped
    /// The engine could not synthesize it and said why (an `F` frame); the engine serves on.
    case refused(String)
    /// The engine failed (`reason`) before the job ended, or was failing when it came:
    /// `remainder` is the text from the sentence being heard (all of it if none began), for the
    /// fallback engine to say now.
    case engineFailed(reason: String, remainder: String)
}
