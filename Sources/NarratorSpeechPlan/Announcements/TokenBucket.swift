import NarratorBase

/// A token bucket for one tree's rate limit: full at `burst`, refilled continuously.
package struct TokenBucket: Sendable, Hashable {
    private(set) var tokens: Double
    private var updatedAt: MonotonicInstant

    package init(full limit: AnnouncementPolicy.RateLimit, at now: MonotonicInstant) {
        tokens = Double(limit.burst)
        updatedAt = now
    }

    private mutating func refill(_ limit: AnnouncementPolicy.RateLimit, at now: MonotonicInstant) {
        guard now > updatedAt else { return }
        tokens = min(Double(limit.burst), tokens + (now - updatedAt).asSeconds * limit.refillPerSecond)
        updatedAt = now
    }

    /// Takes a token if one is there.
    package mutating func take(_ limit: AnnouncementPolicy.RateLimit, at now: MonotonicInstant) -> Bool {
        refill(limit, at: now)
        // A hair of slack absorbs rounding when a deadline lands exactly on the refill instant.
        guard tokens >= 1 - 1e-9 else { return false }
        tokens = max(0, tokens - 1)
        return true
    }

    /// When the next whole token will be there.
    func nextTokenAt(_ limit: AnnouncementPolicy.RateLimit) -> MonotonicInstant {
        if tokens >= 1 { return updatedAt }
        let seconds = (1 - tokens) / limit.refillPerSecond
        return updatedAt + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
    }
}
