import Foundation
import NarratorModel
import Testing

/// What a new user trips over (issue 15), met where they meet it: narratorctl against a real daemon.
@Suite struct NewUserTests {
    /// A scratch directory of the test's own, removed at the end.
    final class Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-new-user-\(UUID().uuidString.prefix(8))").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let ctl = DaemonHarness.binaries + "/narratorctl"

    /// The environment of a user whose default log is somewhere the daemon does not write.
    static func environment(stateHome: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = stateHome
        environment["NARRATOR_SOCKET"] = nil
        return environment
    }

    /// Runs `narratorctl` until `done` holds for its result, or a few seconds pass (log rows are
    /// committed in groups, shortly after the speech ends).
    static func poll(_ arguments: [String], environment: [String: String], until done: (DaemonHarness.Output) -> Bool) throws -> DaemonHarness.Output {
        var result = try DaemonHarness.run(ctl, arguments, environment: environment)
        for _ in 0..<100 where !done(result) {
            usleep(50_000)
            result = try DaemonHarness.run(ctl, arguments, environment: environment)
        }
        return result
    }

    // Item 1: log and stats read the running daemon's log, wherever its --db put it, and say which.
    @Test func logAndStatsReadTheLogOfTheRunningDaemon() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/elsewhere.db"
        let daemon = try DaemonHarness(extraArguments: ["--db", database])
        let environment = Self.environment(stateHome: scratch.path + "/state-home")
        #expect(try daemon.ctl("speak", "hello from elsewhere").status == 0)
        let log = try Self.poll(["--socket", daemon.socket, "log"], environment: environment) { $0.stdout.contains("hello from elsewhere") }
        #expect(log.status == 0, "\(log.stderr)")
        #expect(log.stdout.contains("hello from elsewhere"))
        #expect(log.stderr.contains(database), "the file read is named: \(log.stderr)")
        let stats = try DaemonHarness.run(Self.ctl, ["--socket", daemon.socket, "stats", "--json"], environment: environment)
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(try JSONParser().parse(stats.stdout)["rows"]?.numberValue ?? 0 >= 1)
        #expect(stats.stderr.contains(database))

        // --db still wins, and is not announced (the user chose it).
        let chosen = try DaemonHarness.run(Self.ctl, ["--socket", daemon.socket, "log", "--db", database], environment: environment)
        #expect(chosen.stdout.contains("hello from elsewhere"))
        #expect(chosen.stderr.isEmpty)

