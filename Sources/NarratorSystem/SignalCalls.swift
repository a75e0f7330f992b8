import Glibc

/// sigaction(2) outside `Syscall`, where the bare name `sigaction` with arguments means the C function.
private func changeSignalAction(
    _ signal: Int32, _ new: UnsafePointer<Glibc.sigaction>?, _ old: UnsafeMutablePointer<Glibc.sigaction>?
) -> Int32 {
    sigaction(signal, new, old)
}

extension Syscall {
    /// sigaction(2) installing `handler` with SA_RESTART (so other threads' blocking calls are
    /// resumed by the kernel) and returning the previous action so that it can be restored.
    static func installSignalHandler(
        _ signal: Int32, _ handler: @convention(c) (Int32) -> Void
    ) throws(Errno) -> Glibc.sigaction {
        var action = Glibc.sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var previous = Glibc.sigaction()
        _ = try retryingInterrupts("sigaction") { changeSignalAction(signal, &action, &previous) }
        return previous
    }

    /// sigaction(2) putting back an action saved by `installSignalHandler`.
    static func restoreSignalAction(_ signal: Int32, _ action: Glibc.sigaction) throws(Errno) {
        var saved = action
        _ = try retryingInterrupts("sigaction") { changeSignalAction(signal, &saved, nil) }
    }
}
