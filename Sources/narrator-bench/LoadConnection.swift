import Glibc
import NarratorSystem

/// One non-blocking client connection for the load test: bytes waiting to be sent, bytes read
/// and not yet framed into lines. Owned by the one worker thread that polls it.
final class LoadConnection {
    private let client: UnixClient
    private var output: [UInt8] = []
    private var outputHead = 0
    private var input: [UInt8] = []
    /// True once the daemon closed the connection (end of file or a reset).
    private(set) var isClosed = false

    var fd: Int32 { client.fd }
    var hasPendingOutput: Bool { outputHead < output.count }

    init(path: String) throws {
        client = try UnixClient(connectingTo: path)
        try Syscall.setNonBlocking(client.fd, true)
    }

    func close() { client.close() }

    /// Queues `line` and a newline; `flush` writes it when the socket takes it.
    func queue(_ line: String) {
        output.append(contentsOf: line.utf8)
        output.append(UInt8(ascii: "\n"))
    }

    /// Writes what the socket takes now.
    func flush() throws(Errno) {
        while outputHead < output.count {
            let result = output.withUnsafeBytes { all in
                Result { () throws(Errno) -> Int in
                    try Syscall.send(fd, UnsafeRawBufferPointer(rebasing: all[outputHead...]), nonBlocking: true)
                }
            }
            switch result {
            case .success(let written): outputHead += written
            case .failure(let error) where error.isWouldBlock: return
            case .failure(let error): throw error
            }
        }
        output.removeAll(keepingCapacity: true)
        outputHead = 0
    }

    /// Reads what is there (at most `limit` bytes) and returns the complete lines.
    func readLines(limit: Int = 64 << 10) throws(Errno) -> [String] {
        var chunk = [UInt8](repeating: 0, count: limit)
        let result = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) -> Int in try Syscall.read(fd, into: raw) }
        }
        switch result {
        case .success(0):
            isClosed = true
            return []
        case .success(let count):
            input.append(contentsOf: chunk[..<count])
        case .failure(let error) where error.isWouldBlock:
            return []
        case .failure(let error) where error.code == ECONNRESET:
            isClosed = true
            return []
        case .failure(let error):
            throw error
        }
        var lines: [String] = []
        var start = 0
        while let newline = input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: input[start..<newline], as: UTF8.self))
            start = newline + 1
        }
        if start > 0 { input.removeFirst(start) }
        return lines
    }
}
