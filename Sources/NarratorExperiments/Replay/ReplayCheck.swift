import NarratorSpeechPlan

/// A trace exported from the live log replayed under the policies it ran with, each outcome
/// compared with the one the daemon logged: how a researcher knows the replay is faithful before
/// trusting what it says of another policy.
public struct ReplayCheck {
    /// An event whose replayed outcome is not the logged one.
    public struct Mismatch: Sendable, Hashable {
        /// The trace line it came from.
        public var line: Int
        public var event: TraceEvent
        public var logged: AnnouncementOutcome
        /// Nil when the replay gave it no outcome.
        public var replayed: AnnouncementOutcome?
    }

    /// The policies the trace's rows name: the daemon's (what decided SSIP messages, and
    /// announcements without a policy of their tree's own) and each tree's where it differs.
    public struct Policies: Sendable, Hashable {
        public var daemon: String
        public var trees: [String: String]

        public init(daemon: String, trees: [String: String]) {
            self.daemon = daemon
            self.trees = trees
        }

        /// Every name, the daemon's first, each once.
        public var names: [String] {
            var seen: Set<String> = [daemon]
            return [daemon] + trees.values.sorted().filter { seen.insert($0).inserted }
        }
    }

    public private(set) var simulation: AnnouncementSimulation
    /// Events with a logged outcome that were compared.
    public private(set) var compared = 0
    public private(set) var mismatches: [Mismatch] = []

    /// - Parameters:
    ///   - policies: the policy for every name ``policies(of:)`` found.
    ///   - duration: how long a text takes to say when the trace does not say how long it played.
    public init(
        _ trace: [(line: Int, event: TraceEvent)], policies: [String: AnnouncementPolicy], duration: @escaping (String) -> Duration
    ) throws(AnnouncementPolicyError) {
        let names = Self.policies(of: trace.map(\.event))
        guard let daemon = policies[names.daemon] else { throw .invalid(key: nil, "no policy named \"\(names.daemon)\" was given") }
        simulation = AnnouncementSimulation(policy: daemon, duration: duration)
        for (tree, name) in names.trees.sorted(by: { $0.key < $1.key }) {
            guard let policy = policies[name] else { throw .invalid(key: nil, "no policy named \"\(name)\" was given (tree \"\(tree)\")") }
            simulation.setPolicy(policy, forTree: tree)
        }
        simulation.run(trace.map(\.event))
        for (index, item) in trace.enumerated() {
            guard let logged = item.event.logged else { continue }
            compared += 1
            let replayed = simulation.outcomes[index]
            if replayed != logged { mismatches.append(Mismatch(line: item.line, event: item.event, logged: logged, replayed: replayed)) }
        }
    }

    /// Which policy decided what in the recorded run: SSIP messages are judged by the daemon's
    /// policy, so theirs is the daemon's; without any, the policy of announcements without a tree,
    /// else the one most announcements name (`default` when none does). A tree whose
    /// announcements name another policy had that one.
    public static func policies(of events: [TraceEvent]) -> Policies {
        func mostCommon(_ names: [String]) -> String? {
            var counts: [String: Int] = [:]
            for name in names { counts[name, default: 0] += 1 }
            return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        var ssip: [String] = [], treeless: [String] = [], all: [String] = []
        var byTree: [String: [String]] = [:]
        for event in events {
            guard let policy = event.policy else { continue }
            switch event.kind {
            case .ssip: ssip.append(policy)
            case .announce:
                all.append(policy)
                if let tree = event.tree { byTree[tree, default: []].append(policy) } else { treeless.append(policy) }
            default: break
            }
        }
        let daemon = mostCommon(ssip) ?? mostCommon(treeless) ?? mostCommon(all) ?? AnnouncementPolicy.default.name
        var trees: [String: String] = [:]
        for (tree, names) in byTree {
            if let name = mostCommon(names), name != daemon { trees[tree] = name }
        }
        return Policies(daemon: daemon, trees: trees)
    }
}
