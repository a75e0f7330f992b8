import NarratorBase
import NarratorModel

/// The tunable rules of the announcement queue, named so that experiments can compare them.
///
/// A policy is small data: it parses from a JSON object (see ``parse(_:name:)``) and the three
/// built-ins ``none``, ``default`` and ``strict`` are documented in docs/announcements.md.
public struct AnnouncementPolicy: Sendable, Hashable {
    public var name: String
    /// Skip an announcement whose key is queued, speaking, or ended less than ``dedupWindow`` ago.
    public var deduplicate: Bool
    public var dedupWindow: Duration
    /// The rate limit per tree, a token bucket: at most `burst` at once, refilled at `refillPerSecond`.
    /// Nil: no rate limit.
    public var rateLimit: RateLimit?
    /// Keep the newest throttled announcement per control and speak it when the bucket refills,
    /// instead of dropping every throttled one.
    public var coalesce: Bool
    /// How long an announcement may wait in the queue; nil waits forever.
    public var timeToLive: Duration?
    /// How many announcements may wait at once, deferred ones included; nil is unbounded.
    public var queueLimit: Int?
    /// Focus moving to another tree cancels the `low` and `default` announcements of the tree left.
    public var flushOnFocusChange: Bool

    /// A token bucket: `burst` tokens, one per admitted announcement, refilled continuously.
    public struct RateLimit: Sendable, Hashable {
        public var burst: Int
        public var refillPerSecond: Double

        public init(burst: Int, refillPerSecond: Double) {
            self.burst = burst
            self.refillPerSecond = refillPerSecond
        }
    }

    public init(
        name: String, deduplicate: Bool, dedupWindow: Duration, rateLimit: RateLimit?, coalesce: Bool,
        timeToLive: Duration?, queueLimit: Int?, flushOnFocusChange: Bool
    ) {
        self.name = name
        self.deduplicate = deduplicate
        self.dedupWindow = dedupWindow
        self.rateLimit = rateLimit
        self.coalesce = coalesce
        self.timeToLive = timeToLive
        self.queueLimit = queueLimit
        self.flushOnFocusChange = flushOnFocusChange
    }

    /// Speak everything in arrival order (within priority), as Speech Dispatcher does for messages.
    public static let none = AnnouncementPolicy(
        name: "none", deduplicate: false, dedupWindow: .zero, rateLimit: nil, coalesce: false, timeToLive: nil,
        queueLimit: nil, flushOnFocusChange: false)

    /// The tuned policy: TalkBack's 1 s dedup window, Orca's 9-message queue and 45 s lifetime, and a
    /// bucket of 3 refilled every 2 s per screen, chosen from the replay experiments (docs/announcements.md).
    public static let `default` = AnnouncementPolicy(
        name: "default", deduplicate: true, dedupWindow: .seconds(1), rateLimit: RateLimit(burst: 3, refillPerSecond: 0.5),
        coalesce: true, timeToLive: .seconds(45), queueLimit: 9, flushOnFocusChange: true)

    /// For users who want little but the essentials: a 5 s dedup window, 2 at once then one every 4 s,
    /// a short queue and lifetime.
    public static let strict = AnnouncementPolicy(
        name: "strict", deduplicate: true, dedupWindow: .seconds(5), rateLimit: RateLimit(burst: 2, refillPerSecond: 0.25),
        coalesce: true, timeToLive: .seconds(10), queueLimit: 4, flushOnFocusChange: true)

    public static let builtIns: [AnnouncementPolicy] = [.none, .default, .strict]

    /// A built-in policy by name.
    public static func named(_ name: String) -> AnnouncementPolicy? {
        builtIns.first { $0.name == name }
    }

    /// The keys a policy file may hold.
    public static let keys = ["name", "base", "dedup", "dedupWindow", "burst", "refill", "coalesce", "ttl", "queueLimit", "flushOnFocus"]

