import Foundation
import Glibc
import NarratorBase
@testable import NarratorDaemon
import NarratorStore
import NarratorSystem

/// narratord's connection handler as the daemon starts it (eSpeak NG with null audio, the
/// settings file and the SQLite log in a temporary state directory), served on an in-memory
/// loop instead of sockets: a test sends a client's bytes and reads the exact bytes it is sent.
final class InMemoryDaemon {
    static let json: Int32 = 3
    static let ssip: Int32 = 4
    static let me = PeerCredentials(pid: 4242, uid: getuid(), gid: getgid())

    let loop: InMemoryLoop<DaemonMessage>
    let clock = VirtualClock()
    private let log: LogWriter
    private let directory: String

    init(_ arguments: [String] = []) throws {
        directory = NSTemporaryDirectory() + "narrator-mem-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let environment = ["HOME": directory, "XDG_CONFIG_HOME": directory, "XDG_STATE_HOME": directory]
        let arguments = ["--audio", "null", "--engines", "none"] + arguments
        guard case .run(let options) = try DaemonMain.readOptions(arguments, environment: environment) else {
            throw DaemonMain.StartError(description: "\(arguments) does not run the daemon")
        }
        let inbox = try LoopInbox<DaemonMessage>()
        let clock = clock
        let (driver, log) = try DaemonMain.startSession(
            options, inbox: inbox, socketPath: directory + "/narratord.sock", ssip: (path: nil, owned: nil, serving: true), audio: .null,
            arguments: arguments, environment: environment, logger: Logger(level: .error), clock: { clock.now })
        self.log = log
        loop = try InMemoryLoop(
            listeners: [Self.json: .newline, Self.ssip: .crlf], configuration: DaemonMain.loopConfiguration(options), clock: clock, inbox: inbox, handler: driver)
    }

    deinit {
        _ = log.close(within: .seconds(5))
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A client (of the daemon's own user unless told) connects to the JSON socket.
    func connectJSON(peer: PeerCredentials = me) throws -> ClientID {
        guard let client = loop.connect(to: Self.json, peer: peer) else { throw DaemonMain.StartError(description: "the JSON socket is not served") }
        return client
    }

    /// A client of the daemon's own user connects to the SSIP socket.
    func connectSSIP() throws -> ClientID {
        guard let client = loop.connect(to: Self.ssip, peer: Self.me) else { throw DaemonMain.StartError(description: "the SSIP socket is not served") }
        return client
    }
}

/// What a child process's clients read and saw, one entry a line, written to its standard
/// output between markers (anything else the child prints is left out).
struct Transcript {
    private static let begin = "--- transcript ---", end = "--- end ---"
    private var lines: [String] = []

    /// What `client` took since the last read, quoted, then how its connection ended, if it did.
    mutating func read(_ client: ClientID, _ daemon: InMemoryDaemon) {
        lines.append("read " + Self.quoted(daemon.loop.readText(client)))
        if let reason = daemon.loop.disconnection(of: client) { lines.append("closed: \(reason)") }
    }

    mutating func note(_ line: String) {
        lines.append(line)
    }

    func print() {
        StandardOutput.write(([Self.begin] + lines + [Self.end]).joined(separator: "\n") + "\n")
    }

    /// The lines between the markers in `output`.
    static func lines(in output: [UInt8]) -> [String] {
        let all = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = all.firstIndex(of: begin), let stop = all[start...].firstIndex(of: end) else { return ["no transcript in: \(all)"] }
        return Array(all[(start + 1)..<stop])
    }

    /// `text` in double quotes with CR and LF written as `\r` and `\n`, so a line holds it.
    static func quoted(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": escaped += "\\r"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }
}
