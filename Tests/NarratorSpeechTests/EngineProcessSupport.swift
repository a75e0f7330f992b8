import Foundation
import Glibc
import NarratorEngines
@testable import NarratorSpeech
import NarratorSystem
import Synchronization
import Testing

/// The protocol-speaking test engine (Tests/Helpers/engines/test_engine.py) behind a wrapper
/// script that passes it `flags`, in a fresh directory: `EXE --list-voices` and `EXE --serve`
/// reach it as narratord runs any engine. Its pid file says which process serves now.
struct TestEngine {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers/engines/test_engine.py").path

    let directory: String
    let executable: String
    var pidFile: String { directory + "/engine.pid" }

    init(_ flags: [String] = []) throws {
        directory = temporaryDirectory("engine")
        executable = directory + "/engine"
        let words = (["/usr/bin/python3", Self.script, "--pid-file", directory + "/engine.pid"] + flags).map { "'\($0)'" }
        try ("#!/bin/sh\nexec " + words.joined(separator: " ") + " \"$@\"\n").write(toFile: executable, atomically: true, encoding: .utf8)
        chmod(executable, 0o755)
    }

    /// The pid of the process that last started, if one did.
    var pid: pid_t? {
        (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// An EngineProcess of this engine, its listing read as narratord reads it.
    func process(hangBound: Duration = .seconds(2), startBound: Duration = .seconds(20), journal: Journal? = nil) throws -> EngineProcess {
        let listing = try listVoices(executable: executable)
        return try EngineProcess(
            executable: executable, listing: listing, hangBound: hangBound, startBound: startBound,
            onHealth: { health in journal?.record(.health(health)) },
            onLog: { line in journal?.record(.log(line)) })
    }
}

/// `EngineProcess.listVoices` of a script just written. A child that another test spawns at that
/// moment holds a copy of the descriptor the script was written through until it execs, and
/// running the script then fails with ETXTBSY: that is waited out (narratord runs installed
/// engines, written by nobody while it starts them).
func listVoices(executable: String, timeout: Duration = .seconds(5)) throws(EngineListVoicesError) -> EngineListing {
    var attempts = 0
    while true {
        do {
            return try EngineProcess.listVoices(executable: executable, timeout: timeout)
        } catch {
            guard case .couldNotRun(let errno) = error.problem, errno.code == ETXTBSY, attempts < 100 else { throw error }
            attempts += 1
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

/// Whether process `pid` exists (a zombie counts: it is not reaped).
func processExists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}

/// What an engine said (its health changes and its journal lines), in order.
final class Journal: Sendable {
    enum Entry: Sendable, Hashable {
        case health(EngineHealth)
        case log(String)
    }

    private let entries = Mutex<[Entry]>([])

    func record(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    var all: [Entry] { entries.withLock { $0 } }
    var healths: [EngineHealth] { all.compactMap { if case .health(let health) = $0 { health } else { nil } } }
    var lines: [String] { all.compactMap { if case .log(let line) = $0 { line } else { nil } } }
    /// The pid of each process that started serving, in order (from its first line on standard error).
    var servingPIDs: [pid_t] {
        lines.compactMap { line in
            line.hasPrefix("test engine: serving, pid ") ? pid_t(line.dropFirst("test engine: serving, pid ".count)) : nil
        }
    }

    func wait(timeout: Duration = .seconds(30), until predicate: (Journal) -> Bool) -> Bool {
        eventually(timeout: timeout) { predicate(self) }
    }
}

/// One job and everything its handlers saw, in order.
final class JobRecord: Sendable {
    enum Event: Sendable, Hashable {
        case start
        case chunk([Int16])
        case end(SynthesisJob.Outcome)
    }

    private let events = Mutex<[Event]>([])
    private let holder = Mutex<SynthesisJob?>(nil)

    /// - Parameter onChunk: what the consumer does with each chunk (sleep, cancel), before
    ///   saying whether it wants more; it gets the chunk's number from 1.
    init(_ text: String, voice: VoiceChoice = .named("ramp"), onChunk: @escaping @Sendable (JobRecord, Int) -> Bool = { _, _ in true }) {
        let job = SynthesisJob(
            text: text, voice: voice,
            onStart: { [weak self] () throws(AudioOutputError) in self?.events.withLock { $0.append(.start) } },
            onChunk: { [weak self] chunk in
                guard let self else { return false }
                let number = events.withLock { events -> Int in
                    events.append(.chunk(chunk))
                    return events.count { if case .chunk = $0 { true } else { false } }
                }
                return onChunk(self, number)
            },
            onEnd: { [weak self] outcome in self?.events.withLock { $0.append(.end(outcome)) } })
        holder.withLock { $0 = job }
    }

    var job: SynthesisJob { holder.withLock { $0! } }
    var all: [Event] { events.withLock { $0 } }
    var samples: [Int16] { all.flatMap { event -> [Int16] in if case .chunk(let chunk) = event { chunk } else { [] } } }
    var chunks: Int { all.count { if case .chunk = $0 { true } else { false } } }
    var outcome: SynthesisJob.Outcome? { all.last.flatMap { if case .end(let outcome) = $0 { outcome } else { nil } } }

    /// Waits for the job's end (generously) and returns it.
    @discardableResult
    func waitForEnd(timeout: Duration = .seconds(30)) -> SynthesisJob.Outcome? {
        _ = eventually(timeout: timeout) { outcome != nil }
        return outcome
    }

    /// The failure the job ended with, if it ended with one.
    var failure: EngineFailure? {
        if case .engineFailed(let failure) = outcome { return failure }
        return nil
    }
}

/// The ramp voice's samples for `text` (sample n is n % 32768, 160 per character of each sentence).
func rampLength(_ sentences: [String]) -> Int {
    sentences.reduce(0) { $0 + $1.count * 160 }
}