    /// Parses a policy file: a JSON object whose members override a base policy, e.g.
    /// `{"name": "chatty", "base": "default", "burst": 6, "refill": 1.5}`. `refill: 0` or `burst: null`
    /// turns rate limiting off; `ttl: null` and `queueLimit: null` mean unbounded.
    public static func parse(_ json: JSONValue, name fallbackName: String) throws(AnnouncementPolicyError) -> AnnouncementPolicy {
        guard let object = json.objectValue else { throw .invalid(key: nil, "a policy is a JSON object, not \(json.typeName)") }
        var policy = AnnouncementPolicy.default
        if let base = object["base"] {
            guard let baseName = base.stringValue, let found = named(baseName) else {
                throw .invalid(key: "base", "expected one of \(builtIns.map(\.name).joined(separator: ", "))")
            }
            policy = found
        }
        policy.name = fallbackName
        for member in object.members {
            let value = member.value
            switch member.key {
            case "base": break
            case "name":
                guard let name = value.stringValue, !name.isEmpty else { throw .invalid(key: "name", "expected a non-empty string") }
                policy.name = name
            case "dedup": policy.deduplicate = try bool(value, "dedup")
            case "dedupWindow": policy.dedupWindow = try seconds(value, "dedupWindow")
            case "coalesce": policy.coalesce = try bool(value, "coalesce")
            case "flushOnFocus": policy.flushOnFocusChange = try bool(value, "flushOnFocus")
            case "ttl": policy.timeToLive = value.isNull ? nil : try seconds(value, "ttl")
            case "queueLimit": policy.queueLimit = value.isNull ? nil : try count(value, "queueLimit", minimum: 1)
            case "burst":
                if value.isNull {
                    policy.rateLimit = nil
                } else {
                    let burst = try count(value, "burst", minimum: 1)
                    policy.rateLimit = RateLimit(burst: burst, refillPerSecond: policy.rateLimit?.refillPerSecond ?? 0.5)
                }
            case "refill":
                let rate = value.isNull ? 0 : try seconds(value, "refill").asSeconds
                if rate == 0 {
                    policy.rateLimit = nil
                } else {
                    policy.rateLimit = RateLimit(burst: policy.rateLimit?.burst ?? 3, refillPerSecond: rate)
                }
            default:
                throw .invalid(key: member.key, "unknown parameter\(Suggestion.hint(for: member.key, in: keys))")
            }
        }
        return policy
    }

    /// The policy as the JSON a policy file holds (every parameter spelt out).
    public var json: JSONValue {
        [
            "name": .string(name), "dedup": .bool(deduplicate), "dedupWindow": .number(dedupWindow.asSeconds),
            "burst": rateLimit.map { .number(Double($0.burst)) } ?? .null,
            "refill": .number(rateLimit?.refillPerSecond ?? 0), "coalesce": .bool(coalesce),
            "ttl": timeToLive.map { .number($0.asSeconds) } ?? .null,
            "queueLimit": queueLimit.map { .number(Double($0)) } ?? .null, "flushOnFocus": .bool(flushOnFocusChange),
        ]
    }

    private static func bool(_ value: JSONValue, _ key: String) throws(AnnouncementPolicyError) -> Bool {
        guard let b = value.boolValue else { throw .invalid(key: key, "expected true or false, got \(value.typeName)") }
        return b
    }

    private static func seconds(_ value: JSONValue, _ key: String) throws(AnnouncementPolicyError) -> Duration {
        guard let n = value.numberValue, n >= 0, n < 1e9 else {
            throw .invalid(key: key, "expected a number of seconds of at least 0, got \(value.typeName)")
        }
        return .nanoseconds(Int64((n * 1e9).rounded()))
    }

    private static func count(_ value: JSONValue, _ key: String, minimum: Int) throws(AnnouncementPolicyError) -> Int {
        guard let n = value.numberValue, n == n.rounded(), n >= Double(minimum), n <= 1e6 else {
            throw .invalid(key: key, "expected a whole number of at least \(minimum)")
        }
        return Int(n)
    }
}

/// A policy file that cannot be used, with the parameter at fault.
public enum AnnouncementPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalid(key: String?, String)

    public var description: String {
        switch self {
        case .invalid(let key?, let reason): "policy parameter \"\(key)\": \(reason)"
        case .invalid(nil, let reason): "policy: \(reason)"
        }
    }
}
