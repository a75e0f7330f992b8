import Foundation
import NarratorModel
import NarratorPulseHarness
import NarratorSystem
import Testing

/// A desktop's sound server suspends its sink (and the sound card) when nothing plays, unless a
/// client keeps a stream open. A real `narratord --audio pulse` on a private PulseAudio server and
/// on a private PipeWire server (pipewire-pulse and WirePlumber), each suspending an idle sink
/// after 1 s: after speaking, the daemon closes its stream, the sink suspends while the daemon
/// runs, and the next utterance wakes it and is heard. Recorded from the sink's monitor with
/// `parec` (which itself keeps a sink awake, so no recorder runs while the sink is to suspend).
@Suite("The sound server idles when narratord does", .serialized)
struct SoundServerIdleTests {
    static let sentence = "The sound server may sleep now, and wake when Narrator speaks again."
    static let paragraph = String(
        repeating: "Narrator speaks again after the sound server suspended its sink, and is heard. ", count: 3)

    @Test("after speech and the idle time the sink suspends while narratord runs, and later speech wakes it and is heard",
          arguments: SoundServerKind.installed)
    func sinkSuspendsAndWakes(_ kind: SoundServerKind) throws {
        let server = kind.make(keepSinkAwake: false)
        try server.start()
        defer { server.stop() }
        let daemon = try DaemonHarness(audio: "pulse", environment: server.environment)
        defer { _ = daemon.stop() }
        let app = try daemon.client()
        let monitor = try SpeechMonitor(daemon)
        #expect(try app.request(["cmd": "status"])["audio"]?["output"] == "pulse")

        let first = server.directory + "/first.raw"
        let recorder = try server.record(to: first)
        let said = try speak(app, Self.sentence)
        #expect(try monitor.final(of: said) == "finished")
        #expect(SpeechDetection.containsSpeech(PrivatePulseServer.samples(in: first)), "the first sentence was heard on \(kind)")
        _ = try recorder.kill()

        // Nothing plays: the daemon's stream goes, and the server suspends the sink (1 s after
        // it falls idle) while the daemon keeps running.
        #expect(server.waitForSink("SUSPENDED", timeout: .seconds(20)),
                "the sink suspends while narratord idles on \(kind) (state: \(server.sinkState() ?? "?"))\n\(daemon.log)")
        #expect(daemon.process.isRunning)
        #expect(try app.request(["cmd": "status"])["audio"]?["output"] == "pulse", "the output is still the sound server")

        // The next utterance opens a stream again, which wakes the sink (no recorder yet: the
        // daemon's own stream must do it), and it is heard.
        let again = try speak(app, Self.paragraph)
        #expect(try monitor.wait(for: "started", of: again))
        #expect(server.waitForSink("RUNNING", timeout: .seconds(20)), "narratord's stream wakes the sink on \(kind)")
        let second = server.directory + "/second.raw"
        let secondRecorder = try server.record(to: second)
        #expect(SpeechDetection.waitForSpeech(in: second), "speech after the suspension was heard on \(kind)")
        #expect(try monitor.final(of: again) == "finished")
        let rows = try loggedRows(daemon) { rows in rows.contains { $0["text"]?.stringValue == Self.paragraph && $0["outcome"] != nil } }
        let row = rows.first { $0["text"]?.stringValue == Self.paragraph }
        #expect(row?["outcome"] == "spoken", "the log says spoken: \(row?.compactText ?? "no row")")

        // And once it has ended, the sink suspends again.
        _ = try secondRecorder.kill()
        #expect(server.waitForSink("SUSPENDED", timeout: .seconds(20)), "the sink suspends again on \(kind)")
    }

    @Test("a sentence recorded at the sink has no run of clipped samples, at the normal volume and the loudest",
          arguments: SoundServerKind.installed)
    func noClipping(_ kind: SoundServerKind) throws {
        let server = kind.make()
        try server.start()
        defer { server.stop() }
        let daemon = try DaemonHarness(audio: "pulse", environment: server.environment)
        defer { _ = daemon.stop() }
        let app = try daemon.client()
        let monitor = try SpeechMonitor(daemon)
        for volume in [100, 200] {
            #expect(try app.request(["cmd": "set", "key": "volume", "value": .number(Double(volume))])["value"] == .string("\(volume)"))
            let path = server.directory + "/volume-\(volume).raw"
            let recorder = try server.record(to: path)
            let said = try speak(app, "Warning! The battery is low. Boom, bang, pop: seven hundred and seventy seven, and yes!")
            #expect(try monitor.final(of: said) == "finished")
            Thread.sleep(forTimeInterval: 0.3)
            _ = try recorder.kill()
            let samples = PrivatePulseServer.samples(in: path)
            #expect(SpeechDetection.containsSpeech(samples), "the sentence was heard at volume \(volume) on \(kind)")
            let runs = ClippedRuns(samples)
            #expect(runs.longest < 2, "at volume \(volume) on \(kind): \(runs)")
        }
    }

    private func speak(_ app: RawClient, _ text: String) throws -> Double {
        let reply = try app.request(["cmd": "speak", "text": .string(text)])
        guard let id = reply["speech"]?.numberValue else {
            throw DaemonHarness.HarnessError(message: "speak was refused: \(reply.compactText)")
        }
        return id
    }

    /// The log's rows as `narratorctl log --json` prints them, read until `done` holds.
    private func loggedRows(_ daemon: DaemonHarness, until done: ([JSONValue]) -> Bool) throws -> [JSONValue] {
        let database = daemon.directory + "/state/narrator.db"
        var rows: [JSONValue] = []
        for _ in 0..<200 {
            rows = try JSONParser().parse(try daemon.ctl("log", "--json", "--db", database).stdout).arrayValue ?? []
            if done(rows) { break }
            usleep(50_000)
        }
        return rows
    }
}

/// Samples at full scale (|x| >= 32767) in runs: a lone one can be a peak, two in a row are a flat top.
struct ClippedRuns: CustomStringConvertible {
    var count = 0
    var longest = 0

    init(_ samples: [Int16]) {
        var run = 0
        for sample in samples {
            if sample >= 32_767 || sample <= -32_767 {
                count += 1
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
    }

    var description: String { "\(count) samples at full scale, longest run \(longest)" }
}
