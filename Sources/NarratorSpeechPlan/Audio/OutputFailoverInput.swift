/// Everything that can happen to a sound-server output, as a value: what its shell (the engine
/// thread, the device threads, the timer, the thread that interrupts) feeds into
/// ``OutputFailover/handle(_:at:)``.
public enum OutputFailoverInput: Sendable, Hashable {
    /// The output is created: the first connection attempt starts, and its creator waits for it.
    case start
    /// The engine thread's `begin`, `write` or `end`.
    case engine(OutputCall)
    /// Silence the current utterance (from any thread, never waiting on the device).
    case interrupt
    /// Try to reach the server now, unless connected or an attempt is under way.
    case attemptReconnect
    /// The connection attempt ``OutputFailoverEffect/connect(_:)`` succeeded; `name` is the device's ("pulse").
    case connected(OutputDeviceID, name: String)
    /// The connection attempt failed, and why.
    case connectFailed(OutputDeviceID, reason: String)
    /// A device call returned on its player thread.
    case callReturned(DeviceCallID)
    /// A device call failed (the server went away), and why.
    case callFailed(DeviceCallID, reason: String)
    /// A thread told to wait was woken (``OutputFailoverEffect/wake(_:)``), or its deadline came.
    case waited(OutputWait)
    /// The timer last set (``OutputFailoverEffect/setTimer(_:)``) is due.
    case timerFired
}
