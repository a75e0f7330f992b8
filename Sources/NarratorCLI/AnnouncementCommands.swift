import NarratorCommandLine
import NarratorEngines
import NarratorSpeechPlan

/// The offline commands about announcements: replay traces, read the log, summarize it.
public enum AnnouncementCommand: Equatable, Sendable {
    case replay(ReplayRequest)
    case experiment(ExperimentRequest)
    case log(LogRequest)
    case stats(LogRequest)
}

/// `narratorctl replay TRACE --policy P ...`.
public struct ReplayRequest: Equatable, Sendable {
    public var trace: String
    /// Built-in policy names or policy files, in table order (default: none, default, strict).
    public var policies: [String]
    public var database: String?
    public var timeline: String?
    /// eSpeak NG's rate in words per minute for utterance lengths.
    public var rate: Int
    public var voice: String?
    /// `--check`: replay under the policies the trace was logged with and compare each outcome.
    public var check = false
}

/// `narratorctl log` and `stats`: where to read and which rows.
public struct LogRequest: Equatable, Sendable {
    public enum Format: Equatable, Sendable { case table, json, csv, trace }
    /// `--db`; nil reads the running daemon's log, else the default file (see `LogCommand.locate`).
    public var database: String?
    /// `--socket`: the daemon asked where its log is when `database` is nil.
    public var socket: String?
    /// A duration back from now ("10m", "2h", "90s", "1d") or a local time ("2026-11-29T15:00", "2026-11-29").
    public var since: String?
    /// The same forms as `since`: rows queued before it.
    public var until: String?
    public var outcome: String?
    public var tree: String?
    public var experiment: String?
    public var policy: String?
    /// `--client`: a client's whole name or its SSIP application ("orca").
    public var client: String?
    public var limit: Int?
    public var format: Format
}

private let readDatabaseOption = OptionSpec(
    "--db", value: "PATH",
    help: "the log database (default: the running narratord's, else $XDG_STATE_HOME/narrator/narrator.db; replays.db there with --experiment)")
private let replayDatabaseOption = OptionSpec(
    "--db", value: "PATH", help: "where to record the experiment (never the live log unless named here)",
    shownDefault: "$XDG_STATE_HOME/narrator/replays.db")
private let whichLog = """
    Reads the log of the narratord that answers at the socket (the file its "status" shows, wherever
    its --db put it) unless --db names one; without a daemon, the default file; for replay experiments
    (--experiment), the replay database, $XDG_STATE_HOME/narrator/replays.db. Says on standard error
    which file it read.
    """

private func logRequest(_ parsed: ParsedArguments, command: String) throws(UsageError) -> LogRequest {
    var limit: Int?
    if let text = parsed.value("--limit") {
        guard let n = Int(text), n > 0 else { throw UsageError("--limit must be a whole number above 0, not \"\(text)\"", command: command) }
        limit = n
    }
    for option in ["--since", "--until"] {
        if let time = parsed.value(option), LogTime.parse(time, now: 0) == nil {
            throw UsageError("\(option) takes a duration such as 90s, 10m, 2h, 1d or a time such as 2026-11-29T15:00, not \"\(time)\"", command: command)
        }
    }
    let formats = ["--csv", "--json", "--trace"].filter(parsed.has)
    if formats.count > 1 { throw UsageError("give one of --json, --csv and --trace, not \(formats.joined(separator: " and "))", command: command) }
    if parsed.has("--trace") {
        for option in ["--outcome", "--limit", "--experiment", "--policy"] where parsed.value(option) != nil {
            throw UsageError("--trace exports every row in the time range, so \(option) does not go with it (a trace with rows left out replays differently)", command: command)
        }
    }
    return LogRequest(
        database: parsed.value("--db"), socket: parsed.value("--socket"), since: parsed.value("--since"), until: parsed.value("--until"), outcome: parsed.value("--outcome"), tree: parsed.value("--tree"),
        experiment: parsed.value("--experiment"), policy: parsed.value("--policy"), client: parsed.value("--client"), limit: limit,
        format: parsed.has("--csv") ? .csv : parsed.has("--json") ? .json : parsed.has("--trace") ? .trace : .table)
}

private let filterOptions: [OptionSpec] = [
    OptionSpec("--since", value: "DURATION|TIME", help: "rows queued in the last DURATION (90s, 10m, 2h, 1d) or since TIME (2026-11-29T15:00)"),
    OptionSpec("--until", value: "DURATION|TIME", help: "rows queued before DURATION ago or before TIME"),
    OptionSpec("--tree", value: "TREE", help: "only this tree's rows"),
    OptionSpec("--client", value: "NAME", help: "only this client's rows: its name, or an SSIP client's application (orca for user:orca:default), any case"),
    OptionSpec("--experiment", value: "ID", help: "rows of a replay experiment instead of live ones"),
    OptionSpec("--policy", value: "NAME", help: "only rows decided by this policy"),
    readDatabaseOption,
]

