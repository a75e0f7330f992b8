import NarratorSystem

/// Why a conversation with an SSIP server (speech-dispatcher, or narratord's `--ssip`) went
/// wrong; each case names the server and says what was expected.
enum SSIPError: Error, CustomStringConvertible {
    case transport(server: String, UnixClientError)
    case closed(server: String, waitingFor: String)
    case timedOut(server: String, waitingFor: String, recent: [String])
    case unexpected(server: String, line: String, waitingFor: String)

    var description: String {
        switch self {
        case .transport(let server, let error): "\(server) socket: \(error)"
        case .closed(let server, let what): "\(server) closed the connection while the benchmark waited for \(what)"
        case .timedOut(let server, let what, let recent):
            "\(server) sent nothing more while the benchmark waited for \(what); the last lines were: \(recent.joined(separator: " | "))"
        case .unexpected(let server, let line, let what): "\(server) answered \"\(line)\" where \(what) was expected"
        }
    }
}

/// A line received from Speech Dispatcher, with the monotonic time it was read (taken before any parsing).
struct SSIPLine {
    var text: String
    var at: Double

    /// The three-digit code (`225`, `701`...), nil for a line that does not start with one.
    var code: Int? { text.count >= 4 ? Int(text.prefix(3)) : nil }
    /// True for the last line of a reply or event (`NNN text`), false for a continuation (`NNN-data`).
    var isFinal: Bool { text.count >= 4 && text[text.index(text.startIndex, offsetBy: 3)] == " " }
    /// The data of a continuation line (`225-17` gives "17").
    var data: String { String(text.dropFirst(4)) }
}

/// An SSIP client on a speech server's Unix socket: CRLF lines, replies and (after
/// `SET SELF NOTIFICATION ALL on`) events on the same connection. One thread uses it. The same
/// client measures speech-dispatcher and narratord, so neither is favoured by its client.
final class SSIPConnection {
    /// Who answers, for error messages ("speech-dispatcher", "narratord").
    let server: String
    private let client: UnixClient
    /// Events read while waiting for a reply (Speech Dispatcher can send 701 BEGIN before
    /// 225 OK MESSAGE QUEUED), handed out first by `next`.
    private var pending: [SSIPLine] = []
    /// The last lines received, for error messages.
    private var recent: [String] = []

    init(path: String, server: String) throws(SSIPError) {
        self.server = server
        do { client = try UnixClient(connectingTo: path) } catch { throw .transport(server: server, error) }
    }

    /// Sends one line with SSIP's CRLF ending, returning the time the kernel took it.
    @discardableResult
    func send(_ line: String) throws(SSIPError) -> Double {
        do { try client.send(bytes: Array((line + "\r\n").utf8)) } catch { throw .transport(server: server, error) }
        return Clock.now()
    }

    /// The next line (events kept while waiting for a reply first), without its CR, timed as soon as it was read.
    func next(waitingFor what: String, timeout: Duration = .seconds(15)) throws(SSIPError) -> SSIPLine {
        if !pending.isEmpty { return pending.removeFirst() }
        return try receive(waitingFor: what, timeout: timeout)
    }

    /// The next reply line from the socket; events read on the way are kept for `next`.
    private func nextReply(waitingFor what: String) throws(SSIPError) -> SSIPLine {
        while true {
            let line = try receive(waitingFor: what, timeout: .seconds(15))
            guard let code = line.code, code >= 700 else { return line }
            pending.append(line)
        }
    }

    private func receive(waitingFor what: String, timeout: Duration) throws(SSIPError) -> SSIPLine {
        let line: String?
        do {
            line = try client.readLine(timeout: timeout)
        } catch .timedOut {
            throw .timedOut(server: server, waitingFor: what, recent: recent)
        } catch {
            throw .transport(server: server, error)
        }
        let at = Clock.now()
        guard var line else { throw .closed(server: server, waitingFor: what) }
        if line.hasSuffix("\r") { line.removeLast() }
        recent.append(line)
        if recent.count > 16 { recent.removeFirst() }
        return SSIPLine(text: line, at: at)
    }

    /// Sends a one-line command and returns its final reply line, which must be a 2xx success.
    @discardableResult
    func command(_ line: String) throws(SSIPError) -> SSIPLine {
        try send(line)
        while true {
            let reply = try nextReply(waitingFor: "the reply to \(line)")
            guard let code = reply.code else { throw .unexpected(server: server, line: reply.text, waitingFor: "the reply to \(line)") }
            guard (200..<300).contains(code) else { throw .unexpected(server: server, line: reply.text, waitingFor: "a 2xx reply to \(line)") }
            if reply.isFinal { return reply }
        }
    }

