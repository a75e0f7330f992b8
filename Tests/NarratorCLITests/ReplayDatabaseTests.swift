import Foundation
import Testing

/// Where `narratorctl replay` keeps its experiments and says what it wrote, through the real binary
/// with a private `$XDG_STATE_HOME`, so the live log of the machine is never touched.
@Suite struct ReplayDatabaseTests {
    let state: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-replay-state-\(UUID().uuidString.prefix(8))").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The test's own environment with a private state directory.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state
        return environment
    }

    /// The experiment id from the last line of a replay ("experiment ID: N rows in PATH").
    func experiment(_ stdout: String) throws -> String {
        let last = try #require(stdout.split(separator: "\n").last)
        #expect(last.hasPrefix("experiment "), "\(stdout)")
        return String(last.split(separator: " ")[1].dropLast())
    }

    @Test func replayKeepsItsExperimentsOutOfTheLiveLog() throws {
        let result = try Binaries.run(
            "narratorctl", ["replay", "examples/traces/slider-drag.jsonl", "--policy", "default"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let replays = state + "/narrator/replays.db", live = state + "/narrator/narrator.db"
        #expect(FileManager.default.fileExists(atPath: replays))
        #expect(!FileManager.default.fileExists(atPath: live), "replay wrote into the daemon's own log")
        #expect(result.stdout.contains("rows in \(replays)"), "\(result.stdout)")

        // `log` and `stats` find the experiment without --db: an experiment id means the replay database.
        let id = try experiment(result.stdout)
        let log = try Binaries.run("narratorctl", ["log", "--experiment", id, "--json"], environment: environment)
        #expect(log.status == 0, "\(log.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.filter { $0["kind"] as? String == "announcement" }.count == 61)
        let stats = try Binaries.run("narratorctl", ["stats", "--experiment", id], environment: environment)
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("rows: 63"), "\(stats.stdout)")
        // The live log is still the daemon's file, which this replay did not create.
        let liveLog = try Binaries.run("narratorctl", ["log"], environment: environment)
        #expect(liveLog.status == 1)
        #expect(liveLog.stderr.contains(live), "\(liveLog.stderr)")

        // --db still chooses the file.
        let chosen = state + "/mine.db"
        let again = try Binaries.run(
            "narratorctl", ["replay", "examples/traces/slider-drag.jsonl", "--policy", "none", "--db", chosen], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("rows in \(chosen)"))
        let mine = try Binaries.run("narratorctl", ["log", "--db", chosen, "--experiment", try experiment(again.stdout)], environment: environment)
        #expect(mine.status == 0 && !mine.stdout.contains("(no rows)"), "\(mine.stdout)\(mine.stderr)")
    }

    @Test func timelineSaysWhereItWasWritten() throws {
        let svg = state + "/chat.svg"
        let result = try Binaries.run(
            "narratorctl", ["replay", "examples/traces/chat-burst.jsonl", "--policy", "default", "--timeline", svg], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: svg))
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("timeline:") && $0.contains(svg) }, "\(result.stdout)")

        // A relative path is reported as the absolute file it became.
        let json = try Binaries.run(
            "narratorctl",
            ["replay", "examples/traces/chat-burst.jsonl", "--policy", "none", "--timeline", relativeFromRepository(svg), "--json"],
            environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["timeline"] as? String == URL(fileURLWithPath: svg).standardizedFileURL.path)
        #expect((object?["database"] as? String)?.hasSuffix("/narrator/replays.db") == true)
    }

    /// An absolute `path` spelt relative to the repository, where the binaries run ("../../tmp/...").
    private func relativeFromRepository(_ path: String) -> String {
        let ups = Binaries.repository.split(separator: "/").map { _ in ".." }.joined(separator: "/")
        return ups + path
    }
}
