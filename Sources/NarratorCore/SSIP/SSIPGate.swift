/// Deduplication and throttling for SSIP messages, per client name (which plays the part a
/// tree's screen plays for announcements), under the daemon's announcement policy.
///
/// It judges only messages that would pile up: ones a client sends while its own earlier
/// speech still plays or waits. A client that speaks one thing at a time (Orca's Say All sends
/// the next sentence when the last one ended) is never judged, so what the user asked to hear is
/// never swallowed; a program flooding the speech server is. The two messages a client sends
/// right after cancelling its own speech are not rate-limited either: a screen reader cancels on
/// each key, then echoes the key and says the new focus without a cancel between them (Orca 43
/// does, on every Tab), and the second is the one the user pressed the key to hear. Important
/// messages are never judged, and progress reports are coalesced by the scheduler instead.
public struct SSIPGate: Sendable {
    private var buckets: [String: TokenBucket] = [:]
    /// Messages each connection sent since its last `CANCEL` or `STOP` (or since it connected;
    /// none counted is zero): the first two after one are what a screen reader says for a key.
    private var sinceCancel: [ClientID: Int] = [:]
    /// When each (client name, text key) was last queued or ended.
    private var recent: [DedupIdentity: MonotonicInstant] = [:]
    /// The size of `recent` at which it is next pruned: twice what the last pruning kept, so
    /// that a flood of distinct messages inside the window costs O(1) per message, not a scan.
    private var pruneAt = Self.smallTable
    private static let smallTable = 256

    /// How many messages right after a cancel the rate limit lets through: a key's echo and what
    /// the key brought.
    static let afterCancel = 2

    public init() {}

    /// What happens to a message: nil admits it, else `deduplicated` or `throttled`.
    ///
    /// - Parameters:
    ///   - key: the message's ``Announcement/normalizedKey(_:)``.
    ///   - connection: the connection that sent it (counted towards its messages since a cancel).
    ///   - inFlight: the keys of the connection's messages still playing or waiting (empty: not judged).
    public mutating func judge(
        key: String, priority: SSIPPriority, clientName: String, connection: ClientID, inFlight: [String], policy: AnnouncementPolicy,
        at now: MonotonicInstant
    ) -> AnnouncementOutcome? {
        let sinceCancel = self.sinceCancel[connection, default: 0]
        self.sinceCancel[connection] = sinceCancel + 1
        let identity = DedupIdentity(tree: clientName, key: key)
        defer { forget(before: now, window: policy.dedupWindow) }
        guard !inFlight.isEmpty, priority != .important, priority != .progress else {
            recent[identity] = now
            return nil
        }
        if policy.deduplicate {
            if inFlight.contains(identity.key) { return .deduplicated }
            if let last = recent[identity], now - last < policy.dedupWindow { return .deduplicated }
        }
        if let limit = policy.rateLimit, sinceCancel >= Self.afterCancel {
            var bucket = buckets[clientName] ?? TokenBucket(full: limit, at: now)
            let admitted = bucket.take(limit, at: now)
            buckets[clientName] = bucket
            if !admitted { return .throttled }
        }
        recent[identity] = now
        return nil
    }

    /// A connection's `CANCEL` or `STOP` (nil: every connection's): its next two messages are spared the rate limit.
    public mutating func cancelled(_ connection: ClientID?) {
        if let connection { sinceCancel[connection] = nil } else { sinceCancel.removeAll() }
    }

    /// A connection is gone: nothing more is counted for it.
    public mutating func disconnected(_ connection: ClientID) {
        sinceCancel[connection] = nil
    }

    /// A message (by its key) ended: repeats within the dedup window count from now.
    public mutating func ended(key: String, clientName: String, at now: MonotonicInstant) {
        recent[DedupIdentity(tree: clientName, key: key)] = now
    }

    /// Keeps the table small: entries older than the window can no longer deduplicate anything.
    private mutating func forget(before now: MonotonicInstant, window: Duration) {
        guard recent.count > pruneAt else { return }
        recent = recent.filter { now - $0.value < window }
        pruneAt = max(Self.smallTable, recent.count * 2)
    }
}
