import NarratorBase
import NarratorSpeechPlan

/// The log as the session knows it: its writer's latest figures, and the numbering of
/// announcements, which goes on from the highest id the log holds (so ids stay unique across restarts).
struct LogBook: Sendable {
    private(set) var health: LogHealth
    private var nextAnnouncement: UInt64

    init(_ health: LogHealth) {
        self.health = health
        nextAnnouncement = UInt64(max(0, health.lastAnnouncementID)) + 1
    }

    /// The writer's latest figures; returns the file set aside, when that is news.
    mutating func report(_ health: LogHealth) -> LogSetAside? {
        let news = health.setAside.flatMap { $0 != self.health.setAside ? $0 : nil }
        self.health = health
        nextAnnouncement = max(nextAnnouncement, UInt64(max(0, health.lastAnnouncementID)) + 1)
        return news
    }

    mutating func newAnnouncement() -> AnnouncementID {
        defer { nextAnnouncement += 1 }
        return AnnouncementID(nextAnnouncement)
    }
}
