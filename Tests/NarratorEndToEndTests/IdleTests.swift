import Foundation
import NarratorPulseHarness
import Testing

/// A desktop runs narratord all day and speaks now and then: between utterances it must sleep.
/// A real daemon on a private sound server (PulseAudio, and PipeWire with pipewire-pulse; the sound
/// card stands in as a null sink), after speaking, with idle SSIP clients and a subscribed JSON
/// client connected, must not wake up at all once its stream is closed (the sink suspended):
/// none of its threads, libpulse's mainloop thread included (an open pcaudiolib stream asks the
/// server for its timing about once a second; the closed stream takes that thread with it).
@Suite("An idle daemon sleeps", .serialized)
struct IdleTests {
    /// Context switches so far of each of `pid`'s threads, by thread id.
    static func switches(of pid: Int32) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var counts: [String: Int] = [:]
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            counts[task] = status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches") || $0.hasPrefix("nonvoluntary_ctxt_switches") }
                .compactMap { Int($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
        }
        return counts
    }

    @Test("after speaking, with idle clients connected, the daemon's threads never wake", arguments: SoundServerKind.installed)
    func idleClientsCostNoWakeUps(_ kind: SoundServerKind) throws {
        let pulse = kind.make(keepSinkAwake: false)
        try pulse.start()
        defer { pulse.stop() }
        let daemon = try DaemonHarness(audio: "pulse", environment: pulse.environment, ssip: true)
        defer { _ = daemon.stop() }
        #expect(try daemon.client().request(["cmd": "status"])["audio"]?["output"] == "pulse")

        // Something is said first, so that every thread speech uses has run.
        let speaker = try SSIPTestClient(path: daemon.ssipSocket)
        try expectReply(try speaker.command("SET SELF NOTIFICATION ALL on"), "220 OK NOTIFICATION SET")
        try expectReply(try speaker.speak("Ready"), "225 OK MESSAGE QUEUED")
        _ = try speaker.read(until: "702 END")
        var idle: [SSIPTestClient] = [speaker]
        for index in 0..<10 {
            let client = try SSIPTestClient(path: daemon.ssipSocket)
            try expectReply(try client.command("SET SELF CLIENT_NAME user:idle:c\(index)"), "208 OK CLIENT NAME SET")
            try expectReply(try client.command("SET SELF NOTIFICATION ALL on"), "220 OK NOTIFICATION SET")
            idle.append(client)
        }
        let monitor = try SpeechMonitor(daemon)
        // The stream is closed after the idle time and the sink suspends: from then on, nothing.
        #expect(pulse.waitForSink("SUSPENDED", timeout: .seconds(20)), "the sink suspends on \(kind)")
        Thread.sleep(forTimeInterval: 0.5)

        let pid = daemon.process.processIdentifier
        let before = Self.switches(of: pid)
        Thread.sleep(forTimeInterval: 4)
        let after = Self.switches(of: pid)
        // A thread that ended meanwhile (an idle worker retiring) woke once to go; one that began counts whole.
        let woken = after.compactMap { thread, count -> String? in
            let added = count - (before[thread] ?? 0)
            return added > 0 ? "thread \(thread): \(added)" : nil
        }
        #expect(woken.isEmpty, "the idle daemon woke up over 4 s on \(kind): \(woken)")
        withExtendedLifetime((idle, monitor)) {}
    }
}
