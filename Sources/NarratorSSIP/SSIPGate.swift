import NarratorBase
import NarratorSpeechPlan

/// Deduplication and throttling for SSIP messages, per client name (which plays the part a
/// tree's screen plays for announcements), under the daemon's announcement policy.
///
/// It judges only messages that would pile up: ones a client sends while its own earlier
/// speech still plays or waits. A client that speaks one thing at a time is never judged. Nor is a
/// screen reader: a connection that has cancelled its own speech (`CANCEL self`, `STOP self`, or
/// `all`) manages what it says, as Orca does on every key, and what it sends is what it chose to
/// say: the summary and Say All of a page load, a key's echo and the new focus, a terminal's
/// output. Speech Dispatcher speaks all of that (it drops only notifications and progress, by the
/// priorities, which the scheduler applies to every client), so a drop-in server must too. What
/// the gate exists for is the program that floods the speech server without ever managing its own
/// speech; and a screen reader's backlog deeper than ``runawayBacklog`` (minutes of speech no user
/// sits through: a client that cancelled once and then floods) is judged like one. Important
/// messages are never judged, and progress reports are coalesced by the scheduler instead.
public struct SSIPGate: Sendable {
    private var buckets: [String: TokenBucket] = [:]
    /// Connections that have cancelled their own speech at least once: screen readers.
    private var managing: Set<ClientID> = []
    /// When each (client name, text key) was last queued or ended.
    private var recent: [DedupIdentity: MonotonicInstant] = [:]
    /// The size of `recent` at which it is next pruned: twice what the last pruning kept, so
    /// that a flood of distinct messages inside the window costs O(1) per message, not a scan.
    private var pruneAt = Self.smallTable
    private static let smallTable = 256

    /// How many of a screen reader's messages may be playing or waiting before the next one is
    /// judged: Orca's deepest pile-up on the recorded traffic (a page load's summary and Say All
    /// with a flood beside it, examples/traces/orca-page-load.jsonl) is a small fraction of it,
    /// while at about a second a message it is minutes of speech.
    public static let runawayBacklog = 100

    public init() {}

    /// What happens to a message: nil admits it, else `deduplicated` or `throttled`.
    ///
    /// - Parameters:
    ///   - key: the message's ``Announcement/normalizedKey(_:)``.
    ///   - connection: the connection that sent it (a screen reader's is not judged).
    ///   - inFlight: the keys of the connection's messages still playing or waiting (empty: not judged).
    public mutating func judge(
        key: String, priority: MessagePriority, clientName: String, connection: ClientID, inFlight: [String], policy: AnnouncementPolicy,
        at now: MonotonicInstant
    ) -> AnnouncementOutcome? {
        let identity = DedupIdentity(tree: clientName, key: key)
        defer { forget(before: now, window: policy.dedupWindow) }
        let screenReader = managing.contains(connection) && inFlight.count < Self.runawayBacklog
        guard !inFlight.isEmpty, !screenReader, priority != .important, priority != .progress else {
            recent[identity] = now
            return nil
        }
        if policy.deduplicate {
            if inFlight.contains(identity.key) { return .deduplicated }
            if let last = recent[identity], now - last < policy.dedupWindow { return .deduplicated }
        }
        if let limit = policy.rateLimit {
            var bucket = buckets[clientName] ?? TokenBucket(full: limit, at: now)
            let admitted = bucket.take(limit, at: now)
            buckets[clientName] = bucket
            if !admitted { return .throttled }
        }
        recent[identity] = now
        return nil
    }

    /// A connection cancelled or stopped its own speech (alone, or with every connection's): it
    /// manages what it says, as a screen reader does, and is not judged from now on. Cancelling
    /// another connection's speech says nothing about the one cancelled.
    public mutating func cancelledOwnSpeech(_ connection: ClientID) {
        managing.insert(connection)
    }

    /// A connection is gone: nothing more is kept for it.
    public mutating func disconnected(_ connection: ClientID) {
        managing.remove(connection)
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
