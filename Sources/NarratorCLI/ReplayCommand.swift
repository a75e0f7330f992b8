import Foundation
import NarratorBase
import NarratorExperiments
import NarratorModel
import NarratorSpeechPlan
import NarratorStore

/// `narratorctl replay`: a trace through the announcement queue under each policy, offline.
enum ReplayCommand {
    static func run(_ request: ReplayRequest, json: Bool, environment: [String: String], console: Console) -> ExitStatus {
        // Read as every file argument is: `-` for standard input, a byte-order mark dropped, and a
        // missing file named with why and the nearest file beside it.
        guard let bytes = InputFile.read(request.trace, for: "replay", console: console) else { return .refused }
        let numbered: [(line: Int, event: TraceEvent)]
        do {
            numbered = try AnnouncementTrace.parseNumbered(String(decoding: bytes, as: UTF8.self))
        } catch {
            console.err("narratorctl replay: \(request.trace): \(error)\n")
            return .refused
        }
        let events = numbered.map(\.event)
        var policies: [AnnouncementPolicy] = []
        for name in request.policies {
            switch loadPolicy(name) {
            case .success(let policy): policies.append(policy)
            case .failure(let error):
                console.err("narratorctl replay: \(error.message)\n")
                return .usage
            }
        }
        let durations = SpeechDurations(cacheDirectory: LogTime.cacheDirectory(environment), voice: request.voice, rate: request.rate)
        do {
            try durations.prepare(Set(events.compactMap(\.text)))
        } catch {
            console.err("narratorctl replay: cannot measure utterance lengths: \(error)\n")
            return .refused
        }
        durations.save()

        var lanes: [AnnouncementTimeline.Lane] = []
        var check: ReplayCheck?
        if request.check {
            // The trace's own policies: built-in names, or files given with --policy by their name.
            let names = ReplayCheck.policies(of: events)
            var known: [String: AnnouncementPolicy] = [:]
            for policy in AnnouncementPolicy.builtIns + policies { known[policy.name] = policy }
            for name in names.names where known[name] == nil {
                console.err("narratorctl replay: \(request.trace) was logged under policy \"\(name)\", which is not built in: give its file with --policy FILE\n")
                return .usage
            }
            do {
                check = try ReplayCheck(numbered, policies: known) { durations.duration($0) }
            } catch {
                console.err("narratorctl replay: \(error)\n")
                return .usage
            }
            policies = names.names.compactMap { known[$0] }
            let simulation = check!.simulation
            lanes.append(AnnouncementTimeline.Lane(policy: names.daemon, records: simulation.records, speech: simulation.speech))
        } else {
            for policy in policies {
                var simulation = AnnouncementSimulation(policy: policy) { durations.duration($0) }
                simulation.run(events)
                lanes.append(AnnouncementTimeline.Lane(policy: policy.name, records: simulation.records, speech: simulation.speech))
            }
        }
        let summaries = lanes.map { ReplaySummary(policy: $0.policy, records: $0.records, speech: $0.speech) }

        var status = ExitStatus.success
        let experiment = experimentID()
        let databasePath = request.database ?? LogTime.defaultReplayDatabase(environment)
        var written = 0
        do {
            let database = try UtteranceLog.openForWriting(databasePath)
            let seconds = { (instant: MonotonicInstant) in Double(instant.nanoseconds) / 1e9 }
            var rows: [LogRow] = []
            for lane in lanes {
                rows += lane.records.map { LogRow($0, experiment: experiment, seconds: seconds) }
                rows += lane.speech.map { LogRow($0, policy: lane.policy, experiment: experiment, seconds: seconds) }
            }
            try database.transaction { () throws(DatabaseError) in
                try UtteranceLog.insertExperiment(
                    id: experiment, trace: request.trace, policies: policies.map(\.name), createdAt: Date().timeIntervalSince1970, into: database)
            }
            try UtteranceLog.insert(rows, into: database)
            written = rows.count
        } catch {
            console.err("narratorctl replay: the decisions were not logged: \(error)\n")
            status = .refused
        }
        // The file written, as an absolute path, so the output says where to look.
        var timeline: String?
        if let path = request.timeline {
            let title = "\((request.trace as NSString).lastPathComponent): \(events.count) events, eSpeak NG at \(request.rate) wpm"
            let svg = AnnouncementTimeline(lanes: lanes, origin: MonotonicInstant(nanoseconds: 0), title: title).svg
            let url = URL(fileURLWithPath: path).standardizedFileURL
            do {
                try Data(svg.utf8).write(to: url)
                timeline = url.path
            } catch {
                console.err("narratorctl replay: cannot write \(path): \(error.localizedDescription)\n")
                status = .refused
            }
        }
        if json {
            var object = JSONObject([
                "experiment": .string(experiment), "database": .string(databasePath), "rows": .number(Double(written)),
                "timeline": .optional(timeline), "policies": .array(summaries.map(\.json)),
            ])
            if let check { object["check"] = checkJSON(check) }
            console.out(JSONValue.object(object).prettyText + "\n")
        } else {
            console.out(ReplaySummary.table(summaries) + "\n")
            if let check { console.out(checkText(check)) }
            if let timeline { console.out("timeline: \(timeline)\n") }
            if written > 0 { console.out("experiment \(experiment): \(written) rows in \(databasePath)\n") }
        }
        if let check, !check.mismatches.isEmpty { return .refused }
        if let check, check.compared == 0 {
            console.err("narratorctl replay: nothing to check: \(request.trace) holds no logged outcomes (a trace from \"narratorctl log --trace\" does)\n")
            return .refused
        }
        return status
    }

