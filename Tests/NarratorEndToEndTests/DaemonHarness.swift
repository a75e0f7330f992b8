import Foundation
import NarratorModel
import NarratorSystem
import NarratorTestSupport
import Synchronization

/// The daemon's stderr, collected from the pipe's reader thread.
final class LogBuffer: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A real `narratord` on a temporary socket (null audio by default: real synthesis, no sound card),
/// driven by the real `narratorctl` and by raw socket clients. Each test gets its own daemon.
final class DaemonHarness {
    static var binaries: String { BuiltProducts.directory }
    static var repository: String { BuiltProducts.repository }

    let directory: String
    let socket: String
    /// Where Speech Dispatcher's clients reach it, when started with `ssip: true`.
    let ssipSocket: String
    let process = Process()
    private let errPipe = Pipe()
    private let stderrBuffer = LogBuffer()

    /// Starts the daemon and waits until it answers `hello`.
    ///
    /// - Parameters:
    ///   - audio: the `--audio` spec; `pulse` with a private server's `environment` reaches that server.
    ///   - environment: the daemon's whole environment; nil inherits the test's.
    ///   - ssip: also serve Speech Dispatcher's protocol, on ``ssipSocket``.
    init(
        audio: String = "null", environment: [String: String]? = nil,
        extraArguments: [String] = [], socketDirectoryMode: mode_t = 0o700, ssip: Bool = false
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-e2e-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, socketDirectoryMode)
        socket = directory + "/narratord.sock"
        ssipSocket = directory + "/speechd.sock"
        process.executableURL = URL(fileURLWithPath: Self.binaries + "/narratord")
        process.arguments = ["--socket", socket, "--audio", audio, "--state-dir", directory + "/state", "--log-level", "debug"]
            + (ssip ? ["--ssip", ssipSocket] : []) + extraArguments
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        if let environment { process.environment = environment }
        let buffer = stderrBuffer
        errPipe.fileHandleForReading.readabilityHandler = { handle in buffer.append(handle.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let client = try? UnixClient(connectingTo: socket) {
                client.close()
                return
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw HarnessError(message: "narratord did not start: \(log)")
    }

    struct HarnessError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// What the daemon wrote to stderr so far.
    var log: String { stderrBuffer.text }

    deinit {
        if process.isRunning {
            // A daemon whose loop is stuck (the fault a failing test found) does not take
            // SIGTERM: it is killed, so the failure is reported rather than hung on.
            process.terminate()
            let by = Date().addingTimeInterval(15)
            while process.isRunning, Date() < by { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        errPipe.fileHandleForReading.readabilityHandler = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends SIGTERM and waits for the exit status.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    typealias Output = CompletedRun

    /// Runs `narratorctl --socket SOCKET ARGS...` to completion.
    @discardableResult
    func ctl(_ arguments: String..., stdin: String? = nil) throws -> Output {
        try Self.run(Self.binaries + "/narratorctl", ["--socket", socket] + arguments, stdin: stdin)
    }

    static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil, timeout: Duration? = nil
    ) throws -> Output {
        try CompletedRun.run(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// A raw protocol client: JSON lines over the socket, as an app would speak it.
    func client() throws -> RawClient { try RawClient(path: socket) }
}

final class RawClient {
    let connection: UnixClient
    private var nextID = 0

    init(path: String) throws { connection = try UnixClient(connectingTo: path) }
    deinit { connection.close() }

    /// Sends a request (an id is added) and returns its reply, keeping any events that arrive first.
    func request(_ object: JSONValue) throws -> JSONValue {
        nextID += 1
        guard case .object(var fields) = object else { fatalError("requests are objects") }
        fields.members.insert(.init(key: "id", value: .number(Double(nextID))), at: 0)
        try connection.send(line: JSONValue.object(fields).compactText)
        while true {
            let line = try next()
            if line["event"] != nil { events.append(line); continue }
            return line
        }
    }

    /// Events received while waiting for replies, in order.
    var events: [JSONValue] = []

    /// The next line from the daemon, parsed.
    func next(timeout: Duration = .seconds(20)) throws -> JSONValue {
        guard let line = try connection.readLine(timeout: timeout) else { throw DaemonHarness.HarnessError(message: "connection closed") }
        return try JSONParser().parse(line)
    }

    /// The next event (from those buffered, or read now).
    func nextEvent(timeout: Duration = .seconds(20)) throws -> JSONValue {
        if !events.isEmpty { return events.removeFirst() }
        return try next(timeout: timeout)
    }

    /// Sends raw bytes as one line (for malformed requests).
    func sendRaw(_ text: String) throws { try connection.send(line: text) }
}

func loadExample(_ name: String) throws -> JSONValue {
    let data = try Data(contentsOf: URL(fileURLWithPath: DaemonHarness.repository + "/examples/" + name))
    return try JSONParser().parse([UInt8](data))
}
