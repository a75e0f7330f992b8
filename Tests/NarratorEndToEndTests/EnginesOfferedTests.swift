import Foundation
import NarratorModel
import NarratorSystem
import Testing

/// Which engines the built narratord offers (`--engines`), as a user sees them: `narratorctl voices`,
/// SSIP's `LIST OUTPUT_MODULES`, the exit status and the journal.
@Suite struct EnginesOfferedTests {
    /// The output modules an SSIP client is offered.
    static func outputModules(_ daemon: DaemonHarness) throws -> [String] {
        let client = try SSIPTestClient(path: daemon.ssipSocket)
        let reply = try client.command("LIST OUTPUT_MODULES")
        #expect(reply.last == "250 OK MODULE LIST SENT", "\(reply)")
        return reply.dropLast().map { String($0.dropFirst(4)) }
    }

    /// The engine column of `narratorctl voices`, one entry per voice (nil: the listing has no such column).
    static func voiceEngines(_ daemon: DaemonHarness) throws -> [String]? {
        let run = try daemon.ctl("voices")
        #expect(run.status == 0, "\(run.stderr)")
        guard let header = run.lines.first, header.hasPrefix("ENGINE") else { return nil }
        // The listing ends with a note on the variants, which is not a voice.
        return run.lines.dropFirst().filter { !$0.hasPrefix("each voice") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func noneOffersESpeakNGAlone() throws {
        let daemon = try DaemonHarness(extraArguments: ["--engines", "none"], ssip: true)
        #expect(try Self.outputModules(daemon) == ["espeak-ng"])
        let engines = try Self.voiceEngines(daemon)
        // With one engine there is nothing to tell apart: no ENGINE column, or espeak-ng on every line.
        #expect(engines == nil || Set(engines ?? []) == ["espeak-ng"], "\(String(describing: engines))")
        #expect(!(try daemon.ctl("voices").stdout.contains("slt")))
    }

    @Test func autoInTheBuildDirectoryOffersFliteAndPiper() throws {
        let daemon = try DaemonHarness(ssip: true)
        #expect(try Self.outputModules(daemon) == ["espeak-ng", "flite", "piper"])
        let engines = try #require(try Self.voiceEngines(daemon), "narratorctl voices has no ENGINE column")
        #expect(Set(engines) == ["espeak-ng", "flite", "piper"])
        let listing = try daemon.ctl("voices").lines
        for voice in ["slt", "kal", "kal16", "awb", "rms"] {
            #expect(listing.contains { $0.hasPrefix("flite ") && $0.split(separator: " ").dropFirst().first == Substring(voice) }, "no flite voice \(voice)")
        }
        #expect(listing.contains { $0.hasPrefix("piper ") }, "no piper voice")
        // Listed, not started: an engine costs nothing until it is asked to speak.
        let status = try JSONParser().parse(try daemon.ctl("--json", "status").stdout)
        let states = (status["engines"]?.arrayValue ?? []).compactMap { engine in
            engine["name"]?.stringValue.map { ($0, engine["state"]?.stringValue ?? "") }
        }
        #expect(states.contains { $0 == ("flite", "not started") } && states.contains { $0 == ("piper", "not started") }, "\(states)")
    }

    @Test func aMissingEngineIsNamedAndStopsTheStart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-engines-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try DaemonHarness.run(
            DaemonHarness.binaries + "/narratord",
            ["--socket", directory + "/s.sock", "--state-dir", directory + "/state", "--audio", "null", "--engines", "/nowhere/narrator-flite"],
            timeout: .seconds(30))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("/nowhere/narrator-flite"), "\(run.stderr)")
    }

    /// An engine that cannot list its voices is left out with a warning; eSpeak NG and the other
    /// engines are served as before.
    @Test func anEngineThatCannotListItsVoicesIsLeftOut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-engines-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = directory + "/broken-engine"
        try "#!/bin/sh\necho 'no voices here' >&2\nexit 1\n".write(toFile: broken, atomically: true, encoding: .utf8)
        chmod(broken, 0o755)
        let flite = DaemonHarness.binaries + "/narrator-flite"
        let daemon = try DaemonHarness(extraArguments: ["--engines", broken + "," + flite], ssip: true)
        #expect(try Self.outputModules(daemon) == ["espeak-ng", "flite"])
        #expect(daemon.log.contains("engine \(broken) left out"), "\(daemon.log)")
        let spoke = try daemon.ctl("speak", "Still speaking.")
        #expect(spoke.status == 0, "\(spoke.stderr)")
    }
}
