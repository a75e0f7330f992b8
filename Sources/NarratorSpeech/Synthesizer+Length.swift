import Dispatch
import NarratorEngines
import Synchronization

/// Why a text's length could not be measured on an engine.
public enum SynthesisLengthError: Error, Sendable, Hashable, CustomStringConvertible {
    case synthesis(SynthesisError)
    /// The engine process crashed or stopped answering while it spoke the text.
    case engineFailed(EngineFailure)
    /// The engine did not finish within the bound.
    case timedOut(engine: String, seconds: Int)

    public var description: String {
        switch self {
        case .synthesis(let error): "\(error)"
        case .engineFailed(let failure): "engine \(failure)"
        case .timedOut(let engine, let seconds): "engine \(engine) did not finish within \(seconds) s"
        }
    }
}

extension Synthesizer {
    /// How long `text` lasts in `voice` on this engine, in seconds of audio: synthesized whole,
    /// the caller's thread waiting (for offline tools such as `narratorctl replay`, not the daemon).
    public func length(
        of text: String, ssml: Bool = false, voice: VoiceChoice, parameters: VoiceParameters, bound: Duration = .seconds(60)
    ) throws(SynthesisLengthError) -> Double {
        let samples = Mutex(0)
        let outcome = Mutex<SynthesisJob.Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = SynthesisJob(
            text: text, ssml: ssml, voice: voice, parameters: parameters,
            onChunk: { chunk in
                samples.withLock { $0 += chunk.count }
                return true
            },
            onEnd: { result in
                outcome.withLock { $0 = result }
                done.signal()
            })
        submit(job)
        let (seconds, attoseconds) = bound.components
        if done.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) == .timedOut {
            job.cancel()
            throw .timedOut(engine: engineName.rawValue, seconds: Int(seconds))
        }
        switch outcome.withLock({ $0 }) {
        case .failed(let error): throw .synthesis(error)
        case .engineFailed(let failure): throw .engineFailed(failure)
        // The semaphore is signalled only after the outcome is set.
        case .completed, .cancelled, .skipped, .outputFailed, nil: break
        }
        return Double(samples.withLock { $0 }) / Double(sampleRate(for: voice))
    }
}
