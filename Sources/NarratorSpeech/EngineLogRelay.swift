import NarratorSystem

/// Reads one engine process's standard error on a thread of its own and hands each line to the
/// journal, until the engine is gone (end of file). A line longer than ``longestLine`` bytes is
/// cut there, so a runaway engine cannot fill the daemon's memory or its journal.
enum EngineLogRelay {
    static let longestLine = 4096

    /// Starts the thread `name` reading `descriptor` (which it closes at the end).
    static func start(descriptor: Int32, name: String, onLine: @escaping @Sendable (String) -> Void) {
        DetachedThread.start(name: name) {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var skipping = false
            while true {
                let count = buffer.withUnsafeMutableBytes { raw in
                    (try? Syscall.read(descriptor, into: raw)) ?? 0
                }
                if count <= 0 { break }
                for byte in buffer[..<count] {
                    if byte == UInt8(ascii: "\n") {
                        if !skipping { onLine(line(pending)) }
                        pending.removeAll(keepingCapacity: true)
                        skipping = false
                    } else if !skipping {
                        pending.append(byte)
                        if pending.count >= longestLine {
                            onLine(line(pending) + "…")
                            pending.removeAll(keepingCapacity: true)
                            skipping = true
                        }
                    }
                }
            }
            if !pending.isEmpty, !skipping { onLine(line(pending)) }
            try? Syscall.close(descriptor)
        }
    }

    /// The bytes as text, a trailing carriage return dropped.
    private static func line(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
