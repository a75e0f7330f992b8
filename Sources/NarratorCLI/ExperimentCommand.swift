import Foundation
import NarratorBase
import NarratorExperiments
import NarratorModel
import NarratorSpeech
import NarratorSpeechPlan
import NarratorStore

/// `narratorctl experiment`: a grid of policies swept from a spec, replayed over traces on every
/// core, compared per figure, logged under one experiment id with a record that `--rerun` checks.
enum ExperimentCommand {
    /// What times the utterances, as the record names it.
    /// What times the utterances of `voice` (eSpeak NG unless it names an engine process).
    static func synthesizer(voice: String?) -> String { SpeechDurations.synthesizer(voice: voice) }

    /// A trace as read: where, its bytes' SHA-256, its events.
    struct LoadedTrace {
        var path: String
        var sha256: String
        var events: [TraceEvent]
    }

    /// What went wrong, as the one line the user reads, and the exit status it gives.
    struct Failure: Error {
        var message: String
        var status: ExitStatus = .refused
    }

    static func run(_ request: ExperimentRequest, json: Bool, environment: [String: String], console: Console) -> ExitStatus {
        do {
            if let id = request.rerun { return try rerun(id, request: request, json: json, environment: environment, console: console) }
            return try start(request, json: json, environment: environment, console: console)
        } catch {
            console.err("narratorctl experiment: \(error.message)\n")
            return error.status
        }
    }

    // MARK: A new experiment

    private static func start(_ request: ExperimentRequest, json: Bool, environment: [String: String], console: Console) throws(Failure) -> ExitStatus {
        guard let specPath = request.spec else { throw Failure(message: "give a SPEC.json, or --rerun ID", status: .usage) }
        guard let bytes = InputFile.read(specPath, for: "experiment", console: console) else { return .refused }
        let specJSON: JSONValue
        let spec: ExperimentSpec
        do {
            specJSON = try JSONParser().parse(bytes)
            spec = try ExperimentSpec.parse(specJSON, name: ExperimentRecord.shortName(specPath))
        } catch let error as JSONSyntaxError {
            throw Failure(message: "\(specPath): \(error)")
        } catch {
            throw Failure(message: "\(specPath): \(error)")
        }
        let specURL = URL(fileURLWithPath: specPath).standardizedFileURL
        let specDirectory = specURL.deletingLastPathComponent()
        func besideSpec(_ path: String) -> String {
            path.hasPrefix("/") ? path : specDirectory.appendingPathComponent(path).standardizedFileURL.path
        }

        let base: AnnouncementPolicy
        if let builtIn = AnnouncementPolicy.named(spec.base) {
            base = builtIn
        } else {
            switch ReplayCommand.loadPolicy(besideSpec(spec.base)) {
            case .success(let policy): base = policy
            case .failure(let error):
                let hint = Suggestion.hint(for: spec.base, in: AnnouncementPolicy.builtIns.map(\.name))
                throw Failure(message: "\(specPath): base: \"\(spec.base)\" is not a built-in policy (none, default, strict)\(hint) nor a policy file beside the spec (\(error.message))")
            }
        }
        let policies: [AnnouncementPolicy]
        do { policies = try spec.policies(from: base) } catch { throw Failure(message: "\(specPath): \(error)") }

        let tracePaths = request.traces.isEmpty
            ? spec.traces.map(besideSpec) : request.traces.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        guard !tracePaths.isEmpty else {
            throw Failure(message: "\(specPath): no traces: list them in the spec's \"traces\" or after the spec on the command line", status: .usage)
        }
        var traces: [LoadedTrace] = []
        for (index, path) in tracePaths.enumerated() {
            guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
                let origin = request.traces.isEmpty ? "\(specPath): traces[\(index)]: " : ""
                throw Failure(message: "\(origin)cannot read trace \(path)")
            }
            traces.append(try load(path, bytes: bytes))
        }

        let voice = request.voice ?? spec.voice, rate = request.rate ?? spec.rate, late = request.late ?? spec.late
        let lengths = try measure(traces, voice: voice, rate: rate, environment: environment)
        let started = Date()
        let cells = ExperimentRunner.run(policies: policies, traces: traces.map(\.events), lengths: lengths, late: late)
        let elapsed = Date().timeIntervalSince(started)
        let results = results(of: cells, policies: policies, traces: traces, late: late)

        let experiment = experimentID()
        let createdAt = Date().timeIntervalSince1970
        let record = ExperimentRecord(
            experiment: experiment, createdAt: createdAt, spec: specJSON, specFile: specURL.path, policies: policies,
            traces: traces.map { ExperimentRecord.Trace(path: $0.path, sha256: $0.sha256, events: $0.events.count) }, voice: voice,
            synthesizer: Self.synthesizer(voice: voice), rate: rate, late: late, results: ["cells": results.cellsJSON(tracePaths: tracePaths), "front": results.frontJSON])

