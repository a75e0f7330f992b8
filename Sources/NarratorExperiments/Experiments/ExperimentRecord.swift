import NarratorModel
import NarratorSpeechPlan

/// What an experiment keeps (as JSON in `experiments.record`) so that anyone can run it again and
/// check the figures: the Narrator version, the spec as given, every policy's full parameters,
/// each trace's path and SHA-256, the voice and rate, and the results.
public struct ExperimentRecord: Sendable, Equatable {
    public struct Trace: Sendable, Equatable {
        /// Absolute, as read.
        public var path: String
        public var sha256: String
        public var events: Int

        public init(path: String, sha256: String, events: Int) {
            self.path = path
            self.sha256 = sha256
            self.events = events
        }
    }

    public var version: String
    public var experiment: String
    public var createdAt: Double
    /// The spec file's JSON exactly as parsed, and where it was.
    public var spec: JSONValue
    public var specFile: String
    public var policies: [AnnouncementPolicy]
    public var traces: [Trace]
    public var voice: String?
    /// The synthesizer that timed every utterance ("eSpeak NG 1.51"; nil in older records).
    public var synthesizer: String?
    public var rate: Int
    public var late: Double
    /// `{"cells": [{policy, trace, metrics}], "front": [{policy, p95, unheard}]}`.
    public var results: JSONValue

    public init(
        version: String = NarratorVersion.daemon, experiment: String, createdAt: Double, spec: JSONValue, specFile: String,
        policies: [AnnouncementPolicy], traces: [Trace], voice: String?, synthesizer: String? = nil, rate: Int, late: Double, results: JSONValue
    ) {
        self.version = version
        self.experiment = experiment
        self.createdAt = createdAt
        self.spec = spec
        self.specFile = specFile
        self.policies = policies
        self.traces = traces
        self.voice = voice
        self.synthesizer = synthesizer
        self.rate = rate
        self.late = late
        self.results = results
    }

    public var json: JSONValue {
        [
            "narrator": .string(version), "experiment": .string(experiment), "createdAt": .number(createdAt), "spec": spec,
            "specFile": .string(specFile), "policies": .array(policies.map(\.json)),
            "traces": .array(traces.map { ["path": .string($0.path), "sha256": .string($0.sha256), "events": .number(Double($0.events))] }),
            "voice": .optional(voice), "synthesizer": .optional(synthesizer), "rate": .number(Double(rate)), "late": .number(late), "results": results,
        ]
    }

    /// Reads a stored record back; a fault names its place (`record.policies[2]: ...`).
    public static func parse(_ json: JSONValue) throws(ExperimentSpecError) -> ExperimentRecord {
        func fail(_ path: String, _ reason: String) -> ExperimentSpecError { ExperimentSpecError(path: "record" + path, reason) }
        guard let object = json.objectValue else { throw fail("", "expected a JSON object") }
        func string(_ key: String) throws(ExperimentSpecError) -> String {
            guard let value = object[key]?.stringValue else { throw fail(".\(key)", "expected a string") }
            return value
        }
        func number(_ key: String) throws(ExperimentSpecError) -> Double {
            guard let value = object[key]?.numberValue else { throw fail(".\(key)", "expected a number") }
            return value
        }
        guard let policyList = object["policies"]?.arrayValue else { throw fail(".policies", "expected an array") }
        var policies: [AnnouncementPolicy] = []
        for (index, item) in policyList.enumerated() {
            do {
                policies.append(try AnnouncementPolicy.parse(item, name: "policy\(index)"))
            } catch {
                throw fail(".policies[\(index)]", error.description)
            }
        }
        guard let traceList = object["traces"]?.arrayValue else { throw fail(".traces", "expected an array") }
        var traces: [Trace] = []
        for (index, item) in traceList.enumerated() {
            guard let path = item["path"]?.stringValue, let hash = item["sha256"]?.stringValue, let events = item["events"]?.numberValue else {
                throw fail(".traces[\(index)]", "expected {path, sha256, events}")
            }
            traces.append(Trace(path: path, sha256: hash, events: Int(events)))
        }
        guard let results = object["results"], results["cells"]?.arrayValue != nil else { throw fail(".results.cells", "expected an array") }
        return ExperimentRecord(
            version: try string("narrator"), experiment: try string("experiment"), createdAt: try number("createdAt"), spec: object["spec"] ?? .null,
            specFile: try string("specFile"), policies: policies, traces: traces, voice: object["voice"]?.stringValue,
            synthesizer: object["synthesizer"]?.stringValue, rate: Int(try number("rate")),
            late: try number("late"), results: results)
    }

    /// Where `results` differ from the recorded ones, one entry per figure (empty: reproduced):
    /// the cell (`policy × trace`) and what differs. Figures are compared to a billionth,
    /// relative, so that only a real change shows.
    public func differences(from results: ExperimentResults) -> [(cell: String, detail: String)] {
        let recorded = self.results["cells"]?.arrayValue ?? []
        var now: [(policy: String, trace: String, metrics: ExperimentMetrics)] = []
        for (p, policy) in results.policies.enumerated() {
            for (t, cell) in results.metrics[p].enumerated() { now.append((policy.name, traces.indices.contains(t) ? traces[t].path : results.traces[t], cell)) }
        }
        guard recorded.count == now.count else { return [("grid", "\(recorded.count) cells recorded, \(now.count) now")] }
        var lines: [(cell: String, detail: String)] = []
        for (cell, fresh) in zip(recorded, now) {
            let where_ = "\(fresh.policy) × \(Self.shortName(fresh.trace))"
            guard cell["policy"]?.stringValue == fresh.policy, cell["trace"]?.stringValue == fresh.trace else {
                lines.append((where_, "recorded as \(cell["policy"]?.stringValue ?? "?") × \(cell["trace"]?.stringValue ?? "?")"))
                continue
            }
            for figure in fresh.metrics.figures {
                let old = cell["metrics"]?[figure.name]
                let oldValue = old?.numberValue
                let same: Bool
                switch (oldValue, figure.value) {
                case (nil, nil): same = old != nil
                case (let a?, let b?): same = abs(a - b) <= 1e-9 * max(1, abs(a))
                default: same = false
                }
                if !same {
                    let text = { (value: Double?) in value.map(JSONWriter.format) ?? "none" }
                    lines.append((where_, "\(figure.name) recorded \(old == nil ? "missing" : text(oldValue)), now \(text(figure.value))"))
                }
            }
        }
        return lines
    }

    /// A trace's name in tables: its file name without the directory and `.jsonl`.
    public static func shortName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        for suffix in [".jsonl", ".json"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name
    }
}
