import Glibc
import NarratorCore
import NarratorSystem

/// The bridge's connection to narratord: requests out as JSON lines, and the lines that come back
/// (replies, and the events narratord sends a tree's owner) read without blocking when the main
/// loop says the socket is readable.
final class DaemonLink {
    let client: UnixClient
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Requests in flight by id, with what they were for (a failed update is sent again whole).
    private(set) var inFlight: [Int: String] = [:]

    init(socket: String) throws(UnixClientError) {
        client = try UnixClient(connectingTo: socket)
    }

    var fd: Int32 { client.fd }

    /// Sends `command`, remembering `purpose` until its reply comes.
    func send(_ command: RequestCommand, purpose: String) throws(UnixClientError) {
        let id = nextID
        nextID += 1
        inFlight[id] = purpose
        try client.send(line: Request(id: .number(Double(id)), command: command).line)
    }

    /// What arrived since the last call, line by line; nil when narratord closed the connection.
    func receive() -> [JSONValue]? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffer += chunk[0..<count]
                continue
            }
            if count == 0 { return nil }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            return nil
        }
        var lines: [JSONValue] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            if let value = try? JSONParser().parse(line) { lines.append(value) }
        }
        return lines
    }

    /// A reply's purpose, and the request forgotten.
    func finish(_ id: Int) -> String? {
        inFlight.removeValue(forKey: id)
    }
}
