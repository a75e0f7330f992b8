import Foundation
import Testing

/// narratord's exit status, as its manual page and --help state it: 2 for every value the options
/// table checks before starting (from flags or the configuration file), 1 when it cannot start.
@Suite struct ExitStatusTests {
    /// Runs narratord to completion with a private socket, state and (empty unless given) configuration.
    func narratord(_ arguments: [String], config: String = "", audio: [String] = ["--audio", "null"]) throws -> DaemonHarness.Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-exit-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try config.write(toFile: directory + "/narratord.conf", atomically: true, encoding: .utf8)
        return try DaemonHarness.run(
            DaemonHarness.binaries + "/narratord",
            ["--socket", directory + "/s.sock", "--state-dir", directory + "/state", "--config", directory + "/narratord.conf"] + audio
                + arguments,
            // Every case must stop narratord before it serves: a regression that lets it start is
            // killed here, and fails on its exit status, instead of hanging the run.
            timeout: .seconds(30))
    }

    @Test func everyValueCheckedBeforeStartingIsAUsageError() throws {
        let cases: [([String], String)] = [
            (["--audio", "bogus"], #"--audio must be auto, pulse, null or wav:DIR, not "bogus""#),
            (["--audio", "wav:"], "--audio takes wav:DIR with a directory"),
            (["--rate", "1000"], "--rate must be a whole number of words per minute from 80 to 450"),
            (["--max-text", "0"], "--max-text must be a whole number from 1 to 1000000"),
            (["--log-level", "loud"], "--log-level must be one of"),
            (["--tree-policy", "strict"], "--tree-policy takes TREE=NAME|FILE"),
            (["--socket", "/tmp/" + String(repeating: "s", count: 120)], "--socket must name a socket file of at most 107 bytes"),
        ]
        for (arguments, message) in cases {
            let run = try narratord(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let fromFile = try narratord([], config: "audio = bogus\n", audio: [])
        #expect(fromFile.status == 2, "\(fromFile.stderr)")
        #expect(fromFile.stderr.contains(#"narratord.conf:1: --audio must be auto, pulse, null or wav:DIR, not "bogus""#), "\(fromFile.stderr)")
    }

    @Test func whatOnlyStartingCanFindOutExitsOne() throws {
        let voice = try narratord(["--voice", "nobody-at-all"])
        #expect(voice.status == 1, "\(voice.stderr)")
        #expect(voice.stderr.contains("no installed voice is named 'nobody-at-all'"), "\(voice.stderr)")
        let policy = try narratord(["--policy", "/nonexistent/policy.json"])
        #expect(policy.status == 1, "\(policy.stderr)")
    }

    @Test func helpSaysWhichIsWhich() throws {
        let help = try DaemonHarness.run(DaemonHarness.binaries + "/narratord", ["--help"])
        #expect(help.status == 0)
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Exit status: 0 stopped cleanly"), "\(help.stdout)")
        #expect(words.contains("1 could not start: the socket is in use"))
        #expect(words.contains("2 usage error, before anything starts: an unknown option, a missing value, a value the option does not take (--audio, --rate"))
    }
}