/// Specs for `replay`, `log` and `stats` (listed by `narratorctl help`).
let announcementCommandSpecs: [CommandSpec] = [
    CommandSpec(
        name: "replay", summary: "replay an announcement trace under policies and compare them (offline)",
        arguments: [ArgumentSpec("TRACE", help: "a JSON-lines trace (see examples/traces)")],
        options: [
            OptionSpec("--policy", value: "NAME|FILE", help: "none, default, strict, or a policy file (repeatable; default: all three)", repeatable: true),
            replayDatabaseOption,
            OptionSpec("--timeline", value: "FILE.svg", help: "draw every decision per policy as SVG (the output names the file)"),
            OptionSpec("--rate", value: "WPM", help: "speech rate for utterance lengths (default 175)"),
            OptionSpec("--voice", value: "NAME", help: "voice for utterance lengths: eSpeak NG's, or ENGINE/VOICE such as flite/slt or piper/joe (default: en)"),
            OptionSpec("--check", help: "replay a trace from log --trace under the policies it ran with; exit 1 unless every logged outcome comes back"),
        ],
        discussion: """
            Feeds the trace through the same announcement queue and speech scheduler as narratord, on a
            virtual clock where each utterance lasts as long as eSpeak NG takes to say it (synthesized once,
            cached in $XDG_CACHE_HOME/narrator). Prints one row per policy: outcomes, queued-to-started
            latency percentiles, speech time and focus speech cut by announcements; --json prints them as
            JSON. Every decision is recorded under a new experiment id in the replay database
            ($XDG_STATE_HOME/narrator/replays.db unless --db says otherwise; the daemon's live log is
            never written), which "narratorctl log --experiment ID" and "stats --experiment ID" read.

            An utterance of a trace exported with "narratorctl log --trace" lasts as long as it played
            when it was logged. --check replays such a trace under the policies its rows name (built in,
            or files given with --policy) and lists every event whose outcome differs from the logged one.
            """,
        connects: .never,
        build: { parsed throws(UsageError) in
            var rate = 175
            if let text = parsed.value("--rate") {
                guard let n = Int(text), VoiceParameters.rates.contains(n) else { throw UsageError("--rate must be 80 to 450 words per minute, not \"\(text)\"", command: "replay") }
                rate = n
            }
            let policies = parsed.values("--policy")
            let check = parsed.has("--check")
            return .announcements(
                .replay(
                    ReplayRequest(
                        trace: parsed.positionals[0], policies: policies.isEmpty && !check ? AnnouncementPolicy.builtIns.map(\.name) : policies,
                        database: parsed.value("--db"), timeline: parsed.value("--timeline"), rate: rate, voice: parsed.value("--voice"), check: check)))
        }),
    CommandSpec(
        name: "log", summary: "list logged announcements and utterances with their outcome (reads the database)",
        options: filterOptions + [
            OptionSpec("--outcome", value: "OUTCOME", help: "only this outcome", choices: AnnouncementOutcome.allCases.map(\.rawValue)),
            OptionSpec("--limit", value: "N", help: "the N most recent rows"),
            OptionSpec("--csv", help: "print CSV"),
            OptionSpec("--trace", help: "print the rows as a trace that replay takes (JSON lines; see docs/announcements.md)"),
        ],
        discussion: whichLog + """

            Columns: time queued, id, kind, priority, tree, client (an SSIP client's application, else
            the client's name), policy, outcome, wait (queued to started), text.

            --trace writes every row in the time range (--since, --until) as a replay trace:
            announcements, focus speech, hints, values, SSIP messages with their priority, client and
            connection, and the SSIP CANCEL and STOP commands, each with how long it played and the
            outcome logged. --tree and --client keep one tree's or one client's rows (SSIP messages and
            their cancels have no tree; other speech they shared the voice with is then left out).
            "narratorctl replay FILE --check" replays it under the policies it ran with and compares
            every outcome with the logged one. What a trace cannot carry is said on standard error and
            in its first ("meta") line.
            """,
        connects: .forTheLogPath,
        build: { parsed throws(UsageError) in .announcements(.log(try logRequest(parsed, command: "log"))) }),
    CommandSpec(
        name: "stats", summary: "counts per outcome, tree, priority and client; latency percentiles; speech time (reads the database)",
        options: filterOptions,
        discussion: whichLog,
        connects: .forTheLogPath,
        build: { parsed throws(UsageError) in .announcements(.stats(try logRequest(parsed, command: "stats"))) }),
]
