import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorSpeechPlan

/// A throttling experiment as a researcher writes it: a base policy, the parameters to sweep and
/// their values, the traces to replay, and the speech to time them with. Parsed from a small JSON
/// file (docs/announcements.md, "Experiments"); paths stay as written, the CLI resolves them
/// against the spec file's directory.
public struct ExperimentSpec: Sendable, Equatable {
    /// One swept policy parameter (a policy file's key) and the values it takes, in file order.
    public struct Parameter: Sendable, Equatable {
        public var key: String
        public var values: [JSONValue]

        public init(key: String, values: [JSONValue]) {
            self.key = key
            self.values = values
        }
    }

    public var name: String
    /// A built-in policy's name or a policy file's path.
    public var base: String
    /// The grid's axes; the first varies slowest.
    public var sweep: [Parameter]
    public var traces: [String]
    /// A message that starts more than this many seconds after it was queued is "heard too late".
    public var late: Double
    /// The eSpeak NG voice whose lengths time the utterances; nil is the default voice.
    public var voice: String?
    /// Words per minute.
    public var rate: Int

    public init(name: String, base: String = "default", sweep: [Parameter], traces: [String] = [], late: Double = 2, voice: String? = nil, rate: Int = 175) {
        self.name = name
        self.base = base
        self.sweep = sweep
        self.traces = traces
        self.late = late
        self.voice = voice
        self.rate = rate
    }

    /// The keys a spec file may hold.
    public static let keys = ["name", "base", "sweep", "traces", "late", "voice", "rate"]
    /// Every parameter a policy file accepts, and so every one a sweep may vary.
    public static let sweepable = AnnouncementPolicy.keys.filter { $0 != "name" && $0 != "base" }
    /// More policies than this is a typo in a spec, not an experiment that finishes.
    public static let maximumPolicies = 2000
    public static let rates = VoiceParameters.rates

    /// Parses a spec file's JSON; `fallbackName` (the file's name) names an experiment without `name`.
    public static func parse(_ json: JSONValue, name fallbackName: String) throws(ExperimentSpecError) -> ExperimentSpec {
        guard let object = json.objectValue else { throw ExperimentSpecError(path: "spec", "expected a JSON object, not \(json.typeName)") }
        var spec = ExperimentSpec(name: fallbackName, sweep: [])
        var sawSweep = false
        for member in object.members {
            let value = member.value, key = member.key
            switch key {
            case "name":
                guard let name = value.stringValue, !name.isEmpty else { throw ExperimentSpecError(path: key, "expected a non-empty string") }
                spec.name = name
            case "base":
                guard let base = value.stringValue, !base.isEmpty else {
                    throw ExperimentSpecError(path: key, "expected a built-in policy (none, default, strict) or a policy file's path")
                }
                spec.base = base
            case "sweep":
                spec.sweep = try parameters(value)
                sawSweep = true
            case "traces":
                guard let list = value.arrayValue else { throw ExperimentSpecError(path: key, "expected an array of trace paths, not \(value.typeName)") }
                spec.traces = try list.enumerated().map { (index, item) throws(ExperimentSpecError) in
                    guard let path = item.stringValue, !path.isEmpty else {
                        throw ExperimentSpecError(path: "traces[\(index)]", "expected a trace file's path, not \(item.typeName)")
                    }
                    return path
                }
            case "late":
                guard let seconds = value.numberValue, seconds > 0, seconds < 1e6 else {
                    throw ExperimentSpecError(path: key, "expected a number of seconds above 0, not \(value.typeName)")
                }
                spec.late = seconds
            case "voice":
                if value.isNull {
                    spec.voice = nil
                } else {
                    guard let voice = value.stringValue, !voice.isEmpty else { throw ExperimentSpecError(path: key, "expected a voice name or null") }
                    spec.voice = voice
                }
            case "rate":
                guard let n = value.numberValue, n == n.rounded(), rates.contains(Int(exactly: n) ?? 0) else {
                    throw ExperimentSpecError(path: key, "expected a whole number of words per minute from \(rates.lowerBound) to \(rates.upperBound)")
                }
                spec.rate = Int(n)
            default:
                throw ExperimentSpecError(path: key, "unknown key\(Suggestion.hint(for: key, in: keys))")
            }
        }
        guard sawSweep else { throw ExperimentSpecError(path: "sweep", "missing: name the parameters to vary, e.g. {\"burst\": [2, 3, 4]}") }
        return spec
    }

