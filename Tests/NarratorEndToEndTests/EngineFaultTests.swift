import Foundation
import Glibc
import NarratorPulseHarness
import NarratorSystem
import NarratorTestSupport
import Synchronization
import Testing

/// The real narrator-flite and narrator-piper, started by the built narratord for an SSIP client
/// that picked them, killed (SIGKILL) and then stopped (SIGSTOP) in the middle of a long text: other
/// clients are answered meanwhile, the rest of the text is heard from eSpeak NG at the sound server,
/// the journal says what happened once, `status` shows the engine restarting and then ready, and
/// the engine comes back by itself to speak the next utterance. One daemon per engine: Piper's
/// model is loaded at each start, so the two faults share it.
@Suite(.serialized) struct EngineFaultTests {
    static let long = """
        The first sentence of this text is long enough to be heard well before anything happens to the engine. \
        The second sentence keeps the engine busy, so that what comes next has something to interrupt. \
        The third sentence is still being read when the engine is gone. \
        The fourth sentence is the last one, and it is heard all the same.
        """

    /// One daemon on a private PulseAudio server, with an SSIP client that picked `engine`.
    final class Rig {
        let engine: String
        let executable: String
        let pulse = PrivatePulseServer()
        let daemon: DaemonHarness
        let speaker: SSIPTestClient

        init(engine: String) throws {
            self.engine = engine
            executable = "narrator-" + engine
            try pulse.start()
            daemon = try DaemonHarness(audio: "pulse", environment: pulse.environment, ssip: true)
            speaker = try SSIPTestClient(path: daemon.ssipSocket)
            try expectReply(try speaker.command("SET SELF CLIENT_NAME narrator-test:faults:speaker"), "208 OK CLIENT NAME SET")
            try expectReply(try speaker.command("SET SELF NOTIFICATION ALL on"), "220 OK NOTIFICATION SET")
            try expectReply(try speaker.command("SET SELF OUTPUT_MODULE \(engine)"), "216 OK OUTPUT MODULE SET")
        }

        deinit { pulse.stop() }

        var pid: pid_t { daemon.process.processIdentifier }

        /// Another SSIP client, at notification priority so that its message leaves the speaker's
        /// text alone (a text, from any client, would cancel it).
        func otherClient() throws -> SSIPTestClient {
            let other = try SSIPTestClient(path: daemon.ssipSocket)
            try expectReply(try other.command("SET SELF CLIENT_NAME narrator-test:faults:other"), "208 OK CLIENT NAME SET")
            try expectReply(try other.command("SET SELF PRIORITY notification"), "202 OK PRIORITY SET")
            return other
        }

        /// Speaks `text` and reads the speaker's events until its `final` event (`702 END`, ...).
        func say(_ text: String, until final: String) throws -> [[String]] {
            let reply = try speaker.speak(text)
            try expectReply(reply, "225 OK MESSAGE QUEUED")
            return try speaker.read(until: final, timeout: .seconds(60))
        }

        /// Ends the long text eSpeak NG is reading for the lost engine (heard already; the rest
        /// would only make the test longer), and reads up to its end.
        func cancelTheRest() throws {
            try speaker.write("CANCEL SELF\r\n")
            var seen: [[String]] = []
            // The reply and the message's last event, in either order.
            func ended() -> Bool { seen.contains { ["703 CANCELED", "702 END"].contains($0.last ?? "") } }
            repeat { seen.append(try speaker.reply(timeout: .seconds(60))) } while !(ended() && seen.contains { $0.last == "213 OK CANCELED" })
        }

        /// Journal lines (narratord's stderr) containing every one of `parts`.
        func journal(_ parts: String...) -> [String] {
            daemon.log.split(separator: "\n").map(String.init).filter { line in parts.allSatisfy { line.contains($0) } }
        }

        /// Waits until the journal holds `count` lines with every one of `parts`.
        func waitForJournal(_ parts: String..., count: Int = 1, timeout: TimeInterval = 60) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            repeat {
                if daemon.log.split(separator: "\n").filter({ line in parts.allSatisfy { line.contains($0) } }).count >= count { return true }
                usleep(20_000)
            } while Date() < deadline
            return false
        }

