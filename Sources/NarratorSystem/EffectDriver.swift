import NarratorBase

/// A pure machine a shell drives: it takes one typed input at a time, on the instant it is
/// given, and returns what is to be done as values. It decides; the shell only carries out.
public protocol EffectMachine {
    associatedtype Input
    associatedtype Effect
    /// The input is the machine's to keep or let go (a request's document is freed as it is compiled).
    mutating func handle(_ input: consuming Input, at now: MonotonicInstant) -> [Effect]
}

/// The one loop between a pure machine and its shell: it feeds the machine an input, hands each
/// effect it returns to the shell, and feeds back what the shell learns. Its one rule for
/// re-entrancy: an input fed while effects are being carried out (an outcome known at once, a
/// callback that fires inside a call) is queued, and taken once every effect before it is
/// carried out, in the order it came. So the machine never sees an input in the middle of
/// another's effects, and the shell never carries out effects out of the machine's order.
///
/// It is not thread-safe: a shell feeds it from its one thread (the poll loop's, the engine's,
/// GLib's main loop).
public final class EffectDriver<Machine: EffectMachine> {
    /// The machine as it is now, for the shell to read (what it holds, never to change it).
    public private(set) var machine: Machine
    private let clock: () -> MonotonicInstant
    /// Inputs fed while effects were being carried out, oldest first.
    private var queued: [Machine.Input] = []
    private var carryingOut = false

    /// `clock` says when each input is handled: the monotonic clock, or a test's virtual one.
    public init(_ machine: Machine, clock: @escaping () -> MonotonicInstant = MonotonicClock.now) {
        self.machine = machine
        self.clock = clock
    }

    /// Feeds `input` to the machine and carries out its effects with `carryOut`, then whatever
    /// was fed meanwhile. Called while effects are being carried out, it only queues `input`:
    /// the call carrying them out takes it next (with its own `carryOut`) and this one returns.
    public func feed(_ input: consuming Machine.Input, carryOut: (Machine.Effect) -> Void) {
        queued.append(consume input)
        guard !carryingOut else { return }
        carryingOut = true
        defer { carryingOut = false }
        while !queued.isEmpty {
            // Moved out, not copied: what the input holds is the machine's once handled.
            let effects = machine.handle(queued.removeFirst(), at: clock())
            for effect in effects { carryOut(effect) }
        }
    }
}