    private static func parameters(_ value: JSONValue) throws(ExperimentSpecError) -> [Parameter] {
        guard let object = value.objectValue else {
            throw ExperimentSpecError(path: "sweep", "expected an object of parameter: [values], not \(value.typeName)")
        }
        guard !object.members.isEmpty else { throw ExperimentSpecError(path: "sweep", "no parameters: sweep at least one") }
        var parameters: [Parameter] = []
        for member in object.members {
            let path = "sweep.\(member.key)"
            guard sweepable.contains(member.key) else {
                throw ExperimentSpecError(path: path, "not a policy parameter\(Suggestion.hint(for: member.key, in: sweepable))")
            }
            guard let values = member.value.arrayValue else { throw ExperimentSpecError(path: path, "expected an array of values, not \(member.value.typeName)") }
            guard !values.isEmpty else { throw ExperimentSpecError(path: path, "no values: give at least one") }
            for (index, candidate) in values.enumerated() {
                // Each value is checked exactly as a policy file's would be.
                do {
                    _ = try AnnouncementPolicy.parse([member.key: candidate], name: "check")
                } catch {
                    throw ExperimentSpecError(path: "\(path)[\(index)]", error.reason)
                }
                if values[..<index].contains(candidate) {
                    throw ExperimentSpecError(path: "\(path)[\(index)]", "\(candidate.compactText) is listed twice")
                }
            }
            parameters.append(Parameter(key: member.key, values: values))
        }
        let count = parameters.reduce(1) { $0 * $1.values.count }
        guard count <= maximumPolicies else {
            throw ExperimentSpecError(path: "sweep", "\(count) policies; at most \(maximumPolicies) in one experiment")
        }
        return parameters
    }

    /// Every combination of the swept values applied to `base`, the first parameter varying
    /// slowest, each named by its values (`burst=3,refill=0.5`).
    ///
    /// `burst` and `refill` are one token bucket: a cell's bucket is its burst and refill (swept,
    /// else the base's), and none when either is null or the refill is 0, whatever order they
    /// are listed in.
    public func policies(from base: AnnouncementPolicy) throws(ExperimentSpecError) -> [AnnouncementPolicy] {
        let swept = Set(sweep.map(\.key))
        if swept.contains("burst"), !swept.contains("refill"), base.rateLimit == nil {
            throw ExperimentSpecError(
                path: "sweep.burst", "the base policy \"\(base.name)\" has no rate limit (refill 0), so its burst changes nothing; sweep refill too, or choose another base")
        }
        var combinations: [[JSONValue]] = [[]]
        for parameter in sweep {
            combinations = combinations.flatMap { prefix in parameter.values.map { prefix + [$0] } }
        }
        var policies: [AnnouncementPolicy] = []
        for values in combinations {
            let name = zip(sweep, values).map { "\($0.key)=\(Self.label($1))" }.joined(separator: ",")
            var object = base.json.objectValue ?? JSONObject()
            for (parameter, value) in zip(sweep, values) { object[parameter.key] = value }
            object["name"] = .string(name)
            var policy: AnnouncementPolicy
            do {
                policy = try AnnouncementPolicy.parse(.object(object), name: name)
            } catch {
                throw ExperimentSpecError(path: "sweep", "\(name): \(error.reason)")
            }
            // The bucket from both values, not from whichever the parser met last.
            let burst = object["burst"]?.numberValue.map { Int($0) }
            let refill = object["refill"]?.numberValue ?? 0
            policy.rateLimit = burst.flatMap { refill > 0 ? AnnouncementPolicy.RateLimit(burst: $0, refillPerSecond: refill) : nil }
            policies.append(policy)
        }
        return policies
    }

    /// A value as it appears in a policy's name.
    static func label(_ value: JSONValue) -> String {
        if let n = value.numberValue { return JSONWriter.format(n) }
        return value.compactText
    }

    /// The spec as a file would hold it, every key spelt out (for the experiment's record).
    public var json: JSONValue {
        var sweepObject = JSONObject()
        for parameter in sweep { sweepObject[parameter.key] = .array(parameter.values) }
        return [
            "name": .string(name), "base": .string(base), "sweep": .object(sweepObject), "traces": .array(traces.map(JSONValue.string)),
            "late": .number(late), "voice": .optional(voice), "rate": .number(Double(rate)),
        ]
    }
}

/// A spec that cannot be run, with where in it the fault is (`sweep.burst[1]`, `traces[0]`).
public struct ExperimentSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

extension AnnouncementPolicyError {
    /// The reason without the key (a spec names the place itself).
    public var reason: String {
        switch self {
        case .invalid(_, let reason): reason
        }
    }
}