        var status = ExitStatus.success
        let databasePath = request.database ?? LogTime.defaultReplayDatabase(environment)
        var written = 0
        do {
            written = try log(cells, record: record, into: databasePath)
        } catch {
            console.err("narratorctl experiment: the experiment was not recorded in \(databasePath): \(error)\n")
            status = .refused
        }
        let files = write(results, record: record, request: request, title: "\(experiment) (\(spec.name))", console: console, status: &status)
        let rerun = "narratorctl experiment --rerun \(experiment) --db \(shellWord(databasePath))"
        if json {
            let object: JSONValue = [
                "experiment": .string(experiment), "database": .string(databasePath), "rows": .number(Double(written)),
                "plot": .optional(files.plot), "csv": .optional(files.csv), "rerun": written > 0 ? .string(rerun) : .null,
                "record": record.json, "cells": record.results["cells"] ?? .null, "front": results.frontJSON,
            ]
            console.out(object.prettyText + "\n")
        } else {
            console.out(header(spec.name, policies: policies.count, traces: traces, voice: voice, rate: rate))
            console.out(results.tables)
            console.out("\n\(cells.count) cells replayed in \(String(format: "%.2f", elapsed)) s on \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
            if let plot = files.plot { console.out("plot: \(plot)\n") }
            if let csv = files.csv { console.out("csv: \(csv)\n") }
            if written > 0 {
                console.out("experiment \(experiment): \(cells.count) cells, \(written) rows in \(databasePath)\n")
                console.out("rerun: \(rerun)\n")
            }
        }
        return status
    }

    // MARK: Running a record again

    private static func rerun(_ id: String, request: ExperimentRequest, json: Bool, environment: [String: String], console: Console) throws(Failure) -> ExitStatus {
        let databasePath = request.database ?? LogTime.defaultReplayDatabase(environment)
        guard FileManager.default.fileExists(atPath: databasePath) else { throw Failure(message: "--rerun \(id): no database at \(databasePath)") }
        let stored: UtteranceLog.StoredExperiment
        do {
            stored = try UtteranceLog.experiment(id, in: try UtteranceLog.openForReading(databasePath))
        } catch {
            throw Failure(message: "--rerun \(id): cannot read \(databasePath): \(error)")
        }
        let text: String
        switch stored {
        case .record(let found): text = found
        case .noRecord: throw Failure(message: "--rerun \(id): it is a replay, not an experiment: \(databasePath) holds no record to run it from")
        case .missing(let known):
            throw Failure(message: "--rerun \(id): no experiment \(id) in \(databasePath)\(Suggestion.hint(for: id, in: known))")
        }
        let record: ExperimentRecord
        do {
            record = try ExperimentRecord.parse(try JSONParser().parse(text))
        } catch let error as JSONSyntaxError {
            throw Failure(message: "--rerun \(id): the stored record is not JSON: \(error)")
        } catch {
            throw Failure(message: "--rerun \(id): the stored record cannot be used: \(error)")
        }
        var traces: [LoadedTrace] = []
        for trace in record.traces {
            guard let data = FileManager.default.contents(atPath: trace.path) else {
                throw Failure(message: "--rerun \(id): trace \(trace.path) is missing (it was recorded with sha256 \(trace.sha256)); nothing was rerun")
            }
            let bytes = [UInt8](data)
            let hash = SHA256.hex(bytes)
            guard hash == trace.sha256 else {
                throw Failure(message: "--rerun \(id): trace \(trace.path) changed since the experiment: recorded sha256 \(trace.sha256), now \(hash); nothing was rerun")
            }
            traces.append(try load(trace.path, bytes: bytes))
        }
        let lengths = try measure(traces, voice: record.voice, rate: record.rate, environment: environment)
        let cells = ExperimentRunner.run(policies: record.policies, traces: traces.map(\.events), lengths: lengths, late: record.late)
        let results = results(of: cells, policies: record.policies, traces: traces, late: record.late)
        let differences = record.differences(from: results)
        var status = ExitStatus.success
        let files = write(results, record: record, request: request, title: "\(id) (rerun)", console: console, status: &status)
        let differing = Set(differences.map(\.cell))
        let verdict = differences.isEmpty
            ? "reproduced: all \(cells.count) cells match" : "not reproduced: \(differing.count) of \(cells.count) cells differ"
        var notes: [String] = []
        if record.version != NarratorVersion.daemon { notes.append("recorded with Narrator \(record.version), rerun with \(NarratorVersion.daemon)") }
        if let recorded = record.synthesizer, case let now = Self.synthesizer(voice: record.voice), recorded != now {
            notes.append("timed by \(recorded) when recorded, by \(now) now: lengths may differ")
        }
        if json {
            let object: JSONValue = [
                "experiment": .string(id), "database": .string(databasePath), "reproduced": .bool(differences.isEmpty),
                "differences": .array(differences.map { ["cell": .string($0.cell), "detail": .string($0.detail)] }),
                "plot": .optional(files.plot), "csv": .optional(files.csv), "record": record.json,
            ]
            console.out(object.prettyText + "\n")
        } else {
            let name = record.spec["name"]?.stringValue ?? id
            console.out(header(name, policies: record.policies.count, traces: traces, voice: record.voice, rate: record.rate))
            console.out(results.tables + "\n")
            if let plot = files.plot { console.out("plot: \(plot)\n") }
            if let csv = files.csv { console.out("csv: \(csv)\n") }
            for note in notes { console.out(note + "\n") }
            for difference in differences.prefix(20) { console.out("  \(difference.cell): \(difference.detail)\n") }
            if differences.count > 20 { console.out("  ... and \(differences.count - 20) more\n") }
            console.out(verdict + "\n")
        }
        return differences.isEmpty ? status : .refused
    }

