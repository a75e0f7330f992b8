import Foundation
import NarratorSystem

/// A raw SSIP client for the end-to-end tests: bytes out exactly as given, replies and events
/// read back as their lines (CRLF removed), so the tests see the wire as Speech Dispatcher's
/// clients do.
final class SSIPTestClient {
    let connection: UnixClient

    /// Connects to `path`, waiting a little for a daemon that is still binding it.
    init(path: String) throws {
        var lastError: (any Error)?
        for _ in 0..<100 {
            do {
                connection = try UnixClient(connectingTo: path)
                return
            } catch {
                lastError = error
                usleep(50_000)
            }
        }
        throw lastError ?? DaemonHarness.HarnessError(message: "cannot connect to \(path)")
    }

    deinit { connection.close() }

    /// Sends `text` as it is (the caller writes the CRLFs).
    func write(_ text: String) throws {
        try connection.send(bytes: Array(text.utf8))
    }

    func write(bytes: [UInt8]) throws {
        try connection.send(bytes: bytes)
    }

    /// Sends one command line with its CRLF and returns the reply's lines.
    @discardableResult
    func command(_ line: String) throws -> [String] {
        try write(line + "\r\n")
        return try reply()
    }

    /// Sends one message with SPEAK (dot-stuffed) and returns the final reply's lines.
    @discardableResult
    func speak(_ text: String) throws -> [String] {
        try expectReply(try command("SPEAK"), "230 OK RECEIVING DATA")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        try write(lines.map { $0 + "\r\n" }.joined() + ".\r\n")
        return try reply()
    }

    /// The lines of the next reply or event: `NNN-...` lines up to the final `NNN text` line.
    func reply(timeout: Duration = .seconds(20)) throws -> [String] {
        var lines: [String] = []
        while true {
            guard let raw = try connection.readLine(timeout: timeout) else {
                throw DaemonHarness.HarnessError(message: "the server closed the connection after \(lines)")
            }
            guard raw.hasSuffix("\r") else { throw DaemonHarness.HarnessError(message: "a line not ended by CRLF: \(raw.debugDescription)") }
            let line = String(raw.dropLast())
            lines.append(line)
            let bytes = Array(line.utf8)
            if bytes.count >= 4, bytes[3] == UInt8(ascii: " ") { return lines }
            if bytes.count == 3 { return lines }
        }
    }

    /// Replies and events until one whose final line is `final` (e.g. "702 END"), all of them.
    func read(until final: String, timeout: Duration = .seconds(30)) throws -> [[String]] {
        var seen: [[String]] = []
        while true {
            let next = try reply(timeout: timeout)
            seen.append(next)
            if next.last == final { return seen }
        }
    }
}

/// Fails with the reply when it is not the one expected (SSIP clients give up on any other).
func expectReply(_ lines: [String], _ final: String) throws {
    guard lines.last == final else { throw DaemonHarness.HarnessError(message: "expected \(final), got \(lines)") }
}
