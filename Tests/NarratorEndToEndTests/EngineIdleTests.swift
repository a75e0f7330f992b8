import Foundation
import Glibc
import Testing

/// The built narratord stops an engine process nobody has used for `--engine-idle` seconds, and
/// the memory it held is narratord's no more: Piper, after a long text, holds some hundreds of
/// MiB. Its next speech starts it again and is spoken by it.
@Suite struct EngineIdleTests {
    static let long = """
        The first sentence of this text is read by Piper, which loads its voice model for it. \
        The second sentence keeps the engine busy a little longer, as a long text does. \
        The third sentence is the last one, and after it nobody asks the engine for anything.
        """

    /// Resident memory of narratord and every child it has now, in bytes, and the children's pids.
    static func residentWithChildren(of pid: pid_t) throws -> (bytes: Int, children: [pid_t]) {
        let children = EngineChild.all(of: pid, named: nil).map(\.pid)
        var bytes = try MemoryTests.residentBytes(of: pid)
        // A child may end between the listing and its reading: it then holds nothing.
        for child in children { bytes += (try? MemoryTests.residentBytes(of: child)) ?? 0 }
        return (bytes, children)
    }

    /// This engine's state in a JSON `status`.
    static func state(of engine: String, on client: RawClient) throws -> String? {
        let status = try client.request(["cmd": "status"])
        return status["engines"]?.arrayValue?.first { $0["name"] == .string(engine) }?["state"]?.stringValue
    }

    /// What became of one `speak`: the engine its `started` event named, its final phase, and
    /// narratord's Piper process while it was spoken.
    struct Spoken: Equatable {
        var engine: String?
        var phase: String?
        var piper: EngineChild?
    }

    /// Speaks `text` and reads the monitor's events for it until its final one.
    static func speak(_ text: String, on client: RawClient, monitor: RawClient, daemon pid: pid_t) throws -> Spoken {
        let reply = try client.request(["cmd": "speak", "text": .string(text)])
        let utterance = try #require(reply["speech"], "\(reply.compactText)")
        var spoken = Spoken()
        while true {
            let event = try monitor.nextEvent(timeout: .seconds(120))
            guard event["event"] == "speech", event["utterance"] == utterance else { continue }
            spoken.phase = event["phase"]?.stringValue
            if spoken.phase == "started" { spoken.engine = event["engine"]?.stringValue }
            let final = ["finished", "interrupted", "dropped"].contains(spoken.phase ?? "")
            // The utterance starts as it is handed to the engine, which may be starting then.
            if spoken.phase == "started" || final { spoken.piper = spoken.piper ?? EngineChild.one(of: pid, named: "narrator-piper") }
            if final { return spoken }
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: DaemonHarness.binaries + "/narrator-piper"), "narrator-piper is not built (make piper)"))
    func anUnusedEngineIsStoppedAndItsMemoryGivenBack() throws {
        let daemon = try DaemonHarness(extraArguments: ["--engine-idle", "3"])
        defer { _ = daemon.stop() }
        let pid = daemon.process.processIdentifier
        let client = try daemon.client()
        let monitor = try daemon.client()
        #expect(try monitor.request(["cmd": "subscribe"])["ok"] == true)
        #expect(try client.request(["cmd": "get", "key": "engine-idle"])["value"] == "3", "--engine-idle sets the setting")

        // What narratord holds with eSpeak NG alone, once it has spoken.
        let espeak = try Self.speak("Before any engine process.", on: client, monitor: monitor, daemon: pid)
        #expect(espeak == Spoken(engine: "espeak-ng", phase: "finished", piper: nil))
        let before = try Self.residentWithChildren(of: pid)
        #expect(before.children.isEmpty, "an engine runs before anyone chose one: \(before.children)")

        #expect(try client.request(["cmd": "set", "key": "engine", "value": "piper"])["value"] == "piper")
        let long = try Self.speak(Self.long, on: client, monitor: monitor, daemon: pid)
        #expect(long.engine == "piper" && long.phase == "finished", "\(daemon.log)")
        let first = try #require(long.piper, "no Piper process spoke: \(daemon.log)")
        let busy = try Self.residentWithChildren(of: pid)
        #expect(busy.children == [first.pid], "Piper was stopped before it went unused for 3 s: \(daemon.log)")

        // Unused for 3 s, it is stopped: waited for with a generous deadline.
        var state: String?
        let deadline = Date().addingTimeInterval(60)
        repeat {
            state = try Self.state(of: "piper", on: client)
            if state != "idle" { usleep(100_000) }
        } while state != "idle" && Date() < deadline
        #expect(state == "idle", "\(daemon.log)")
        #expect(first.state == nil, "Piper's process (\(first.pid)) is still there")
        #expect(EngineChild.all(of: pid, named: "narrator-piper").isEmpty)
        let after = try Self.residentWithChildren(of: pid)
        #expect(after.children.isEmpty, "\(after.children)")
        let mib = { (bytes: Int) in bytes >> 20 }
        print("engine-idle: narratord with its children held \(mib(before.bytes)) MiB with eSpeak NG, \(mib(busy.bytes)) MiB after Piper's long text, \(mib(after.bytes)) MiB once Piper was stopped")
        #expect(busy.bytes - after.bytes >= 100 << 20, "Piper's memory was not given back: \(mib(busy.bytes)) MiB, then \(mib(after.bytes)) MiB")
        #expect(after.bytes - before.bytes < 32 << 20, "narratord holds \(mib(after.bytes - before.bytes)) MiB more than before Piper ran")
        #expect(daemon.log.contains("engine piper stopped, unused for 3 s (engine-idle): its next speech starts it again"), "\(daemon.log)")

        // The next speech starts it again, and Piper speaks it.
        let again = try Self.speak("Piper again, started by this.", on: client, monitor: monitor, daemon: pid)
        #expect(again.engine == "piper" && again.phase == "finished", "\(daemon.log)")
        #expect(again.piper != nil && again.piper != first, "no new Piper process spoke: \(daemon.log)")
        #expect(try Self.state(of: "piper", on: client) != "restarting")
    }

    /// `narratorctl set engine-idle` reaches an engine already running: Flite, started by its
    /// choice and unused since, is stopped once the new limit is shorter than its time unused.
    @Test func aShorterLimitSetLiveStopsARunningEngine() throws {
        let daemon = try DaemonHarness()
        defer { _ = daemon.stop() }
        let pid = daemon.process.processIdentifier
        let client = try daemon.client()
        #expect(try client.request(["cmd": "get", "key": "engine-idle"])["value"] == "300", "a few minutes by default")
        #expect(try daemon.ctl("set", "engine", "flite").status == 0)
        let flite = try #require(EngineChild.wait(of: pid, named: "narrator-flite", timeout: 60), "\(daemon.log)")
        var state: String?
        let ready = Date().addingTimeInterval(60)
        repeat {
            state = try Self.state(of: "flite", on: client)
            if state != "ready" { usleep(100_000) }
        } while state != "ready" && Date() < ready
        #expect(state == "ready", "\(daemon.log)")

        #expect(try daemon.ctl("set", "engine-idle", "1").stdout == "engine-idle = 1\n")
        let deadline = Date().addingTimeInterval(60)
        repeat {
            state = try Self.state(of: "flite", on: client)
            if state != "idle" { usleep(100_000) }
        } while state != "idle" && Date() < deadline
        #expect(state == "idle", "\(daemon.log)")
        #expect(flite.state == nil, "Flite's process (\(flite.pid)) is still there")
        #expect(try daemon.ctl("status").stdout.contains("flite: idle"))
    }
}
