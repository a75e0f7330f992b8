/// Everything that can happen to an engine process and its jobs, as a value: what the shell
/// (the engine's reader thread and the threads that submit and cancel) feeds into
/// ``EngineSupervisor/handle(_:at:)``.
public enum EngineSupervisorInput: Sendable, Hashable {
    /// A job to speak after those submitted before it.
    case submit(EngineJob)
    /// A job is expected soon (a setting or a client chose the engine): start the process now, if
    /// it is not started, so that the first job does not wait for it to load its model.
    case warmUp
    /// Stop a job: one not written yet ends skipped, one in flight is cancelled in the engine.
    case cancel(job: UInt32)
    /// A frame the process wrote. The shell carries out the frame's effects (the job's
    /// handlers) before it reads on, and says so with ``listening(_:)``.
    case frame(EngineProcessID, EngineFrame)
    /// The shell is waiting for the process's next frame again (it is back in poll, the frames
    /// read before all handled): silence from here on counts towards the hang checks, time spent
    /// in a job's handlers (an output keeping real-time pace) does not. `cpuTime` is the CPU time
    /// the process has used, read now (nil: it could not be read).
    case listening(EngineProcessID, cpuTime: Duration?)
    /// The process failed on its own: it could not be spawned, it ended, its output ended, or
    /// it wrote bytes that are not a frame.
    case failed(EngineProcessID, EngineFault)
    /// The timer last set (``EngineSupervisorEffect/setTimer(_:)``) is due. `cpuTime` is the CPU
    /// time the process alive now has used, read now (nil: there is none, or it could not be
    /// read): a hang check compares it with the readings before.
    case timerFired(cpuTime: Duration?)
    /// How long the ready engine may go unused before it is stopped (the `engine-idle` setting);
    /// nil: never. Counted from its last use, so a shorter limit may stop it at once.
    case setIdleLimit(Duration?)
    /// The engine is no longer wanted (narratord stops): its process goes, and its jobs end.
    case shutDown
}
