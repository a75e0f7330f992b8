import NarratorBase

/// When the sound server's stream is closed so that the server can suspend its sink.
///
/// An open playback stream keeps the sound server's sink running even when nothing is written to
/// it (PulseAudio's `module-suspend-on-idle` and WirePlumber suspend a sink only once no stream
/// uses it), and the server keeps rendering silence, which costs the desktop CPU and keeps the
/// sound card powered. So the stream is closed `closeAfter` after the last utterance was heard,
/// and the next utterance opens it again (the device's `begin` opens a closed stream).
///
/// Pure: the output passes its clock's instants in and carries the effects out: one timer, which
/// is only armed between the end of an utterance and the close, so that an idle output sets none.
public struct StreamIdlePolicy: Sendable, Hashable {
    /// How long after the last audio the stream is closed: long enough that the pauses within a
    /// conversation (a key press every second or two) keep the stream open, so that their speech
    /// does not wait for a new stream; short against the sink's own idle timeouts (5 s for both
    /// PulseAudio and WirePlumber), so that the sink suspends within seconds of falling silent.
    public static let standardCloseAfter: Duration = .seconds(2)

    public enum Phase: Sendable, Hashable {
        /// The stream is closed (or its device has not opened one).
        case closed
        /// An utterance is playing on the open stream.
        case playing
        /// The stream is open and silent; it is closed at `closeAt`.
        case idle(closeAt: MonotonicInstant)
    }

    public enum Effect: Sendable, Hashable {
        /// Arm the one timer for `at` (replacing any time it was armed for).
        case armTimer(at: MonotonicInstant)
        /// Disarm the timer.
        case cancelTimer
        /// Close the device's stream.
        case close
    }

    public let closeAfter: Duration
    public private(set) var phase: Phase

    /// A policy for a device whose stream is `open` (a device that was just connected opens one).
    public init(closeAfter: Duration = standardCloseAfter, openAt now: MonotonicInstant? = nil) {
        self.closeAfter = closeAfter
        phase = now.map { .idle(closeAt: $0 + closeAfter) } ?? .closed
    }

    /// The timer the policy wants armed now, if any: for a device just connected with `openAt`.
    public var timer: MonotonicInstant? {
        if case .idle(let closeAt) = phase { return closeAt }
        return nil
    }

    /// An utterance begins (the device's `begin` opens the stream if it is closed).
    public mutating func began(at now: MonotonicInstant) -> [Effect] {
        defer { phase = .playing }
        if case .idle = phase { return [.cancelTimer] }
        return []
    }

    /// The utterance's audio has been heard, or it was interrupted: the stream falls silent.
    public mutating func ended(at now: MonotonicInstant) -> [Effect] {
        guard phase == .playing else { return [] }
        let closeAt = now + closeAfter
        phase = .idle(closeAt: closeAt)
        return [.armTimer(at: closeAt)]
    }

    /// The timer fired. A timer that fires early (or late, for a time since replaced) is armed
    /// again for the time that holds; one that fires while an utterance plays does nothing.
    public mutating func timerFired(at now: MonotonicInstant) -> [Effect] {
        guard case .idle(let closeAt) = phase else { return [] }
        guard now >= closeAt else { return [.armTimer(at: closeAt)] }
        phase = .closed
        return [.close]
    }
}
