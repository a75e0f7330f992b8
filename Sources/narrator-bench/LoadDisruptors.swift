import Glibc
import NarratorSystem

/// The badly behaved clients of the load test: ones that vanish in the middle of a request, and
/// subscribers that read slowly or never, which the daemon must disconnect rather than wait for.
enum LoadDisruptors {
    struct VanisherReport: Sendable {
        var connections = 0
        var failures: [String] = []
    }

    /// Until `deadline`, rounds of `count` connections that each leave at a bad moment: after half
    /// a line, right after a register or a status request, or after registering an ephemeral tree
    /// and sending a focus on it. Registrations that are answered must be answered `ok`.
    static func vanish(count: Int, path: String, deadline: Double) -> VanisherReport {
        var report = VanisherReport()
        var round = 0
        while Clock.now() < deadline {
            var clients: [UnixClient] = []
            for index in 0..<count {
                do {
                    let client = try UnixClient(connectingTo: path)
                    clients.append(client)
                    let tree = "gone-\(round)-\(index)"
                    let register = #"{"id": 1, "cmd": "register", "ephemeral": true, "document": {"tree": "\#(tree)", "root": {"id": "r", "children": [{"id": "a", "label": "A"}]}}}"#
                    switch (round + index) % 4 {
                    case 0: try client.send(bytes: Array(#"{"id": 1, "cmd": "foc"#.utf8))
                    case 1: try client.send(line: register)
                    case 2: try client.send(line: #"{"id": 1, "cmd": "status"}"#)
                    default:
                        try client.send(line: register)
                        guard let reply = try client.readLine(timeout: .seconds(10)), reply.contains(#""ok":true"#) else {
                            report.failures.append("vanisher \(tree): register was not answered ok")
                            continue
                        }
                        try client.send(line: #"{"id": 2, "cmd": "focus", "tree": "\#(tree)"}"#)
                    }
                } catch {
                    report.failures.append("vanisher \(round)-\(index): \(error)")
                }
            }
            for client in clients { client.close() }
            report.connections += clients.count
            round += 1
            usleep(20_000)
        }
        return report
    }

    struct SlowReport: Sendable {
        var neverReaders = 0
        var neverDisconnected = 0
        var trickleReaders = 0
        var trickleDisconnected = 0
        var failures: [String] = []
    }

    /// `count` subscribers of speech events: half never read, half read 1 KiB every 200 ms. At
    /// `deadline` each is drained to see whether the daemon closed it (end of file after the data).
    static func readSlowly(count: Int, path: String, deadline: Double) -> SlowReport {
        var report = SlowReport()
        var readers: [(client: UnixClient, trickles: Bool)] = []
        for index in 0..<count {
            do {
                let client = try UnixClient(connectingTo: path)
                try client.send(line: #"{"id": 1, "cmd": "subscribe"}"#)
                guard let reply = try client.readLine(timeout: .seconds(10)), reply.contains(#""subscribed":true"#) else {
                    report.failures.append("slow reader \(index): subscribe was not answered")
                    continue
                }
                try Syscall.setNonBlocking(client.fd, true)
                readers.append((client, index % 2 == 1))
            } catch {
                report.failures.append("slow reader \(index): \(error)")
            }
        }
        report.trickleReaders = readers.filter(\.trickles).count
        report.neverReaders = readers.count - report.trickleReaders
        var chunk = [UInt8](repeating: 0, count: 1024)
        while Clock.now() < deadline {
            usleep(200_000)
            for reader in readers where reader.trickles {
                _ = chunk.withUnsafeMutableBytes { try? Syscall.read(reader.client.fd, into: $0) }
            }
        }
        // Drain each: the daemon closed it if end of file (or a reset) comes within a few seconds.
        var big = [UInt8](repeating: 0, count: 256 << 10)
        for reader in readers {
            let giveUp = Clock.now() + 3
            var closed = false
            while !closed && Clock.now() < giveUp {
                let result = big.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) -> Int in try Syscall.read(reader.client.fd, into: raw) }
                }
                switch result {
                case .success(0): closed = true
                case .success: continue
                case .failure(let error) where error.isWouldBlock:
                    _ = try? Syscall.poll(reader.client.fd, events: Int16(POLLIN), timeoutMilliseconds: 100)
                case .failure: closed = true
                }
            }
            if closed {
                if reader.trickles { report.trickleDisconnected += 1 } else { report.neverDisconnected += 1 }
            }
            reader.client.close()
        }
        return report
    }
}