    /// What `--check` found: agreement, then each event replayed otherwise, by its line.
    static func checkText(_ check: ReplayCheck) -> String {
        var text = "check: \(check.compared - check.mismatches.count) of \(check.compared) logged outcomes replayed the same\n"
        for mismatch in check.mismatches {
            text += "  line \(mismatch.line): \(describe(mismatch.event)) logged \(mismatch.logged.rawValue), replayed \(mismatch.replayed?.rawValue ?? "no outcome")\n"
        }
        return text
    }

    static func checkJSON(_ check: ReplayCheck) -> JSONValue {
        [
            "compared": .number(Double(check.compared)), "matching": .number(Double(check.compared - check.mismatches.count)),
            "mismatches": .array(
                check.mismatches.map { mismatch in
                    [
                        "line": .number(Double(mismatch.line)), "event": .string(describe(mismatch.event)), "logged": .string(mismatch.logged.rawValue),
                        "replayed": .optional(mismatch.replayed?.rawValue),
                    ]
                }),
        ]
    }

    private static func describe(_ event: TraceEvent) -> String {
        let what: String
        switch event.kind {
        case .announce: what = "announce"
        case .focus: what = "focus"
        case .speech(_, let kind): what = kind.name
        case .ssip(_, let priority, _): what = "ssip \(priority.rawValue)"
        case .ssipCancel, .ssipStop, .stop, .shutdown: what = "command"
        }
        return "\(what) \"\(event.text ?? "")\""
    }

    /// A built-in policy by name, or a policy file (named after the file unless it names itself).
    static func loadPolicy(_ name: String) -> Result<AnnouncementPolicy, PolicyLoadError> {
        if let builtIn = AnnouncementPolicy.named(name) { return .success(builtIn) }
        guard let data = FileManager.default.contents(atPath: name) else {
            let hint = Suggestion.hint(for: name, in: AnnouncementPolicy.builtIns.map(\.name))
            return .failure(PolicyLoadError(message: "--policy \(name): not a built-in policy (none, default, strict) nor a readable file\(hint)"))
        }
        do {
            let json = try JSONParser().parse([UInt8](data))
            let base = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
            return .success(try AnnouncementPolicy.parse(json, name: base))
        } catch let error as JSONSyntaxError {
            return .failure(PolicyLoadError(message: "\(name): \(error)"))
        } catch {
            return .failure(PolicyLoadError(message: "\(name): \(error)"))
        }
    }

    struct PolicyLoadError: Error {
        var message: String
    }

    private static func experimentID() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "replay-" + formatter.string(from: Date()) + "-" + String(UInt16.random(in: 0...UInt16.max), radix: 16)
    }
}
