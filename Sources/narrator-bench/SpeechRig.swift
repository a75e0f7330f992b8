import Dispatch
import NarratorSpeech
import NarratorSpeechPlan
import NarratorSystem

/// The daemon's speech path without its sockets: the speech plan decides and the player plays
/// its commands, as `SessionDriver` does with the session's effects, into the output given.
final class SpeechRig {
    private var plan = SpeechPlan<Never>(configuration: SpeechSchedulerConfiguration(hintsEnabled: false))
    private let settings = SpeechSettings()
    let engine: EspeakEngine
    let player: SpeechPlayer

    init(engine: EspeakEngine, output: any AudioOutput) {
        self.engine = engine
        player = SpeechPlayer(engine: engine, output: output)
    }

    /// Asks for `text` as focus speech (interrupting what plays) and plays what the plan says.
    @discardableResult
    func say(_ text: String) -> UtteranceID {
        let (id, step) = plan.say(text, .focus, at: MonotonicClock.now())
        carryOut(step)
        return id
    }

    /// `stop`: silences what plays.
    func stop() {
        carryOut(plan.stop(at: MonotonicClock.now()))
    }

    /// Waits until the engine thread has finished every job handed to it (a cancelled barrier job
    /// ends as soon as it is reached).
    func waitUntilEngineIdle() {
        let done = DispatchSemaphore(value: 0)
        let barrier = SynthesisJob(text: "", onChunk: { _ in false }, onEnd: { _ in done.signal() })
        barrier.cancel()
        engine.submit(barrier)
        done.wait()
    }

    private func carryOut(_ step: PlanStep<Never>) {
        for command in step.commands {
            switch command {
            case .play(let request, _): player.play(PlayRequest(request, settings: settings, chosen: nil, voices: engine.voices))
            case .stop(let id): player.stop(id)
            }
        }
    }
}
