import NarratorBase
import NarratorExperiments
import NarratorModel
import NarratorSpeechPlan
import Testing

@Suite("Throttling experiments: specs, grids, figures, the Pareto front")
struct ExperimentTests {
    func spec(_ text: String) throws -> ExperimentSpec {
        try ExperimentSpec.parse(try JSONParser().parse(text), name: "file")
    }

    func specError(_ text: String) -> ExperimentSpecError? {
        do {
            _ = try spec(text)
            return nil
        } catch let error as ExperimentSpecError {
            return error
        } catch {
            return nil
        }
    }

    @Test("a spec's every key is read, and its name defaults to the file's")
    func parseSpec() throws {
        let parsed = try spec(
            #"{"base": "strict", "sweep": {"burst": [2, 3], "ttl": [null, 5]}, "traces": ["a.jsonl"], "late": 1.5, "voice": "en-gb", "rate": 200}"#)
        #expect(parsed.name == "file")
        #expect(parsed.base == "strict")
        #expect(parsed.sweep == [.init(key: "burst", values: [2, 3]), .init(key: "ttl", values: [nil, 5])])
        #expect(parsed.traces == ["a.jsonl"])
        #expect(parsed.late == 1.5)
        #expect(parsed.voice == "en-gb")
        #expect(parsed.rate == 200)
        let defaults = try spec(#"{"name": "n", "sweep": {"refill": [1]}}"#)
        #expect(defaults.name == "n")
        #expect(defaults.base == "default")
        #expect(defaults.late == 2)
        #expect(defaults.voice == nil)
        #expect(defaults.rate == 175)
    }

    @Test("a fault in a spec names its place")
    func specErrors() {
        #expect(specError(#"{"sweep": {"burst": [2, "3"]}}"#) == ExperimentSpecError(path: "sweep.burst[1]", "expected a whole number of at least 1"))
        #expect(specError(#"{"sweep": {"burst": []}}"#) == ExperimentSpecError(path: "sweep.burst", "no values: give at least one"))
        #expect(specError(#"{"sweep": {"dedupWindow": [1, -1]}}"#)?.path == "sweep.dedupWindow[1]")
        #expect(specError(#"{"sweep": {"coalesce": [true, 1]}}"#) == ExperimentSpecError(path: "sweep.coalesce[1]", "expected true or false, got a number"))
        #expect(specError(#"{"sweep": {"burst": [2, 2]}}"#) == ExperimentSpecError(path: "sweep.burst[1]", "2 is listed twice"))
        #expect(specError(#"{"sweep": {"bursts": [2]}}"#) == ExperimentSpecError(path: "sweep.bursts", "not a policy parameter; did you mean \"burst\"?"))
        #expect(specError(#"{"sweep": {"name": ["x"]}}"#)?.path == "sweep.name")
        #expect(specError(#"{"sweep": {}}"#) == ExperimentSpecError(path: "sweep", "no parameters: sweep at least one"))
        #expect(specError(#"{"swep": {"burst": [2]}}"#) == ExperimentSpecError(path: "swep", "unknown key; did you mean \"sweep\"?"))
        #expect(specError(#"{"base": "default"}"#)?.path == "sweep")
        #expect(specError(#"{"sweep": {"burst": [2]}, "traces": ["a", 3]}"#) == ExperimentSpecError(path: "traces[1]", "expected a trace file's path, not a number"))
        #expect(specError(#"{"sweep": {"burst": [2]}, "rate": 20}"#)?.path == "rate")
        #expect(specError(#"{"sweep": {"burst": [2]}, "late": 0}"#)?.path == "late")
        #expect(specError(#"[1]"#)?.path == "spec")
        let big = "[" + (1...50).map(String.init).joined(separator: ",") + "]"
        #expect(specError(#"{"sweep": {"burst": \#(big), "queueLimit": \#(big)}}"#) == ExperimentSpecError(path: "sweep", "2500 policies; at most 2000 in one experiment"))
    }

    @Test("the grid is every combination, the first parameter slowest, each named by its values")
    func grid() throws {
        let policies = try spec(#"{"sweep": {"burst": [2, 4], "refill": [0.5, 1], "flushOnFocus": [false]}}"#).policies(from: .default)
        #expect(policies.map(\.name) == [
            "burst=2,refill=0.5,flushOnFocus=false", "burst=2,refill=1,flushOnFocus=false",
            "burst=4,refill=0.5,flushOnFocus=false", "burst=4,refill=1,flushOnFocus=false",
        ])
        #expect(policies.map(\.rateLimit) == [.init(burst: 2, refillPerSecond: 0.5), .init(burst: 2, refillPerSecond: 1), .init(burst: 4, refillPerSecond: 0.5), .init(burst: 4, refillPerSecond: 1)])
        // What is not swept is the base's.
        for policy in policies {
            #expect(policy.flushOnFocusChange == false)
            #expect(policy.dedupWindow == AnnouncementPolicy.default.dedupWindow)
            #expect(policy.queueLimit == AnnouncementPolicy.default.queueLimit)
            #expect(policy.timeToLive == AnnouncementPolicy.default.timeToLive)
        }
    }

    @Test("burst and refill make one bucket whatever their order; refill 0 or burst null turns it off")
    func bucket() throws {
        let policies = try spec(#"{"sweep": {"refill": [0, 2], "burst": [null, 5]}}"#).policies(from: .strict)
        #expect(policies.map(\.rateLimit) == [nil, nil, nil, .init(burst: 5, refillPerSecond: 2)])
        #expect(policies.allSatisfy { $0.dedupWindow == AnnouncementPolicy.strict.dedupWindow })
        #expect(throws: ExperimentSpecError.self) { try spec(#"{"sweep": {"burst": [2, 3]}}"#).policies(from: .none) }
        let fromNone = try spec(#"{"sweep": {"burst": [2], "refill": [1]}}"#).policies(from: .none)
        #expect(fromNone.first?.rateLimit == .init(burst: 2, refillPerSecond: 1))
        #expect(fromNone.first?.deduplicate == false)
    }

    @Test("a swept policy survives the record's round trip exactly")
    func policyRoundTrip() throws {
        for policy in try spec(#"{"sweep": {"dedupWindow": [0.3, 1.7], "ttl": [null, 2.5], "queueLimit": [null, 3]}}"#).policies(from: .default) {
            #expect(try AnnouncementPolicy.parse(policy.json, name: "x") == policy)
        }
    }

    // MARK: Figures

    static let zero = MonotonicInstant(nanoseconds: 0)
    static func at(_ seconds: Double) -> MonotonicInstant { zero + .milliseconds(Int64(seconds * 1000)) }

    static func announcement(_ id: UInt64, _ text: String, _ outcome: AnnouncementOutcome, queued: Double, started: Double?, ended: Double) -> AnnouncementRecord {
        AnnouncementRecord(
            announcement: Announcement(id: AnnouncementID(id), text: text), policy: "p", outcome: outcome, queuedAt: at(queued),
            startedAt: started.map(at), endedAt: at(ended), duplicateOf: nil)
    }

    static func speech(_ id: UInt64, _ kind: SpeechKind, _ text: String, _ outcome: AnnouncementOutcome, queued: Double, started: Double?, ended: Double, by: SpeechKind? = nil) -> SpeechRecord {
        SpeechRecord(
            utterance: UtteranceID(id), kind: kind, text: text, tree: "t", element: nil, queuedAt: at(queued), startedAt: started.map(at),
            endedAt: at(ended), outcome: outcome, interruptedBy: by)
    }

    @Test("figures from hand-made lives: latency, words heard (a cut one by the fraction played), losses, focus cut, too late")
    func measuredFigures() {
        let records = [
            Self.announcement(1, "one two", .spoken, queued: 0, started: 0, ended: 2),
            Self.announcement(2, "three four five six", .interrupted, queued: 1, started: 2, ended: 3),  // half of 2 s played
            Self.announcement(3, "seven", .throttled, queued: 1, started: nil, ended: 1),
            Self.announcement(4, "one two", .deduplicated, queued: 1.5, started: nil, ended: 1.5),
            Self.announcement(5, "late one", .spoken, queued: 1, started: 6, ended: 8),
        ]
        let speech = [
            // An SSIP message counts as a message; focus and hint are the user's own speech.
            Self.speech(10, .ssip(.message), "ssip words here", .spoken, queued: 8, started: 8.5, ended: 10.5),
            Self.speech(11, .focus, "Send, button", .interrupted, queued: 3, started: 3, ended: 3.5, by: .announcement(.high)),  // a quarter of 2 s
            Self.speech(12, .hint, "press enter", .interrupted, queued: 4, started: 4, ended: 5, by: .focus),  // cut by the user, not a message
            Self.speech(13, .focus, "never", .cancelled, queued: 5, started: nil, ended: 5),
        ]
        let metrics = ExperimentMetrics.measure(records: records, speech: speech, length: { _ in .seconds(2) }, late: 1.5)
        #expect(metrics.messages == 6)
        #expect(metrics.latencies == [0, 0.5, 1, 5])
        #expect(metrics.p50 == 1)  // rank round(0.5 · 3) = 2 of [0, 0.5, 1, 5]
        #expect(metrics.p95 == 5)
        #expect(metrics.p99 == 5)
        #expect(metrics.outcomes[.spoken] == 3)
        #expect(metrics.outcomes[.interrupted] == 1)
        #expect(metrics.outcomes[.throttled] == 1)
        #expect(metrics.outcomes[.deduplicated] == 1)
        #expect(metrics.outcomes[.expired] == 0)
        #expect(metrics.unheard == 2)
        // 2 + 4·½ + 2 + 3 (messages) + 2·¼ + 2·½ (own speech, cut) = 10.5
        #expect(metrics.wordsHeard == 10.5)
        #expect(metrics.focusCut == 1)
        #expect(metrics.tooLate == 1)
    }

    @Test("a trace replayed under `none` with every text 1 s long gives exact figures")
    func replayedFigures() throws {
        let trace = try AnnouncementTrace.parse("""
            {"at": 0, "kind": "announce", "text": "first message", "tree": "app"}
            {"at": 0, "kind": "announce", "text": "second message", "tree": "app"}
            {"at": 0, "kind": "announce", "text": "third message here", "tree": "app"}
            """)
        let lengths = SpeechLengths(["first message": .seconds(1), "second message": .seconds(1), "third message here": .seconds(1)])
        let cell = ExperimentCell.replay(trace, trace: 0, policy: .none, lengths: lengths, late: 1.5)
        // One after another: queued at 0, started at 0, 1 and 2.
        #expect(cell.metrics.latencies == [0, 1, 2])
        #expect(cell.metrics.p50 == 1)
        #expect(cell.metrics.p95 == 2)
        #expect(cell.metrics.wordsHeard == 7)
        #expect(cell.metrics.unheard == 0)
        #expect(cell.metrics.tooLate == 1)
        // Under a bucket of one that never refills in time, the two others are throttled.
        var bucket = AnnouncementPolicy.none
        bucket.name = "bucket"
        bucket.rateLimit = .init(burst: 1, refillPerSecond: 0.01)
        let throttled = ExperimentCell.replay(trace, trace: 0, policy: bucket, lengths: lengths, late: 1.5)
        #expect(throttled.metrics.outcomes[.throttled] == 2)
        #expect(throttled.metrics.unheard == 2)
        #expect(throttled.metrics.p95 == 0)
        #expect(throttled.metrics.wordsHeard == 2)
    }

    @Test("all traces: counts summed, latencies pooled before the percentile")
    func combined() {
        let a = ExperimentMetrics(messages: 3, outcomes: [.spoken: 2, .throttled: 1], latencies: [0, 1], wordsHeard: 4, focusCut: 1, tooLate: 0)
        let b = ExperimentMetrics(messages: 2, outcomes: [.spoken: 1, .dropped: 1], latencies: [9], wordsHeard: 2.5, focusCut: 0, tooLate: 1)
        let all = ExperimentMetrics.combined([a, b])
        #expect(all.messages == 5)
        #expect(all.latencies == [0, 1, 9])
        #expect(all.p50 == 1)
        #expect(all.unheard == 2)
        #expect(all.wordsHeard == 6.5)
        #expect(all.focusCut == 1)
        #expect(all.tooLate == 1)
    }

    @Test("the Pareto front: nothing else is no worse on both and better on one")
    func paretoFront() {
        let points: [(unheard: Int, p95: Double?)] = [
            (10, 5.0),  // 0: front (fewest unheard)
            (20, 1.0),  // 1: front (lowest latency)
            (15, 3.0),  // 2: front (between)
            (15, 4.0),  // 3: dominated by 2
            (20, 1.0),  // 4: identical to 1: both stay
            (25, 0.5),  // 5: front
            (30, 0.5),  // 6: dominated by 5 (same latency, more unheard)
            (5, nil),  // 7: no latency: left out
        ]
        #expect(ParetoFront.indices(points) == [0, 1, 2, 4, 5])
        #expect(ParetoFront.indices([]) == [])
    }

    @Test("a rerun's comparison names each figure that differs")
    func differences() throws {
        let metrics = ExperimentMetrics(messages: 2, outcomes: [.spoken: 2], latencies: [0, 1], wordsHeard: 4, focusCut: 0, tooLate: 0)
        var policy = AnnouncementPolicy.default
        policy.name = "p"
        let results = ExperimentResults(policies: [policy], traces: ["t"], metrics: [[metrics]], late: 2)
        let record = ExperimentRecord(
            experiment: "e", createdAt: 0, spec: nil, specFile: "/s.json", policies: [policy], traces: [.init(path: "/x/t.jsonl", sha256: "00", events: 2)],
            voice: nil, rate: 175, late: 2, results: ["cells": results.cellsJSON(tracePaths: ["/x/t.jsonl"])])
        #expect(record.differences(from: results).isEmpty)
        var changed = metrics
        changed.wordsHeard = 3.5
        let other = ExperimentResults(policies: [policy], traces: ["t"], metrics: [[changed]], late: 2)
        let found = record.differences(from: other)
        #expect(found.count == 1)
        #expect(found.first?.cell == "p × t")
        #expect(found.first?.detail == "wordsHeard recorded 4, now 3.5")
        // The record reads back as written.
        #expect(try ExperimentRecord.parse(record.json) == record)
    }
}
