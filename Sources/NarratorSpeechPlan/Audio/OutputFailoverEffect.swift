import NarratorBase

/// What a sound-server output's failover asks its shell to do, as a value: the only way it acts.
/// The shell carries the effects out in order, on the thread that fed the input; tests compare
/// them exactly. A ``wait(_:until:)`` is always the last effect of a step.
public enum OutputFailoverEffect: Sendable, Hashable {
    /// Open a device on a new device thread of its own (a hung attempt holds only that thread);
    /// feed back ``OutputFailoverInput/connected(_:name:)`` or ``OutputFailoverInput/connectFailed(_:reason:)``.
    case connect(OutputDeviceID)
    /// Hand a call to the device's player thread, after the calls handed over before, and (when
    /// `afterInterrupts`) after the device interrupts posted before have run; feed back
    /// ``OutputFailoverInput/callReturned(_:)`` or ``OutputFailoverInput/callFailed(_:reason:)``.
    case call(OutputDeviceID, DeviceCallID, OutputCall, afterInterrupts: Bool)
    /// Post the device's interrupt (a flush, which waits for the server) to its flusher thread.
    case interruptDevice(OutputDeviceID)
    /// Close the device's stream on its player thread, after the calls handed over before.
    case closeStream(OutputDeviceID)
    /// The device is given up: let go of it (its threads finish their calls and free it).
    case forget(OutputDeviceID)
    /// Carry the call out on `null`, in real time.
    case null(OutputCall)
    case interruptNull
    /// The output's status changed: tell `onChange` (said once per change).
    case report(OutputStatus)
    /// Block the feeding thread until ``wake(_:)`` or `until`, then feed ``OutputFailoverInput/waited(_:)``.
    case wait(OutputWait, until: MonotonicInstant)
    /// Release the thread waiting with ``wait(_:until:)``.
    case wake(OutputWait)
    /// Feed ``OutputFailoverInput/timerFired`` at this instant (replacing any timer set before).
    case setTimer(MonotonicInstant)
    case cancelTimer
}
