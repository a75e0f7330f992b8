import Foundation
@testable import NarratorCLI
import NarratorCommandLine
import Testing

/// What a new user trips over (issue 15) without a daemon: the built narratorctl, offline.
@Suite struct NewUserOfflineTests {
    final class Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-offline-\(UUID().uuidString.prefix(8))").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    // Item 2: version prints JSON with --json, before or after.
    @Test func versionPrintsJSON() throws {
        for arguments in [["version", "--json"], ["--json", "version"], ["--version", "--json"], ["--json", "--version"]] {
            let result = try Binaries.run("narratorctl", arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let versions = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(versions?["narratorctl"] as? String == "0.1.0", "\(arguments): \(result.stdout)")
            #expect(versions?["protocol"] as? Int == 1)
            #expect(versions?["treeFormat"] as? Int == 1)
        }
        #expect(try Binaries.run("narratorctl", ["version"]).stdout == "narratorctl 0.1.0 (protocol 1, tree format 1)\n")
    }

    // Item 2: for every command, --json and --socket before it parse as they do after it.
    @Test func globalOptionsMeanTheSameBeforeAndAfterEveryCommand() throws {
        let examples: [String: [String]] = [
            "show": ["f.json"], "audit": ["f.json"], "help": [], "version": [], "replay": ["t.jsonl"], "experiment": ["s.json"], "log": [], "stats": [],
            "register": ["f.json"], "update": ["t", "e", "--remove"], "unregister": ["t"], "export": ["t"], "focus": ["t"], "touch": ["1", "2"],
            "adjust": ["up"], "cell": ["left"], "action": ["a"], "announce": ["hi"], "speak": ["hi"], "set": ["rate", "200"], "get": ["rate"],
            "completion": ["bash"],
        ]
        for spec in commandCatalog {
            let rest = examples[spec.name] ?? []
            for global in [["--json"], ["--socket", "/tmp/x.sock"], ["--socket=/tmp/x.sock"]] {
                let before: Result<Invocation, UsageError>
                let after: Result<Invocation, UsageError>
                do { before = .success(try InvocationParser.parse(global + [spec.name] + rest)) } catch { before = .failure(error) }
                do { after = .success(try InvocationParser.parse([spec.name] + rest + global)) } catch { after = .failure(error) }
                #expect(before == after, "\(spec.name) with \(global)")
                // `--socket` is taken by every command (offline ones do not need it); `--json` only where it changes the output.
                let uses = global[0] == "--json" ? spec.printsJSON : true
                if case .failure(let error) = before {
                    #expect(!uses, "\(spec.name) refused \(global): \(error)")
                    #expect(error.message.contains("does not apply"))
                } else {
                    #expect(uses, "\(spec.name) accepted \(global) it does not use")
                }
            }
        }
    }

    // Item 2, through the binary: --json before log prints JSON, as after it.
    @Test func jsonBeforeLogIsJSON() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/empty.db"
        // An empty log: replay writes one (its experiment's rows, and the schema).
        let trace = scratch.path + "/t.jsonl"
        try Data(#"{"at": 0.0, "kind": "focus", "tree": "t", "element": "e", "text": "Play"}"#.utf8 + [10]).write(to: URL(fileURLWithPath: trace))
        let replay = try Binaries.run("narratorctl", ["replay", trace, "--policy", "none", "--db", database])
        #expect(replay.status == 0, "\(replay.stderr)")
        let before = try Binaries.run("narratorctl", ["--json", "log", "--db", database])
        let after = try Binaries.run("narratorctl", ["log", "--db", database, "--json"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == after.stdout)
        #expect(before.stdout.hasPrefix("["), "\(before.stdout)")
    }

    // Item 4: refused while parsing, so without a daemon too.
    @Test func ephemeralNeedsFollow() throws {
        let result = try Binaries.run("narratorctl", ["--socket", "/tmp/narrator-nowhere/x.sock", "register", "--ephemeral", "examples/player.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--ephemeral needs --follow"))
        #expect(result.stderr.contains("add --follow"))
    }

    // Item 7: a directory is called a directory.
    @Test func aDirectoryIsNotCalledAPermissionProblemOrAStaleSocket() throws {
        let scratch = try Scratch()
        let show = try Binaries.run("narratorctl", ["show", scratch.path])
        #expect(show.status == 1)
        #expect(show.stderr == "narratorctl show: cannot read \(scratch.path): it is a directory, not a file\n")
        let audit = try Binaries.run("narratorctl", ["audit", scratch.path])
        #expect(audit.stderr.contains("it is a directory"))
        let socket = try Binaries.run("narratorctl", ["--socket", scratch.path, "status"])
        #expect(socket.status == 3)
        #expect(socket.stderr.contains("\(scratch.path): it is a directory, not a socket"), "\(socket.stderr)")
        #expect(!socket.stderr.contains("stale"))
        let file = scratch.path + "/plain"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let plain = try Binaries.run("narratorctl", ["--socket", file, "status"])
        #expect(plain.status == 3)
        #expect(plain.stderr.contains("\(file): it is not a socket"), "\(plain.stderr)")
        #expect(!plain.stderr.contains("stale"))
    }

    // Item 16: the advice to start the daemon is given once.
    @Test func noDaemonAdviceIsGivenOnce() throws {
        let result = try Binaries.run("narratorctl", ["--socket", "/tmp/narrator-nowhere/x.sock", "status"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("/tmp/narrator-nowhere/x.sock"))
        #expect(result.stderr.lowercased().components(separatedBy: "start it").count == 2, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "systemctl").count == 2, "\(result.stderr)")
    }

    // Item 19: a UTF-8 byte-order mark is accepted by show and audit (and - too).
    @Test func byteOrderMarkIsAccepted() throws {
        let scratch = try Scratch()
        let file = scratch.path + "/bom.json"
        let text = try String(contentsOfFile: Binaries.repository + "/examples/segmented.json", encoding: .utf8)
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: URL(fileURLWithPath: file))
        let show = try Binaries.run("narratorctl", ["show", file])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == "Low, button\nselected, Medium, button\nHigh, button\n")
        let audit = try Binaries.run("narratorctl", ["audit", file])
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(try Binaries.run("narratorctl", ["show", "-"], stdin: "\u{FEFF}" + text).status == 0)
    }

    // Item 18: audit's table aligns by display width too.
    @Test func auditTableAlignsWideElementIds() throws {
        let document = #"{"tree": "t", "root": {"id": "r", "children": [{"id": "按钮", "traits": ["button"]}, {"id": "b", "traits": ["button"]}]}}"#
        let audit = try Binaries.run("narratorctl", ["audit", "-"], stdin: document)
        let rows = audit.stdout.split(separator: "\n").filter { $0.contains("unlabelled-control") }
        #expect(rows.count == 2, "\(audit.stdout)")
        // The PATH column starts at the same terminal column on both rows.
        let columns = rows.map { row in
            let prefix = row[..<row.range(of: "root.children")!.lowerBound]
            return prefix.unicodeScalars.reduce(0) { $0 + ((0x4E00...0x9FFF).contains($1.value) ? 2 : 1) }
        }
        #expect(columns[0] == columns[1], "\(audit.stdout)")
    }

    // Item 21: help lists only the options a command uses, and the parser accepts only those.
    @Test func helpListsOnlyTheOptionsACommandUses() throws {
        for offline in ["replay", "help", "version"] {
            let help = try Binaries.run("narratorctl", ["help", offline])
            #expect(!help.stdout.contains("--socket"), "\(offline): \(help.stdout)")
            // Still taken, so that an alias or script that always passes it works for every command.
            let taken = try Binaries.run("narratorctl", ["--socket", "/tmp/x.sock", offline] + (offline == "replay" ? ["--help"] : []))
            #expect(taken.status == 0, "\(offline): \(taken.stderr)")
        }
        #expect(!(try Binaries.run("narratorctl", ["help", "help"])).stdout.contains("--json"))
        for connecting in ["show", "audit", "log", "stats", "status", "monitor"] {
            #expect(try Binaries.run("narratorctl", ["help", connecting]).stdout.contains("--socket PATH"), "\(connecting)")
        }
        #expect(try Binaries.run("narratorctl", ["help", "version"]).stdout.contains("--json"))
    }
}