        /// This engine's state in a JSON `status` asked on `client`.
        func engineState(on client: RawClient) throws -> String? {
            let status = try client.request(["cmd": "status"])
            return status["engines"]?.arrayValue?.first { $0["name"] == .string(engine) }?["state"]?.stringValue
        }

        /// Watches this engine's state in `status` from now on, on a connection of its own.
        func watchStates() -> StateWatch { StateWatch(engine: engine, socket: daemon.socket) }

        /// Starts recording the sink; the recording's path.
        func record(_ name: String) throws -> (path: String, recorder: ChildProcess) {
            let path = pulse.directory + "/\(name).s16le"
            return (path, try pulse.record(to: path))
        }
    }

    /// Whether the recording at `path` holds speech after its first `skip` seconds (audio the
    /// engine had already handed over plays out in much less), polled until `timeout`.
    static func speech(in path: String, after skip: Double, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let samples = PrivatePulseServer.samples(in: path)
            let start = Int(skip * 22_050)
            if samples.count > start, SpeechDetection.containsSpeech(Array(samples[start...])) { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }

    @Test(.enabled(if: PrivatePulseServer.isInstalled, "PulseAudio is not installed (apt-get install pulseaudio pulseaudio-utils)"),
          arguments: ["flite", "piper"])
    func anEngineKilledOrStoppedMidSentenceIsSurvived(_ engine: String) throws {
        let rig = try Rig(engine: engine)
        // The first job starts the engine.
        _ = try rig.say("Starting the engine.", until: "702 END")
        #expect(rig.journal("engine \(engine) started").count == 1, "\(rig.daemon.log)")
        let first = try #require(EngineChild.wait(of: rig.pid, named: rig.executable), "no \(rig.executable) child of narratord")

        try killed(rig, first)
        let second = try #require(EngineChild.one(of: rig.pid, named: rig.executable))
        try stopped(rig, second)
    }

    /// What `status` showed from the fault until the engine was back: ready, restarting, ready.
    /// Flite restarts in a few milliseconds, which a poll may miss; Piper loads its model for a
    /// second or more, and its restart must be seen.
    static func expectRestartShown(_ states: [String], _ engine: String) {
        #expect(states.last == "ready", "status showed \(states)")
        #expect(states.allSatisfy { ["ready", "restarting"].contains($0) }, "status showed \(states)")
        if engine == "piper" || states.contains("restarting") {
            #expect(states.drop { $0 != "restarting" }.last == "ready" && states.contains("restarting"), "status showed \(states)")
        }
    }

    /// SIGKILL in the middle of the long text.
    func killed(_ rig: Rig, _ child: EngineChild) throws {
        let engine = rig.engine
        let before = try rig.record("before-kill")
        defer { _ = try? before.recorder.kill() }
        try expectReply(try rig.speaker.speak(Self.long), "225 OK MESSAGE QUEUED")
        _ = try rig.speaker.read(until: "701 BEGIN")
        #expect(SpeechDetection.waitForSpeech(in: before.path), "\(engine) was not heard before the kill")
        let watch = rig.watchStates()
        child.send(SIGKILL)

        // Others are answered: a second SSIP client and the JSON protocol.
        let other = try rig.otherClient()
        try expectReply(try other.speak("A second client."), "225 OK MESSAGE QUEUED")
        #expect(try rig.engineState(on: rig.daemon.client()) != nil)

        #expect(rig.waitForJournal("engine \(engine) killed by signal 9", "starting it again"), "\(rig.daemon.log)")
        let after = try rig.record("after-kill")
        defer { _ = try? after.recorder.kill() }
        #expect(Self.speech(in: after.path, after: 1), "nothing heard from eSpeak NG after \(engine) was killed")
        #expect(rig.waitForJournal("engine \(engine) is back"), "\(rig.daemon.log)")
        Self.expectRestartShown(watch.stop(), engine)
        try rig.cancelTheRest()
        try spokenByTheNewEngine(rig, replacing: child, fault: "killed")
        #expect(rig.journal("engine \(engine) ", "starting it again").count == 1, "\(rig.daemon.log)")
    }

    /// SIGSTOP in the middle of the long text: a hang the kernel holds, given up at the hang bound.
    func stopped(_ rig: Rig, _ child: EngineChild) throws {
        let engine = rig.engine
        let before = try rig.record("before-stop")
        defer { _ = try? before.recorder.kill() }
        try expectReply(try rig.speaker.speak(Self.long), "225 OK MESSAGE QUEUED")
        _ = try rig.speaker.read(until: "701 BEGIN")
        #expect(SpeechDetection.waitForSpeech(in: before.path), "\(engine) was not heard before the stop")
        let watch = rig.watchStates()
        child.send(SIGSTOP)
        defer { child.send(SIGCONT) }  // a test that fails early leaves no stopped process behind
        // The signal is delivered on its own time: the kernel shows the stop before the test goes on.
        let stopDeadline = Date().addingTimeInterval(10)
        while let state = child.state, state != "T", Date() < stopDeadline { usleep(1_000) }

        // While the engine is stopped (and before its hang bound gives it up), others are answered.
        #expect(child.state == "T")
        let other = try rig.otherClient()
        try expectReply(try other.speak("Answered while the engine is stopped."), "225 OK MESSAGE QUEUED")
        let state = try rig.engineState(on: rig.daemon.client())
        #expect(state != nil)
        #expect(child.state == "T", "the replies came only after \(engine) was given up")

        // The second outage is news of its own; its reason ("did not answer for 1 s") is left to
        // the hang rule's wording, which may count CPU time, so long as it is not the kill's.
        #expect(rig.waitForJournal("engine \(engine) ", "starting it again", count: 2), "\(rig.daemon.log)")
        #expect(rig.journal("engine \(engine) ", "starting it again").last?.contains("signal 9") == false, "\(rig.daemon.log)")
        let after = try rig.record("after-stop")
        defer { _ = try? after.recorder.kill() }
        #expect(Self.speech(in: after.path, after: 1), "nothing heard from eSpeak NG after \(engine) was stopped")
        #expect(rig.waitForJournal("engine \(engine) is back", count: 2), "\(rig.daemon.log)")
        Self.expectRestartShown(watch.stop(), engine)
        try rig.cancelTheRest()
        try spokenByTheNewEngine(rig, replacing: child, fault: "stopped")
        #expect(rig.journal("engine \(engine) ", "starting it again").count == 2, "said once per outage: \(rig.daemon.log)")
    }

    /// The next utterance for the engine is synthesized by a new process: it is a different child,
    /// it uses CPU while the utterance is spoken, and the utterance is heard.
    func spokenByTheNewEngine(_ rig: Rig, replacing old: EngineChild, fault: String) throws {
        let new = try #require(EngineChild.wait(of: rig.pid, named: rig.executable, other: old), "no new \(rig.executable) after it was \(fault)")
        #expect(new != old)
        #expect(old.state == nil, "the \(fault) \(rig.executable) was not reaped")
        let recording = try rig.record("back-after-\(fault)")
        defer { _ = try? recording.recorder.kill() }
        usleep(300_000)
        let ticks = new.cpuTicks
        _ = try rig.say(
"The engine is back, and this sentence is spoken by it again, from its beginning to its end.", until: "702 END")
        #expect(new.cpuTicks > ticks, "\(rig.executable) \(new.pid) did not synthesize the utterance after it was \(fault)")
        #expect(SpeechDetection.containsSpeech(PrivatePulseServer.samples(in: recording.path)), "nothing heard once \(rig.engine) was back")
        #expect(EngineChild.one(of: rig.pid, named: rig.executable) == new)
    }
}

/// An engine's states as `status` shows them, polled as fast as narratord answers on a
/// connection of its own, until ``stop()`` (or until it is ready again after restarting).
final class StateWatch: Sendable {
    private let seen = Mutex<[String]>([])
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(engine: String, socket: String) {
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            guard let client = try? RawClient(path: socket) else { return }
            while true {
                // Asked to stop, it reads status once more: what the journal said last is shown by then.
                let last = stopping.withLock { $0 }
                guard let status = try? client.request(["cmd": "status"]) else { return }
                let state = status["engines"]?.arrayValue?.first { $0["name"] == .string(engine) }?["state"]?.stringValue ?? "absent"
                let back = seen.withLock { seen in
                    if seen.last != state { seen.append(state) }
                    return state == "ready" && seen.contains("restarting")
                }
                if back || last { return }
            }
        }
    }

    /// Stops polling after one more status; what was seen, each change once.
    func stop() -> [String] {
        stopping.withLock { $0 = true }
        finished.wait()
        return seen.withLock { $0 }
    }
}
