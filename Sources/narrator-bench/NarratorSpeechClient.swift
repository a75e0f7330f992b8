import Foundation
import NarratorPulseHarness
import NarratorSystem

/// A release narratord (beside this binary) playing through PulseAudio and serving SSIP on
/// ``ssipSocket`` too, with one subscribed JSON connection that sends `speak`/`stop` and receives
/// their replies and the speech events.
final class NarratorSpeechClient {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A line from the daemon, timed as soon as it was read (before it is parsed).
    struct Line {
        var object: [String: Any]
        var at: Double

        var isEvent: Bool { object["event"] != nil }
        var phase: String? { object["phase"] as? String }
        var utterance: Int? { (object["utterance"] as? NSNumber)?.intValue }
        var id: Int? { (object["id"] as? NSNumber)?.intValue }
    }

    let directory: String
    var log: String { directory + "/narratord.stderr" }
    /// Where narratord serves Speech Dispatcher's protocol (`--ssip`).
    var ssipSocket: String { directory + "/speechd.sock" }
    var pid: Int32 { process.pid }
    private let process: ChildProcess
    private let client: UnixClient
    private var nextID = 0

    /// - Parameters:
    ///   - arguments: more of narratord's options, after the benchmark's own (`--engines none`).
    ///   - daemon: the narratord to run; nil: the one beside this binary.
    init(pulse: any SoundServer, directory: String, arguments: [String] = [], daemon: String? = nil) throws {
        self.directory = directory
        let daemon = daemon ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("narratord").path
        guard FileManager.default.isExecutableFile(atPath: daemon) else {
            throw Failure(description: "no narratord at \(daemon): build it with `swift build -c release --product narratord`")
        }
        let socket = directory + "/narratord.sock"
        process = try ChildProcess(
            daemon, ["--socket", socket, "--ssip", directory + "/speechd.sock", "--audio", "pulse", "--state-dir", directory + "/state", "--log-level", "warning"] + arguments,
            environment: pulse.environment, output: directory + "/narratord.stdout", error: directory + "/narratord.stderr")
        var connected: UnixClient?
        let deadline = Clock.now() + 20
        while connected == nil, Clock.now() < deadline {
            if let ended = try process.poll() { throw Failure(description: "narratord \(ended) at start-up; see \(directory)/narratord.stderr") }
            connected = try? UnixClient(connectingTo: socket)
            if connected == nil { usleep(10_000) }
        }
        guard let connected else {
            _ = try? process.kill()
            throw Failure(description: "narratord did not open \(socket) within 20 s")
        }
        client = connected
        let reply = try request(#""cmd": "subscribe""#)
        guard reply.object["ok"] as? Bool == true else { throw Failure(description: "subscribe failed: \(reply.object)") }
    }

    deinit { stop() }

    func stop() {
        client.close()
        _ = try? process.kill()
    }

    /// The audio output the daemon reports in `status`, to show it really plays through PulseAudio.
    func audioOutput() throws -> String {
        let reply = try request(#""cmd": "status""#)
        let audio = reply.object["audio"] as? [String: Any]
        return "\(audio?["output"] ?? "?")" + ((audio?["fallback"] as? Bool) == true ? " (fallback)" : "")
    }

    /// Sends a request; returns the time the kernel took the line. Its reply comes with `next`.
    @discardableResult
    func send(_ body: String) throws -> (id: Int, sent: Double) {
        nextID += 1
        try client.send(line: #"{"id": \#(nextID), "# + body + "}")
        return (nextID, Clock.now())
    }

    func next(timeout: Duration = .seconds(15)) throws -> Line {
        guard let text = try client.readLine(timeout: timeout) else { throw Failure(description: "narratord closed the connection") }
        let at = Clock.now()
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure(description: "narratord sent a line that is not an object: \(text)")
        }
        return Line(object: object, at: at)
    }

    /// Sends a request and waits for its reply, passing over events.
    func request(_ body: String) throws -> Line {
        let (id, _) = try send(body)
        while true {
            let line = try next()
            if !line.isEvent, line.id == id { return line }
        }
    }

    /// `speak`: the utterance's id, the time the request was sent, and any events already read.
    func speak(_ text: String) throws -> (speech: Int, sent: Double, early: [Line]) {
        // A JSON string literal of `text`: the array ["text"] without its brackets.
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast()
        let (id, sent) = try send(#""cmd": "speak", "text": "# + String(quoted))
        var early: [Line] = []
        while true {
            let line = try next()
            if line.isEvent { early.append(line); continue }
            guard line.id == id else { continue }
            guard line.object["ok"] as? Bool == true, let speech = (line.object["speech"] as? NSNumber)?.intValue else {
                throw Failure(description: "speak failed: \(line.object)")
            }
            return (speech, sent, early)
        }
    }

    /// Waits for a speech event of `utterance` whose phase is one of `phases`; returns its time and phase.
    func waitForEvent(_ phases: Set<String>, utterance: Int, early: [Line] = [], timeout: Duration = .seconds(15)) throws -> (at: Double, phase: String) {
        for line in early where line.utterance == utterance {
            if let phase = line.phase, phases.contains(phase) { return (line.at, phase) }
        }
        while true {
            let line = try next(timeout: timeout)
            if line.isEvent, line.utterance == utterance, let phase = line.phase, phases.contains(phase) { return (line.at, phase) }
        }
    }
}