    /// Sends a command whose reply is a list (`LIST SYNTHESIS_VOICES`) and reads it to its final
    /// line: how many data lines came, when the command was sent and when the last line arrived.
    func list(_ line: String) throws(SSIPError) -> (lines: Int, sent: Double, done: Double) {
        let sent = try send(line)
        var count = 0
        while true {
            let reply = try nextReply(waitingFor: "the reply to \(line)")
            guard let code = reply.code, (200..<300).contains(code) else {
                throw .unexpected(server: server, line: reply.text, waitingFor: "a 2xx reply to \(line)")
            }
            if reply.isFinal { return (count, sent, reply.at) }
            count += 1
        }
    }

    /// SPEAK `text`: returns the message id (`225-<id>`) and the time the closing `.` was sent.
    func speak(_ text: String) throws(SSIPError) -> (message: String, sent: Double) {
        try command("SPEAK")  // 230 OK RECEIVING DATA
        try send(text)
        let sent = try send(".")
        var message: String?
        while true {
            let reply = try nextReply(waitingFor: "225 OK MESSAGE QUEUED")
            guard let code = reply.code else { throw .unexpected(server: server, line: reply.text, waitingFor: "225 OK MESSAGE QUEUED") }
            guard code == 225 else { throw .unexpected(server: server, line: reply.text, waitingFor: "225 OK MESSAGE QUEUED") }
            if !reply.isFinal { message = reply.data; continue }
            guard let message else { throw .unexpected(server: server, line: reply.text, waitingFor: "225-<message id> before 225 OK") }
            return (message, sent)
        }
    }

    /// SPEAKs every text of `texts` in one write, without waiting for the replies in between
    /// (SSIP allows it; robust servers read what follows a command as its data), then reads the
    /// replies: `230` and `225` for each.
    func speakPipelined(_ texts: [String]) throws(SSIPError) {
        let bytes = texts.map { "SPEAK\r\n\($0)\r\n.\r\n" }.joined()
        do { try client.send(bytes: Array(bytes.utf8)) } catch { throw .transport(server: server, error) }
        for _ in texts {
            for expected in [230, 225] {
                while true {
                    let reply = try nextReply(waitingFor: "\(expected) for a pipelined SPEAK")
                    guard reply.code == expected else { throw .unexpected(server: server, line: reply.text, waitingFor: "\(expected) for a pipelined SPEAK") }
                    if reply.isFinal { break }
                }
            }
        }
    }

    /// Reads until the event `code` (701 BEGIN, 702 END, 703 CANCELED...) of message `message`,
    /// returning the time its final line arrived. Events of other messages and replies are passed over.
    func waitForEvent(_ code: Int, message: String, timeout: Duration = .seconds(15)) throws(SSIPError) -> Double {
        var current: String?
        while true {
            let line = try next(waitingFor: "event \(code) of message \(message)", timeout: timeout)
            guard line.code == code else { current = nil; continue }
            if !line.isFinal {
                if current == nil { current = line.data }  // 7xx-<message>, then 7xx-<client>
                continue
            }
            if current == message { return line.at }
            current = nil
        }
    }

    /// CANCEL SELF while `message` plays: when it was sent, and how long until the 2xx reply and
    /// until the message's 703 CANCELED (or its 702 END, had it ended first: `code` says which).
    func cancelSelf(message: String) throws(SSIPError) -> (sent: Double, reply: Double, event: Double, code: Int) {
        let sent = try send("CANCEL SELF")
        var reply: Double?
        var event: (at: Double, code: Int)?
        var current: String?
        while reply == nil || event == nil {
            let line = try next(waitingFor: "the reply to CANCEL SELF and 703 CANCELED")
            guard let code = line.code else { continue }
            if code < 300 {
                if line.isFinal { reply = line.at - sent }
                continue
            }
            guard code >= 700 else { throw .unexpected(server: server, line: line.text, waitingFor: "a 2xx reply to CANCEL SELF") }
            if !line.isFinal {
                if current == nil { current = line.data }  // 7xx-<message>, then 7xx-<client>
                continue
            }
            if current == message, code == 703 || code == 702 { event = (line.at - sent, code) }
            current = nil
        }
        return (sent, reply ?? 0, event?.at ?? 0, event?.code ?? 0)
    }

    func close() { client.close() }
}
