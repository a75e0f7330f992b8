import Glibc

/// Splits a byte stream into newline-terminated lines of at most `limit` bytes. An over-long
/// line is reported once, as soon as it passes the limit (so memory stays bounded), and its
/// remaining bytes are skipped up to the next newline; the lines after it are framed normally.
struct LineFramer {
    enum Frame: Equatable {
        /// A complete line without its newline.
        case line([UInt8])
        /// A line exceeded `limit`; its bytes are being discarded.
        case tooLong

        /// Bytes of a complete line; 0 for a discarded one, whose bytes are not kept.
        var lineLength: Int {
            if case .line(let bytes) = self { bytes.count } else { 0 }
        }
    }

    let limit: Int
    private var pending: [UInt8] = []
    private var discarding = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes of an unfinished line currently held.
    var bufferedCount: Int { pending.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        var start = 0
        while start < bytes.count {
            let end = firstNewline(in: UnsafeRawBufferPointer(rebasing: bytes[start...])).map { start + $0 }
            let segmentEnd = end ?? bytes.count
            if discarding {
                if end != nil { discarding = false }
            } else {
                let segmentCount = segmentEnd - start
                if pending.count + segmentCount > limit {
                    frames.append(.tooLong)
                    pending.removeAll(keepingCapacity: false)
                    discarding = end == nil
                } else if end != nil {
                    if pending.isEmpty {
                        frames.append(.line(Array(bytes[start..<segmentEnd])))
                    } else {
                        pending.append(contentsOf: bytes[start..<segmentEnd])
                        frames.append(.line(pending))
                        // Keep a small buffer for the next line, but not the megabytes of a big tree.
                        pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
                    }
                } else {
                    pending.append(contentsOf: bytes[start..<segmentEnd])
                }
            }
            start = segmentEnd + (end == nil ? 0 : 1)
        }
        return frames
    }

    /// At end of input: the final line if the peer did not terminate it with a newline
    /// (tools like `printf '{...}' | socat` often do not), otherwise nil.
    mutating func finish() -> Frame? {
        defer {
            pending.removeAll()
            discarding = false
        }
        guard !discarding, !pending.isEmpty else { return nil }
        return .line(pending)
    }
}
