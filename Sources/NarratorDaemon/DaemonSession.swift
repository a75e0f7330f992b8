import NarratorBase
import NarratorCore
import NarratorModel
import NarratorSystem

/// The session as ``SessionDriver`` drives it: each step also names the trees its input
/// removes, found before the session lets go of them, so that the shell hands them to the
/// preparation worker to be freed there rather than on the loop.
struct DaemonSession: EffectMachine {
    enum Step {
        /// A tree the session no longer holds: the shell frees it off the loop.
        case release(AccessibilityTree)
        case effect(SessionEffect)
    }

    var session: Session

    mutating func handle(_ input: consuming SessionInput, at now: MonotonicInstant) -> [Step] {
        let removed = session.treesRemoved(by: input)
        // Moved into the session: a register request's document then lives only until its tree is compiled.
        let effects = session.handle(consume input, at: now)
        return removed.map(Step.release) + effects.map(Step.effect)
    }
}
