import Foundation
import Testing

/// The engine processes narratord found start only when chosen: by a setting (at once, not at
/// the first utterance, so Piper's model load is not heard as a gap), or by the saved settings at
/// start-up; an engine nobody chose never runs.
@Suite struct EngineWarmUpTests {
    /// The `engines:` line of `narratorctl status`, once `done` holds for it (or the last seen).
    func engines(_ daemon: DaemonHarness, until done: (String) -> Bool) throws -> String {
        var line = ""
        for _ in 0..<300 {
            line = try daemon.ctl("status").stdout.split(separator: "\n").first { $0.hasPrefix("engines:") }.map(String.init) ?? ""
            if done(line) { return line }
            usleep(100_000)
        }
        return line
    }

    /// The command lines of narratord's child processes.
    func children(of daemon: DaemonHarness) -> [String] {
        let pid = daemon.process.processIdentifier
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let pids = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ")
        }
        return pids.compactMap { child in
            (try? String(contentsOfFile: "/proc/\(child)/cmdline", encoding: .utf8))?.replacingOccurrences(of: "\0", with: " ")
        }
    }

    @Test func aChosenEngineStartsWhenChosenAndAtTheNextStart() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-warm-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        do {
            let daemon = try DaemonHarness(extraArguments: ["--state-dir", state])
            defer { _ = daemon.stop() }
            let idle = try engines(daemon) { !$0.isEmpty }
            #expect(idle == "engines:  espeak-ng: ready; flite: not started; piper: not started", "\(daemon.log)")
            #expect(children(of: daemon).isEmpty, "an engine nobody chose runs: \(children(of: daemon))")

            #expect(try daemon.ctl("set", "engine.long", "piper").status == 0)
            let warm = try engines(daemon) { $0.contains("piper: ready") }
            #expect(warm == "engines:  espeak-ng: ready; flite: not started; piper: ready", "\(daemon.log)")
            #expect(children(of: daemon).count == 1 && children(of: daemon).allSatisfy { $0.contains("narrator-piper") }, "\(children(of: daemon))")
            #expect(daemon.log.contains("engine piper started"))
        }
        // The saved setting chooses Piper again: it starts with narratord, before any speech.
        let again = try DaemonHarness(extraArguments: ["--state-dir", state])
        defer { _ = again.stop() }
        let restarted = try engines(again) { $0.contains("piper: ready") }
        #expect(restarted == "engines:  espeak-ng: ready; flite: not started; piper: ready", "\(again.log)")
    }
}
