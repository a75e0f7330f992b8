/// What speech is doing, as the announcement queue needs to know it to decide whether an
/// announcement may start now: read from the scheduler by ``SpeechPlan`` at each step, so the
/// queue never keeps a copy of the scheduler's state.
public struct SpeechActivity: Sendable, Hashable {
    public enum Playing: Sendable, Hashable {
        /// An announcement the queue released (playing, or handed to speech and about to start).
        case announcement(AnnouncementID)
        /// Any other speech: focus, a value, a hint, direct speech.
        case other(SpeechKind)
    }

    public var playing: Playing?
    /// Speech other than announcements waits to start (focus speech behind a high announcement,
    /// a hint in its pause): waiting announcements let it go first.
    public var othersWaiting: Bool

    public init(playing: Playing? = nil, othersWaiting: Bool = false) {
        self.playing = playing
        self.othersWaiting = othersWaiting
    }

    /// Nothing plays and nothing waits.
    public static let idle = SpeechActivity()
}
