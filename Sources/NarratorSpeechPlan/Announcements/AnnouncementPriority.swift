/// How an announcement competes with other speech (the iOS 17 semantics).
///
/// - `low` waits until nothing else is playing or pending.
/// - `default` interrupts current speech but can itself be interrupted.
/// - `high` interrupts current speech and cannot be interrupted.
public enum AnnouncementPriority: String, Sendable, Hashable, Codable, CaseIterable {
    case low
    case `default`
    case high
}
