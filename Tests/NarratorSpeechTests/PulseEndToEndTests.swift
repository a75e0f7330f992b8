import Foundation
import NarratorCore
@testable import NarratorSpeech
import Testing

/// A private PulseAudio server with a null sink, started by the test itself.
final class PrivatePulse: @unchecked Sendable {
    static let binary = "/usr/bin/pulseaudio"
    let directory: String
    let socket: String
    private var server: Process?
    private var keepAlive: Process?

    init() {
        directory = temporaryDirectory("pulse")
        socket = directory + "/native"
    }

    /// The environment that points libpulse and the pulse tools at this server.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:" + socket
        environment["PULSE_RUNTIME_PATH"] = directory
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory
        return environment
    }

    func start() throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.binary)
        // Headless, as root or not: no config files, our own socket, a null sink as default.
        server.arguments = [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--system=no",
            "--use-pid-file=no", "--log-target=stderr",
            "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            "-L", "module-null-sink sink_name=narrator_test rate=22050 channels=1",
        ]
        server.environment = environment
        server.standardError = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        self.server = server
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if (try? tool("/usr/bin/pactl", ["info"])) != nil { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // The null sink runs at its 2 s maximum latency while only one stream plays, and a new stream's
        // first write then waits up to 2 s; a silent low-latency stream keeps it at low latency, as a
        // hardware sink would be. It plays zeros, which the checks below treat as silence.
        keepAlive = try launch("/usr/bin/pacat", [
            "--playback", "--raw", "--format=s16le", "--rate=22050", "--channels=1", "--latency-msec=20", "/dev/zero",
        ])
    }

    func stop() {
        for process in [keepAlive, server].compactMap({ $0 }) {
            kill(process.processIdentifier, SIGTERM)
            _ = reap(process)
        }
        keepAlive = nil
        server = nil
    }

    /// Starts `parec` on the sink's monitor, writing raw mono s16le at 22050 Hz to `path`.
    func record(to path: String) throws -> Process {
        try launch("/usr/bin/parec", [
            "--device=narrator_test.monitor", "--raw", "--format=s16le", "--rate=22050", "--channels=1",
            "--latency-msec=20", "--file-format=raw", path,
        ])
    }

    func launch(_ program: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @discardableResult
    func tool(_ program: String, _ arguments: [String]) throws -> Int32 {
        let process = try launch(program, arguments)
        let status = reap(process)
        struct Failed: Error {}
        guard status == 0 else { throw Failed() }
        return status
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Waits for a child with `waitpid`: Foundation's `waitUntilExit` was seen to hang here with
/// several children alive, leaving the exited child a zombie.
func reap(_ process: Process) -> Int32 {
    var status: Int32 = 0
    while waitpid(process.processIdentifier, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xff
}

/// Reads a raw s16le recording.
func readRecording(_ path: String) -> [Int16] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    return data.withUnsafeBytes { raw in
        Array(raw.bindMemory(to: Int16.self))
    }
}

@Suite(
    "PulseAudio end to end",
    .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: PrivatePulse.binary), "pulseaudio is not installed"),
    .disabled("hangs after the private server and recorder start; not yet diagnosed (see docs/speech.md)")
)
struct PulseEndToEndTests {
    @Test("speech reaches the sink through the pulse output, and an interrupt silences it")
    func speechArrivesAndInterruptSilences() throws {
        let pulse = PrivatePulse()
        try pulse.start()
        defer { pulse.stop() }
        setenv("PULSE_SERVER", "unix:" + pulse.socket, 1)
        defer { unsetenv("PULSE_SERVER") }

        let recording = pulse.directory + "/recording.raw"
        let recorder = try pulse.record(to: recording)
        defer {
            kill(recorder.processIdentifier, SIGTERM)
            _ = reap(recorder)
        }

        let log = EventLog()
        let output = ServerOutput(spec: .pulse)
        #expect(output.outputStatus.active == "pulse", "\(output.outputStatus)")
        let service = try SpeechService(engine: sharedEngine, output: output, onEvent: log.handler)
        let long = String(repeating: "Narrator is reading a long paragraph aloud so that there is time to interrupt it. ", count: 6)
        let id = service.say(long, kind: .focus)

        // Wait (generously) until speech shows up in the recording.
        let rate = 22_050
        let window = rate / 20
        var heard = false
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !heard {
            Thread.sleep(forTimeInterval: 0.05)
            let samples = readRecording(recording)
            heard = stride(from: 0, to: max(0, samples.count - window), by: window).contains {
                rms(samples[$0..<$0 + window]) > 300
            }
        }
        #expect(heard, "speech reached the null sink's monitor")
        Thread.sleep(forTimeInterval: 0.3)

        service.stop()
        #expect(log.wait { $0.contains { $0.utterance == id && $0.isFinal } })
        let interruptedAt = readRecording(recording).count
        #expect(log.phases(id).last == .interrupted(by: nil))
        // The paragraph lasts much longer than this: without the interrupt the next second would be speech.
        Thread.sleep(forTimeInterval: 1.5)
        let samples = readRecording(recording)
        let settle = rate * 3 / 10  // what was already in flight in the recorder's own buffers
        let after = samples.dropFirst(interruptedAt + settle).prefix(rate)
        #expect(after.count > rate / 2, "the recorder kept recording")
        #expect(rms(after) < 50, "silence after the interrupt (rms \(rms(after)))")
        #expect(after.map { abs(Int($0)) }.max() ?? 0 < 300)
    }

    @Test("losing the sound server falls back to null and reconnects when it returns")
    func fallbackAndReconnect() throws {
        let pulse = PrivatePulse()
        try pulse.start()
        setenv("PULSE_SERVER", "unix:" + pulse.socket, 1)
        defer { unsetenv("PULSE_SERVER") }

        let output = ServerOutput(spec: .pulse, retryInterval: .milliseconds(200))
        #expect(output.outputStatus.active == "pulse")
        let log = EventLog()
        let service = try SpeechService(engine: sharedEngine, output: output, onEvent: log.handler)

        pulse.stop()
        let first = service.say("The server is gone but speech goes on.", kind: .focus)
        #expect(log.wait { $0.contains { $0.utterance == first && $0.isFinal } })
        #expect(log.phases(first).last == .finished, "the utterance still completes, in real time on null")
        #expect(service.status.output.fallback)
        #expect(service.status.output.active == "null")

        try pulse.start()
        defer { pulse.stop() }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && service.status.output.active != "pulse" {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(service.status.output.active == "pulse")
        #expect(!service.status.output.fallback)
        let second = service.say("Back again.", kind: .focus)
        #expect(log.wait { $0.contains { $0.utterance == second && $0.isFinal } })
        #expect(log.phases(second).last == .finished)
    }
}