        // No daemon at the socket: today's default, named too.
        let offline = try DaemonHarness.run(Self.ctl, ["--socket", scratch.path + "/none.sock", "log"], environment: environment)
        #expect(offline.status == 1)
        #expect(offline.stderr.contains(scratch.path + "/state-home/narrator/narrator.db"))
    }

    // Item 2: --json before the command means what it means after it.
    @Test func jsonBeforeLogPrintsJSON() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("speak", "rows as JSON").status == 0)
        let database = daemon.directory + "/state/narrator.db"
        let before = try Self.poll(["--socket", daemon.socket, "--json", "log", "--db", database], environment: ProcessInfo.processInfo.environment) {
            $0.stdout.contains("rows as JSON")
        }
        let after = try DaemonHarness.run(Self.ctl, ["--socket", daemon.socket, "log", "--json", "--db", database])
        #expect(before.status == 0)
        #expect(try JSONParser().parse(before.stdout).arrayValue?.isEmpty == false, "\(before.stdout)")
        #expect(before.stdout == after.stdout)
    }

    /// The log's times are the wall-clock times things happened: a speak request is logged as
    /// queued between its sending and its reply, however long the daemon took to start.
    @Test func loggedTimesAreWhenThingsHappened() throws {
        let daemon = try DaemonHarness()
        let sent = Date().timeIntervalSince1970
        #expect(try daemon.ctl("speak", "what time is it").status == 0)
        let answered = Date().timeIntervalSince1970
        let database = daemon.directory + "/state/narrator.db"
        let log = try Self.poll(["--socket", daemon.socket, "log", "--json", "--db", database], environment: ProcessInfo.processInfo.environment) {
            $0.stdout.contains("what time is it")
        }
        let rows = try JSONParser().parse(log.stdout).arrayValue ?? []
        let queued = rows.first { $0["text"]?.stringValue == "what time is it" }?["queued"]?.numberValue ?? 0
        #expect(queued >= sent - 0.001 && queued <= answered + 0.001, "queued at \(queued), sent at \(sent), answered at \(answered)")
    }

    // Item 4: an ephemeral tree without --follow would be gone at once; refused, saying why.
    @Test func ephemeralWithoutFollowIsAUsageError() throws {
        let daemon = try DaemonHarness()
        let result = try daemon.ctl("register", "--ephemeral", "examples/player.json")
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--ephemeral needs --follow"))
        #expect(try daemon.ctl("trees").lines.count == 1)
    }

    // Item 5: show --json of a registered tree has the shape of show --json of its file.
    @Test func showJSONOfARegisteredTreeIsShapedLikeAFile() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.ctl("register", "examples/player.json")
        let registered = try daemon.ctl("show", "--json", "player")
        let file = try daemon.ctl("show", "--json", "examples/player.json")
        #expect(registered.status == 0)
        #expect(registered.stdout == file.stdout)
        #expect(try JSONParser().parse(registered.stdout).arrayValue?.first?["activationPoint"] != nil)
        #expect(try daemon.ctl("show", "player").stdout == (try daemon.ctl("show", "examples/player.json")).stdout)
    }

    // Issue 21: a tree named like a path (the bridge names a window "mousepad: /tmp/x/notes.txt -
    // Mousepad") is found by show and audit before any file; ./ or / always means a file.
    @Test func aTreeNamedLikeAPathIsFoundBeforeAFile() throws {
        let scratch = try Scratch()
        let daemon = try DaemonHarness()
        let name = "mousepad: \(scratch.path)/sample2.txt - Mousepad"
        let document = #"{"tree": "\#(name)", "root": {"id": "r", "children": [{"id": "a", "label": "Open", "traits": ["button"]}]}}"#
        try Data(document.utf8).write(to: URL(fileURLWithPath: scratch.path + "/tree.json"))
        #expect(try daemon.ctl("register", scratch.path + "/tree.json").status == 0)
        let shown = try daemon.ctl("show", name)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "Open, button\n")
        #expect(try daemon.ctl("audit", name).status == 0)
        // A file of the same name as a registered tree: the tree wins; ./NAME reads the file.
        try Data(#"{"tree": "examples/player.json", "root": {"id": "r", "label": "Tree, not file", "traits": ["button"]}}"#.utf8)
            .write(to: URL(fileURLWithPath: scratch.path + "/named.json"))
        #expect(try daemon.ctl("register", scratch.path + "/named.json").status == 0)
        #expect(try daemon.ctl("show", "examples/player.json").stdout == "Tree, not file, button\n")
        let file = try daemon.ctl("show", "./examples/player.json")
        #expect(file.stdout.hasPrefix("Now Playing"), "\(file.stdout)")
        // Neither a tree nor a file: both are said.
        let neither = try daemon.ctl("show", "mousepad: /nowhere/x.txt - Mousepad")
        #expect(neither.status == 1)
        #expect(neither.stderr.contains("and there is no file mousepad: /nowhere/x.txt - Mousepad either"), "\(neither.stderr)")
    }

    // Item 6: the human status counts the deferred announcements, not only the waiting ones.
    @Test func statusCountsDeferredAnnouncements() throws {
        let scratch = try Scratch()
        // A bucket of one that (nearly) never refills: every announcement after the first is deferred.
        let policy = scratch.path + "/slow.json"
        try Data(#"{"name": "slow", "base": "default", "burst": 1, "refill": 0.001}"#.utf8).write(to: URL(fileURLWithPath: policy))
        let daemon = try DaemonHarness(extraArguments: ["--policy", policy])
        _ = try daemon.ctl("register", "examples/segmented.json")
        for element in ["low", "medium", "high", "root"] {
            _ = try daemon.ctl("announce", "--tree", "quality", "--element", element, "value of \(element)")
        }
        let json = try JSONParser().parse(try daemon.ctl("status", "--json").stdout)
        let deferred = Int(json["announcements"]?["deferred"]?.numberValue ?? 0)
        let waiting = Int(json["announcements"]?["waiting"]?.numberValue ?? 0)
        #expect(deferred == 3)
        let human = try daemon.ctl("status")
        #expect(human.stdout.contains("policy:   slow, \(waiting) announcement\(waiting == 1 ? "" : "s") waiting, 3 deferred"), "\(human.stdout)")
    }

    // Item 9: the problems of a refused document are listed once each.
    @Test func problemsOfARefusedDocumentArePrintedOnce() throws {
        let daemon = try DaemonHarness()
        let document = #"{"tree": "t", "root": {"id": "r", "lable": "x", "children": [{"id": "a", "frame": [1, 2]}]}}"#
        let register = try daemon.ctl("register", "-", stdin: document)
        #expect(register.status == 1)
        #expect(register.stderr.components(separatedBy: #"root.lable: unknown key; did you mean "label"?"#).count == 2, "\(register.stderr)")
        #expect(register.stderr.components(separatedBy: "root.children[0].frame: expected 4 numbers, got 2").count == 2)
        _ = try daemon.ctl("register", "examples/segmented.json")
        let update = try daemon.ctl("update", "quality", "low", "--set", #"{"lable": "x"}"#)
        #expect(update.status == 1)
        #expect(update.stderr.components(separatedBy: "lable: unknown key").count == 2, "\(update.stderr)")
    }

    // Item 18: tables align by display width; one stop is "1 stop".
    @Test func tablesAlignWideTitlesAndCountInTheSingular() throws {
        let daemon = try DaemonHarness()
        let titles = ["音乐播放器", "🎵 Music", "Cafe\u{301} menu", "Plain"]
        for (index, title) in titles.enumerated() {
            let document = #"{"tree": "t\#(index)", "title": "\#(title)", "root": {"id": "r", "label": "Only", "traits": ["button"]}}"#
            let registered = try daemon.ctl("register", "-", stdin: document)
            #expect(registered.stdout == "registered t\(index): 1 stop, 1 node\n", "\(registered.stderr)")
        }
        let lines = try daemon.ctl("trees").lines
        #expect(lines.count == 5)
        // Where the STOPS column starts, in terminal columns, on every line.
        let columns = lines.map { line -> Int in
            let start = line.range(of: "STOPS")?.lowerBound ?? line.index(line.range(of: "  1  ")!.lowerBound, offsetBy: 2)
            return columnWidth(String(line[..<start]))
        }
        #expect(Set(columns).count == 1, "\(lines.joined(separator: "\n"))")
    }

    /// Terminal columns, independently of narratorctl's own count: CJK ideographs and the emoji
    /// used above take two, combining acute none.
    private func columnWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x4E00...0x9FFF, 0x1F300...0x1FAFF: width + 2
            case 0x300...0x36F: width
            default: width + 1
            }
        }
    }

    // Item 19: a byte-order mark at the start of a tree file is not an error.
    @Test func registerAcceptsAByteOrderMark() throws {
        let scratch = try Scratch()
        let file = scratch.path + "/bom.json"
        let text = try String(contentsOfFile: DaemonHarness.repository + "/examples/segmented.json", encoding: .utf8)
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: URL(fileURLWithPath: file))
        let daemon = try DaemonHarness()
        let result = try daemon.ctl("register", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "registered quality: 3 stops, 5 nodes\n")
    }
}

