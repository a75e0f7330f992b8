import Glibc
import Synchronization

/// Turns SIGTERM/SIGINT/SIGHUP into loop callbacks with the self-pipe trick: the C handler only
/// sets a bit and bumps the loop's eventfd (both async-signal-safe); the loop does the real work.
/// A handler installed with sigaction works whichever thread the kernel picks, unlike signalfd,
/// which needs the signals blocked in every thread, including ones the runtime already started.
///
/// Process-wide because signal dispositions are; one loop at a time may own it.
enum SignalRelay {
    /// Bit n set: signal n arrived since the loop last looked.
    fileprivate static let pending = Atomic<UInt64>(0)
    /// The eventfd to bump, or -1.
    fileprivate static let wakeDescriptor = Atomic<Int32>(-1)
    /// Saved dispositions while a loop owns the relay; nil when free.
    private static let owner = Mutex<[Int32: Glibc.sigaction]?>(nil)

    /// Installs handlers for `signals` that wake `wakeFD`; throws `.signalsInUse` if taken.
    static func claim(_ signals: Set<LoopSignal>, wakeFD: Int32) throws(PollLoopError) {
        try owner.withLock { (saved) throws(PollLoopError) in
            guard saved == nil else { throw .signalsInUse }
            _ = pending.exchange(0, ordering: .sequentiallyConsistent)
            wakeDescriptor.store(wakeFD, ordering: .sequentiallyConsistent)
            var previous: [Int32: Glibc.sigaction] = [:]
            for signal in signals {
                do throws(Errno) {
                    previous[signal.number] = try Syscall.installSignalHandler(signal.number, relaySignal)
                } catch {
                    for (number, action) in previous { try? Syscall.restoreSignalAction(number, action) }
                    wakeDescriptor.store(-1, ordering: .sequentiallyConsistent)
                    throw .system(error)
                }
            }
            saved = previous
        }
    }

    /// Restores the previous dispositions and frees the relay.
    static func release() {
        owner.withLock { saved in
            for (number, action) in saved ?? [:] { try? Syscall.restoreSignalAction(number, action) }
            wakeDescriptor.store(-1, ordering: .sequentiallyConsistent)
            saved = nil
        }
    }

    /// The signals that arrived since the last call, in a stable order.
    static func take() -> [LoopSignal] {
        let bits = pending.exchange(0, ordering: .sequentiallyConsistent)
        guard bits != 0 else { return [] }
        return LoopSignal.allCases.filter { bits & (1 << UInt64($0.number)) != 0 }
    }
}

/// The C signal handler: async-signal-safe operations only (an atomic OR and write(2)), and errno
/// preserved for the interrupted code.
private func relaySignal(_ number: Int32) {
    let savedErrno = errno
    if number >= 0 && number < 64 {
        SignalRelay.pending.bitwiseOr(1 << UInt64(number), ordering: .sequentiallyConsistent)
    }
    let fd = SignalRelay.wakeDescriptor.load(ordering: .sequentiallyConsistent)
    if fd >= 0 {
        var one: UInt64 = 1
        _ = write(fd, &one, MemoryLayout<UInt64>.size)
    }
    errno = savedErrno
}
