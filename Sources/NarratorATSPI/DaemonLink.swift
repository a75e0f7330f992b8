import Glibc
import NarratorProtocol
import NarratorSystem

/// The bridge's connection to narratord, as bytes: requests out as JSON lines, and the lines that
/// come back read without blocking when the main loop says the socket is readable. What the lines
/// mean (replies decoded as answers to the requests they answer, owner events) is the core's
/// (``ATSPIBridge``), with the protocol's own types.
final class DaemonLink {
    let client: UnixClient
    private var buffer: [UInt8] = []

    /// More than `outputLimit` bytes waiting means narratord stopped reading: the connection is
    /// given up (and every window registered again once it is back).
    let outputLimit: Int

    init(socket: String, outputLimit: Int = 64 << 20) throws(UnixClientError) {
        client = try UnixClient(connectingTo: socket)
        self.outputLimit = outputLimit
    }

    var fd: Int32 { client.fd }

    /// Bytes narratord's socket has not taken yet, written as it takes them: a big register
    /// never blocks the bridge's loop on a narratord that reads slowly, or not at all.
    private var output: [UInt8] = []
    private var written = 0

    /// What became of a request.
    enum Sent {
        /// Written whole.
        case written
        /// Part waits for the socket to take it: ``flush()`` when it is writable.
        case waiting
        /// The connection is broken, or narratord has not read for too long.
        case broken(String)
    }

    /// Queues `request` as a line and writes what the socket takes now, without waiting.
    func send(_ request: Request) -> Sent {
        output += Array(request.line.utf8)
        output.append(UInt8(ascii: "\n"))
        guard output.count - written <= outputLimit else {
            return .broken("narratord has not read \((output.count - written) >> 20) MiB of requests")
        }
        return flush()
    }

    /// Writes what waits, as far as the socket takes it.
    func flush() -> Sent {
        while written < output.count {
            let result = output.withUnsafeBytes { raw in
                Result { () throws(Errno) -> Int in try Syscall.send(client.fd, UnsafeRawBufferPointer(rebasing: raw[written...]), nonBlocking: true) }
            }
            switch result {
            case .success(let count): written += count
            case .failure(let error) where error.isWouldBlock:
                return .waiting
            case .failure(let error):
                return .broken("\(error)")
            }
        }
        output.removeAll(keepingCapacity: true)
        written = 0
        return .written
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
