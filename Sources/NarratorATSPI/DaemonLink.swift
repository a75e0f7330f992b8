import Glibc
import NarratorCore
import NarratorSystem

/// The bridge's connection to narratord, as bytes: requests out as JSON lines, and the lines that
/// come back read without blocking when the main loop says the socket is readable. What the lines
/// mean (replies decoded as answers to the requests they answer, owner events) is the core's
/// (``ATSPIBridge``), with the protocol's own types.
final class DaemonLink {
    let client: UnixClient
    private var buffer: [UInt8] = []

    init(socket: String) throws(UnixClientError) {
        client = try UnixClient(connectingTo: socket)
    }

    var fd: Int32 { client.fd }

    func send(_ request: Request) throws(UnixClientError) {
        try client.send(line: request.line)
    }

    /// The lines that arrived since the last call, without their newlines; nil once narratord
    /// closed the connection (or it broke).
    func receive() -> [String]? {
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
        var lines: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return lines
    }
}
