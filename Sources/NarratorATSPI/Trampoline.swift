import CAtspi
import NarratorBase
import NarratorSystem

/// The one way a GLib or libatspi C callback reaches Swift: a closure boxed behind the
/// callback's `gpointer`. The box is retained while GLib holds it and released by GLib's destroy
/// notify (``release``). The closure takes the callback's one pointer argument (an event), or nil.
final class Trampoline {
    typealias Body = (UnsafeMutableRawPointer?) -> Bool
    private let body: Body

    /// `body` returns whether GLib should keep the source (a timer or watch) alive.
    init(_ body: @escaping Body) {
        self.body = body
    }

    /// The box as a `gpointer`, retained until ``release`` runs.
    var retained: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// Calls the closure behind `context`, leaving the box where it is.
    static func call(_ context: UnsafeMutableRawPointer?, _ argument: UnsafeMutableRawPointer? = nil) -> Bool {
        guard let context else { return false }
        return Unmanaged<Trampoline>.fromOpaque(context).takeUnretainedValue().body(argument)
    }

    /// GLib's destroy notify for a box it held.
    static let release: GDestroyNotify = { context in
        guard let context else { return }
        Unmanaged<Trampoline>.fromOpaque(context).release()
    }

    /// Runs `body` once on the main loop after `milliseconds`.
    static func after(milliseconds: UInt32, _ body: @escaping () -> Void) {
        let box = Trampoline { _ in body(); return false }
        _ = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { Trampoline.call($0) ? 1 : 0 }, box.retained, release)
    }

    /// Runs `body` once on the main loop at `deadline` (at once if it has passed).
    static func at(_ deadline: MonotonicInstant, _ body: @escaping () -> Void) {
        after(milliseconds: UInt32(MonotonicClock.milliseconds(until: deadline)), body)
    }

    /// Runs `body` once on the main loop, in the iteration after this one, beside the sources
    /// of default priority (an idle of lower priority would wait while a busy socket is readable).
    static func soon(_ body: @escaping () -> Void) {
        let box = Trampoline { _ in body(); return false }
        _ = g_idle_add_full(G_PRIORITY_DEFAULT, { Trampoline.call($0) ? 1 : 0 }, box.retained, release)
    }

    /// Runs `body` each time `fd` is readable, until it returns false. `first`: before any other
    /// source ready at the same time (the user's keys go ahead of the applications' events).
    static func whenReadable(_ fd: Int32, first: Bool = false, _ body: @escaping () -> Bool) {
        let box = Trampoline { _ in body() }
        _ = g_unix_fd_add_full(first ? G_PRIORITY_HIGH : G_PRIORITY_DEFAULT, fd, G_IO_IN, { _, _, context in Trampoline.call(context) ? 1 : 0 }, box.retained, release)
    }

    /// Runs `body` on the main loop each time the process gets `signal` (GLib's own handler:
    /// the signal is noted and dispatched from the loop, never run inside the handler).
    static func onSignal(_ signal: Int32, _ body: @escaping () -> Void) {
        let box = Trampoline { _ in body(); return true }
        _ = g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { Trampoline.call($0) ? 1 : 0 }, box.retained, release)
    }

    /// Runs `body` each time `fd` can be written to, until it returns false.
    static func whenWritable(_ fd: Int32, _ body: @escaping () -> Bool) {
        let box = Trampoline { _ in body() }
        _ = g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_OUT, { _, _, context in Trampoline.call(context) ? 1 : 0 }, box.retained, release)
    }
}