    // MARK: Shared steps

    private static func load(_ path: String, bytes: [UInt8]) throws(Failure) -> LoadedTrace {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        do {
            return LoadedTrace(path: path, sha256: SHA256.hex(bytes), events: try AnnouncementTrace.parse(String(decoding: text, as: UTF8.self)))
        } catch {
            throw Failure(message: "\(path): \(error)")
        }
    }

    /// Every text of every trace measured once (cached as replay caches it), as one immutable value.
    private static func measure(_ traces: [LoadedTrace], voice: String?, rate: Int, environment: [String: String]) throws(Failure) -> SpeechLengths {
        let durations = SpeechDurations(cacheDirectory: LogTime.cacheDirectory(environment), voice: voice, rate: rate)
        let texts = traces.reduce(into: Set<String>()) { $0.formUnion(SpeechLengths.texts(of: $1.events)) }
        do {
            try durations.prepare(texts)
        } catch {
            throw Failure(message: "cannot measure utterance lengths: \(error)")
        }
        durations.save()
        return durations.lengths(texts)
    }

    private static func results(of cells: [ExperimentCell], policies: [AnnouncementPolicy], traces: [LoadedTrace], late: Double) -> ExperimentResults {
        let metrics = policies.indices.map { p in traces.indices.map { t in cells[p * traces.count + t].metrics } }
        return ExperimentResults(policies: policies, traces: traces.map { ExperimentRecord.shortName($0.path) }, metrics: metrics, late: late)
    }

    /// Every cell's decisions and speech as rows, and the experiment's row with its record, in one file.
    private static func log(_ cells: [ExperimentCell], record: ExperimentRecord, into path: String) throws(DatabaseError) -> Int {
        let database = try UtteranceLog.openForWriting(path)
        let seconds = { (instant: MonotonicInstant) in Double(instant.nanoseconds) / 1e9 }
        var rows: [LogRow] = []
        for cell in cells {
            rows += cell.records.map { LogRow($0, experiment: record.experiment, seconds: seconds) }
            rows += cell.speech.map { LogRow($0, policy: cell.policy.name, experiment: record.experiment, seconds: seconds) }
        }
        try database.transaction { () throws(DatabaseError) in
            try UtteranceLog.insertExperiment(
                id: record.experiment, traces: record.traces.map(\.path), policies: record.policies.map(\.name), record: record.json.compactText,
                createdAt: record.createdAt, into: database)
        }
        try UtteranceLog.insert(rows, into: database)
        return rows.count
    }

    /// Writes the plot and the CSV a request asks for; returns their absolute paths.
    private static func write(
        _ results: ExperimentResults, record: ExperimentRecord, request: ExperimentRequest, title: String, console: Console, status: inout ExitStatus
    ) -> (plot: String?, csv: String?) {
        func save(_ text: String, to path: String?) -> String? {
            guard let path else { return nil }
            let url = URL(fileURLWithPath: path).standardizedFileURL
            do {
                try Data(text.utf8).write(to: url)
                return url.path
            } catch {
                console.err("narratorctl experiment: cannot write \(path): \(error.localizedDescription)\n")
                status = .refused
                return nil
            }
        }
        let plot = save(request.plot.map { _ in ExperimentPlot(results: results, title: title).svg } ?? "", to: request.plot)
        let csv = save(request.csv.map { _ in ExperimentCSV.text(results, experiment: record.experiment, tracePaths: record.traces.map(\.path)) } ?? "", to: request.csv)
        return (plot, csv)
    }

    private static func header(_ name: String, policies: Int, traces: [LoadedTrace], voice: String?, rate: Int) -> String {
        "\(name): \(policies) policies × \(traces.count) traces, eSpeak NG \(voice ?? "default voice") at \(rate) wpm\n\n"
    }

    /// A path as one shell word: as it is when it is plain, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+=:,@".unicodeScalars.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func experimentID() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "experiment-" + formatter.string(from: Date()) + "-" + String(UInt16.random(in: 0...UInt16.max), radix: 16)
    }
}
