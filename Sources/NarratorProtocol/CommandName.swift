/// The `cmd` of every request, spelt once: the request decoder and encoder and "did you mean"
/// read this list, and a test checks that `narratorctl` has a command for each.
public enum CommandName: String, CaseIterable, Sendable {
    case hello, register, update, unregister, trees, show, export
    case focus, next, previous, first, last, touch
    case activate, adjust, actions, action
    case magicTap = "magic-tap"
    case escape, rotor, cell, announce, speak, stop, status, set, get, voices, subscribe
}
