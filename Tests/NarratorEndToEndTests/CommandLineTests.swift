import Foundation
import NarratorModel
import Testing

/// narratorctl against a live daemon: every command's human output and exit status.
@Suite struct CommandLineTests {
    @Test func everyCommandThroughNarratorctl() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl("hello").stdout.hasPrefix("narratord \(NarratorVersion.daemon)"))
        #expect(try daemon.ctl("register", "examples/favorites.json").stdout == "registered library: 9 stops, 14 nodes\n")
        let trees = try daemon.ctl("trees")
        #expect(trees.lines.first?.hasPrefix("TREE") == true)
        #expect(trees.lines.dropFirst().first?.hasPrefix("library") == true)
        #expect(try daemon.ctl("show", "library").lines.count == 9)
        #expect(try daemon.ctl("focus", "library").stdout == "Library, heading\n")
        #expect(try daemon.ctl("next").stdout == "Favorites, 3 items, button\n  hint: Double-tap to toggle. actions available\n")
        #expect(try daemon.ctl("last").stdout == "Search, tab, 3 of 3\n")
        #expect(try daemon.ctl("previous").stdout == "selected, Library, tab, 2 of 3\n")
        #expect(try daemon.ctl("first").stdout == "Library, heading\n")
        let rotors = try daemon.ctl("rotor")
        #expect(rotors.lines.map { String($0.prefix(8)) } == ["ROTOR   ", "headings", "links   ", "buttons ", "Unread  "])
        #expect(try daemon.ctl("rotor", "Unread").stdout == "Inbox, 2 unread, button\n")
        #expect(try daemon.ctl("rotor", "Unread", "next").stdout == "Updates, 5 unread, button\n")
        #expect(try daemon.ctl("rotor", "links").stdout == "Help, link\n")
        #expect(try daemon.ctl("touch", "200", "300").stdout == "Updates, 5 unread, button\n")
        #expect(try daemon.ctl("speak", "hello", "there").stdout == "hello there\n")
        #expect(try daemon.ctl("announce", "Download", "complete", "--priority", "high").stdout.hasPrefix("announcement "))
        #expect(try daemon.ctl("stop").status == 0)
        #expect(try daemon.ctl("set", "rate", "220").stdout == "rate = 220\n")
        #expect(try daemon.ctl("get", "rate").stdout == "220\n")
        #expect(try daemon.ctl("set", "hints", "off").status == 0)
        #expect(try daemon.ctl("voices").lines.contains { $0.contains("en") })
        let status = try daemon.ctl("status")
        #expect(status.stdout.contains("audio:    null"))
        #expect(status.stdout.contains("focus:    library/updates"))
        #expect(status.stdout.contains("policy:   default"))
        #expect(status.stdout.contains("log:      \(daemon.directory)/state/narrator.db (ok, "))
        #expect(try daemon.ctl("unregister", "library").stdout == "unregistered library\n")
        #expect(try daemon.ctl("trees").lines.count == 1)
    }

    /// `voices` on eSpeak NG's 131 voices by 101 variants: folded, filtered, paged, and a name
    /// that names nothing answered with the nearest.
    @Test func voicesFilteredPagedAndFolded() throws {
        // eSpeak NG's catalog alone: the engine processes' voices are EnginesOfferedTests'.
        let daemon = try DaemonHarness(extraArguments: ["--engines", "none"])
        let folded = try daemon.ctl("voices")
        #expect(folded.lines.first?.hasPrefix("NAME") == true && folded.lines.contains { $0.hasPrefix("German ") })
        #expect(!folded.stdout.contains("+"), "variants are folded away")
        let counts = try JSONParser().parse(try daemon.ctl("--json", "voices").stdout)
        let voices = try #require(counts["total"]?.numberValue), variants = try #require(counts["variant_count"]?.numberValue)
        #expect(folded.lines.count == Int(voices) + 1 && variants > 50)
        #expect(folded.stderr.contains("each voice also comes with any of \(Int(variants)) variants"), "\(folded.stderr)")

        // German with each of its variants, the heading, and nothing else.
        let german = try daemon.ctl("voices", "--language", "de", "--variants")
        #expect(german.lines.first?.hasPrefix("NAME") == true && german.lines.count == 1 + Int(variants) + 1)
        #expect(german.lines.contains { $0.hasPrefix("German+grandma ") && $0.contains(" grandma ") && $0.hasSuffix("female") })
        #expect(german.stderr.isEmpty, "\(german.stderr)")
        let grandmas = try daemon.ctl("voices", "--variants", "--name", "+GRANDMA")
        #expect(grandmas.lines.count == Int(voices) + 1 && grandmas.lines.dropFirst().allSatisfy { $0.contains("+grandma ") })

        // Pages of the 13,000: the rows asked for, and where the next page starts.
        let page = try daemon.ctl("voices", "--variants", "--offset", "1", "--limit", "2")
        #expect(page.lines.count == 3 && page.lines[1].hasPrefix("Afrikaans+") && page.lines[2].hasPrefix("Afrikaans+"))
        let all = Int(voices * (variants + 1))
        #expect(page.stderr.contains("matches 2-3 of \(all); --offset 3 shows the next"), "\(page.stderr)")
        #expect(try daemon.ctl("--json", "voices", "--variants", "--offset", String(all - 1), "--limit", "5").stdout.contains(#""total":\#(all)"#))
        #expect(try daemon.ctl("voices", "--language", "xx").stderr == "no voice matches --language xx\n")
        #expect(try daemon.ctl("voices", "--limit", "0").status == 2)

        let typo = try daemon.ctl("set", "voice", "German+grandmaa")
        #expect(typo.status == 1 && typo.stderr.contains("(did you mean 'German+grandma'?)"), "\(typo.stderr)")
        #expect(try daemon.ctl("set", "voice", "Germna").stderr.contains("(did you mean 'German'?)"))
        #expect(try daemon.ctl("set", "voice", "de+Mr_Serious").status == 0)
        #expect(try daemon.ctl("get", "voice").stdout == "de+Mr_Serious\n")
    }

    @Test func auditARegisteredTreeAsItIsNow() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.ctl("register", "examples/segmented.json")
        #expect(try daemon.ctl("audit", "quality").status == 0)
        // The app breaks its tree: an unlabelled button is an error finding.
        _ = try daemon.ctl("update", "quality", "low", "--set", #"{"label": null}"#)
        let audit = try daemon.ctl("audit", "quality", "--json")
        #expect(audit.status == 1)
        let findings = try JSONParser().parse(audit.stdout)
        #expect(findings.arrayValue?.contains { $0["rule"] == "unlabelled-control" && $0["element"] == "low" } == true)
        #expect(try daemon.ctl("audit", "nosuchtree").stderr.contains(#"no tree named "nosuchtree""#))
    }

    @Test func refusalsAndUsageErrorsHaveTheirExitCodes() throws {
        let daemon = try DaemonHarness()
        let refused = try daemon.ctl("focus", "nowhere")
        #expect(refused.status == 1)
        #expect(refused.stderr == "narratorctl focus: no tree named \"nowhere\" is registered\n")
        #expect(try daemon.ctl("next").stderr.contains("nothing has focus yet"))
        #expect(try daemon.ctl("adjust", "sideways").status == 2)
        #expect(try daemon.ctl("set", "rate", "fast").status == 1)
        let invalid = try daemon.ctl("register", "-", stdin: #"{"tree": "t", "root": {"id": "r", "lable": "x"}}"#)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains(#"root.lable: unknown key; did you mean "label"?"#))
    }

    @Test func unreachableDaemonExitsThreeNamingTheSocket() throws {
        let result = try DaemonHarness.run(DaemonHarness.binaries + "/narratorctl", ["--socket", "/tmp/narrator-nowhere/x.sock", "status"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("/tmp/narrator-nowhere/x.sock"))
        #expect(result.stderr.contains("Start it with"))
    }

    @Test func registerFollowPrintsTheEventsItReceives() throws {
        let daemon = try DaemonHarness()
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/narratorctl")
        owner.arguments = ["--socket", daemon.socket, "register", "--follow", "examples/player.json"]
        owner.currentDirectoryURL = URL(fileURLWithPath: DaemonHarness.repository)
        let out = Pipe()
        owner.standardOutput = out
        try owner.run()
        defer { owner.terminate(); owner.waitUntilExit() }
        // Wait until the tree is registered, then act on it.
        var focus = try daemon.ctl("focus", "player", "play")
        for _ in 0..<100 where focus.status != 0 {
            usleep(20_000)
            focus = try daemon.ctl("focus", "player", "play")
        }
        #expect(try daemon.ctl("activate").status == 0)
        var seen = ""
        while !seen.contains("\"action\":\"activate\"") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        #expect(seen.contains("registered player"))
        #expect(seen.contains(#"{"event":"action","tree":"player","element":"play","action":"activate","point":[195,610]}"#))
    }
}

@Suite struct MonitorCommandTests {
    @Test func monitorPrintsEachUtteranceAsItStarts() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.ctl("register", "examples/segmented.json")
        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/narratorctl")
        monitor.arguments = ["--socket", daemon.socket, "monitor"]
        let out = Pipe()
        monitor.standardOutput = out
        try monitor.run()
        defer { kill(monitor.processIdentifier, SIGKILL); monitor.waitUntilExit() }
        // Speak until the monitor (which may still be subscribing) has printed a line for it.
        var seen = ""
        let reader = out.fileHandleForReading
        for attempt in 0..<50 where !seen.contains("focus\tquality/") {
            _ = try daemon.ctl("focus", "quality", attempt % 2 == 0 ? "medium" : "high")
            usleep(100_000)
            let flags = fcntl(reader.fileDescriptor, F_GETFL)
            _ = fcntl(reader.fileDescriptor, F_SETFL, flags | O_NONBLOCK)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(reader.fileDescriptor, &buffer, buffer.count)
            if count > 0 { seen += String(decoding: buffer[0..<count], as: UTF8.self) }
        }
        #expect(seen.contains("focus\tquality/medium\t") || seen.contains("focus\tquality/high\t"), "\(seen)")
    }
}