/// `monitor` and `register --follow` when the daemon goes away, and the words of final speech events.
@Suite struct FollowingTests {
    /// A long-running narratorctl whose output is read once it has exited.
    final class Follower {
        let process = Process()
        let out = Pipe()
        let err = Pipe()

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/narratorctl")
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: DaemonHarness.repository)
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// Waits (boundedly) for it to exit; nil if it did not.
        func exit(within seconds: Double = 20) -> (status: Int32, stdout: String, stderr: String)? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            guard !process.isRunning else { return nil }
            return (
                process.terminationStatus, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            )
        }
    }

    /// Waits until the daemon counts `count` clients besides the one asking.
    static func waitForClients(_ daemon: DaemonHarness, _ count: Int) throws {
        for _ in 0..<200 {
            let status = try JSONParser().parse(try daemon.ctl("status", "--json").stdout)
            if Int(status["clients"]?.numberValue ?? 0) > count { return }
            usleep(20_000)
        }
    }

    // Item 20: monitor --json prints events only, says when the daemon closes the connection and
    // exits 3; final events carry the outcome words of the log.
    @Test func monitorPrintsEventsOnlyAndExitsThreeWhenTheDaemonStops() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.ctl("register", "examples/player.json")
        let monitor = try Follower(["--socket", daemon.socket, "--json", "monitor"])
        try Self.waitForClients(daemon, 1)
        let database = daemon.directory + "/state/narrator.db"
        var rows: [JSONValue] = []
        func waitForRows(_ done: ([JSONValue]) -> Bool) throws {
            for _ in 0..<300 {
                rows = try JSONParser().parse(try daemon.ctl("log", "--json", "--db", database).stdout).arrayValue ?? []
                if done(rows) { return }
                usleep(50_000)
            }
        }
        // A focus move cuts the previous utterance (interrupted) and drops its pending hint
        // (cancelled); the new focus speaks to its end (spoken); a stop cuts speech (cancelled).
        _ = try daemon.ctl("focus", "player", "play")
        _ = try daemon.ctl("next")
        try waitForRows { $0.contains { $0["kind"] == "focus" && $0["outcome"] == "spoken" } }
        _ = try daemon.ctl("speak", "a sentence long enough to be cut short by the stop that follows it")
        usleep(300_000)
        _ = try daemon.ctl("stop")
        try waitForRows { $0.contains { $0["kind"] == "speak" } }
        #expect(daemon.stop() == 0)
        guard let result = monitor.exit() else {
            Issue.record("monitor did not exit when the daemon stopped")
            return
        }
        #expect(result.status == 3)
        #expect(result.stderr.contains("closed the connection"))
        let lines = try result.stdout.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0["event"] == "speech" }, "\(result.stdout)")
        // The same word for the same utterance in the events and in the log.
        let finals = lines.filter { ["finished", "interrupted", "dropped"].contains($0["phase"]?.stringValue ?? "") }
        #expect(finals.contains { $0["phase"] == "dropped" && $0["outcome"] == "cancelled" }, "\(result.stdout)")
        #expect(finals.contains { $0["phase"] == "interrupted" && $0["outcome"] == "interrupted" })
        #expect(finals.contains { $0["phase"] == "finished" && $0["outcome"] == "spoken" })
        #expect(finals.contains { $0["phase"] == "interrupted" && $0["by"] == nil && $0["outcome"] == "cancelled" })
        for event in finals {
            let row = rows.first { $0["utterance"]?.numberValue == event["utterance"]?.numberValue }
            #expect(row != nil, "no log row for \(event)")
            if let row { #expect(row["outcome"] == event["outcome"], "\(event) vs \(row)") }
        }
    }

    @Test func registerFollowExitsThreeWhenTheDaemonStops() throws {
        let daemon = try DaemonHarness()
        let owner = try Follower(["--socket", daemon.socket, "register", "--follow", "examples/player.json"])
        try Self.waitForClients(daemon, 1)
        #expect(daemon.stop() == 0)
        guard let result = owner.exit() else {
            Issue.record("register --follow did not exit when the daemon stopped")
            return
        }
        #expect(result.status == 3)
        #expect(result.stdout.contains("registered player"))
        #expect(result.stderr.contains("closed the connection"))
    }
}
