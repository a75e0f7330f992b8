import NarratorCommandLine
import NarratorEngines

/// `narratorctl experiment SPEC.json [TRACE...]` or `narratorctl experiment --rerun ID`.
public struct ExperimentRequest: Equatable, Sendable {
    /// The spec file; nil with `rerun`.
    public var spec: String?
    /// Traces that replace the spec's (paths from the current directory).
    public var traces: [String]
    /// Run the recorded experiment of this id again and compare.
    public var rerun: String?
    public var database: String?
    public var plot: String?
    public var csv: String?
    /// Overrides of the spec's `late`, `rate` and `voice`.
    public var late: Double?
    public var rate: Int?
    public var voice: String?
}

let experimentCommandSpec = CommandSpec(
    name: "experiment", summary: "sweep a policy's parameters over traces and compare every combination (offline)",
    arguments: [
        ArgumentSpec("SPEC.json", help: "the experiment: a base policy, the parameters to sweep, the traces (see docs/announcements.md)", optional: true),
        ArgumentSpec("TRACE", help: "traces to replay instead of the spec's", optional: true, variadic: true),
    ],
    options: [
        OptionSpec("--rerun", value: "ID", help: "run a recorded experiment again from its record and say whether every figure matches"),
        OptionSpec(
            "--db", value: "PATH", help: "where to record the experiment, or read it with --rerun", shownDefault: "$XDG_STATE_HOME/narrator/replays.db"),
        OptionSpec("--plot", value: "FILE.svg", help: "draw p95 latency against unheard messages per policy, the Pareto front joined"),
        OptionSpec("--csv", value: "FILE", help: "write one line per cell (policy × trace) with every figure"),
        OptionSpec("--late", value: "S", help: "a message started more than S seconds after it was queued is heard too late (default: the spec's, else 2)"),
        OptionSpec("--rate", value: "WPM", help: "speech rate for utterance lengths (default: the spec's, else 175)"),
        OptionSpec("--voice", value: "NAME", help: "voice for utterance lengths: eSpeak NG's, or ENGINE/VOICE such as flite/slt (default: the spec's, else en)"),
    ],
    discussion: """
        Expands the spec's sweep into every combination of its values over the base policy, replays
        each policy over each trace through the queue and speech scheduler on a virtual clock (the
        cells in parallel, with eSpeak NG's lengths measured once before), and prints one table per
        figure: latency p50/p95/p99, words heard, unheard messages, focus speech cut, messages heard
        too late, and the messages lost by outcome. Policies on the Pareto front (no other has both a
        lower p95 latency and fewer unheard messages) are marked "*" and listed. Every decision is
        logged under one experiment id, with a record (version, spec, policies, trace SHA-256s, voice,
        results) that --rerun ID checks against; --json prints all of it as one object.
        """,
    connects: .never,
    build: { parsed throws(UsageError) in
        func number(_ option: String, _ range: ClosedRange<Double>, _ what: String) throws(UsageError) -> Double? {
            guard let text = parsed.value(option) else { return nil }
            guard let n = Double(text), range.contains(n) else { throw UsageError("\(option) must be \(what), not \"\(text)\"", command: "experiment") }
            return n
        }
        let late = try number("--late", 0.001...1e6, "a number of seconds above 0")
        let rate = try number("--rate", Double(VoiceParameters.rates.lowerBound)...Double(VoiceParameters.rates.upperBound), "80 to 450 words per minute").map { value throws(UsageError) in
            guard value == value.rounded() else { throw UsageError("--rate must be a whole number of words per minute, not \"\(value)\"", command: "experiment") }
            return Int(value)
        }
        let rerun = parsed.value("--rerun")
        if rerun != nil {
            if !parsed.positionals.isEmpty {
                throw UsageError("--rerun takes its spec and traces from the record; give no SPEC or TRACE", command: "experiment")
            }
            for option in ["--late", "--rate", "--voice"] where parsed.value(option) != nil {
                throw UsageError("--rerun uses the recorded \(option.dropFirst(2)); \(option) cannot change it", command: "experiment")
            }
        } else if parsed.positionals.isEmpty {
            throw UsageError("give a SPEC.json, or --rerun ID", command: "experiment")
        }
        return .announcements(
            .experiment(
                ExperimentRequest(
                    spec: parsed.positionals.first, traces: Array(parsed.positionals.dropFirst()), rerun: rerun, database: parsed.value("--db"),
                    plot: parsed.value("--plot"), csv: parsed.value("--csv"), late: late, rate: rate, voice: parsed.value("--voice"))))
    })
