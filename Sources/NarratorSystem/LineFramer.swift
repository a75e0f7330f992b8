import Glibc

/// Splits a byte stream into newline-terminated lines of at most `limit` bytes. An over-long
/// line is reported once, as soon as it passes the limit (so memory stays bounded), and its
/// remaining bytes are skipped up to the next newline; the lines after it are framed normally.
///
/// With `Framing.crlf` (Speech Dispatcher's protocol) only CR LF ends a line: a bare LF is part
/// of the line, as real SSIP clients expect (Orca's SSML holds bare LFs).
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
    let framing: Framing
    private var pending: [UInt8] = []
    private var discarding = false
    /// The last byte seen was a CR (CRLF framing: a line may end where the next read begins).
    private var lastWasCR = false

    init(limit: Int, framing: Framing = .newline) {
        self.limit = limit
        self.framing = framing
    }

    /// Bytes of an unfinished line currently held.
    var bufferedCount: Int { pending.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        var start = 0
        while start < bytes.count {
            var end = firstNewline(in: UnsafeRawBufferPointer(rebasing: bytes[start...])).map { start + $0 }
            if framing == .crlf, let newline = end {
                let precededByCR = newline > start ? bytes[newline - 1] == UInt8(ascii: "\r") : lastWasCR
                if !precededByCR {
                    // A bare LF belongs to the line: keep it and look for the next one.
                    keep(bytes, from: start, to: newline + 1, into: &frames)
                    lastWasCR = false
                    start = newline + 1
                    continue
                }
                end = newline
            }
            let segmentEnd = end ?? bytes.count
            if framing == .crlf {
                // Only a read that ends just after a CR leaves a line's end undecided.
                lastWasCR = end == nil ? (segmentEnd > start ? bytes[segmentEnd - 1] == UInt8(ascii: "\r") : lastWasCR) : false
            }
            if discarding {
                if end != nil { discarding = false }
            } else {
                let segmentCount = segmentEnd - start
                if pending.count + segmentCount > limit {
                    frames.append(.tooLong)
                    pending.removeAll(keepingCapacity: false)
                    discarding = end == nil
                } else if end != nil {
                    // CRLF framing: the line's last byte is the CR, which is not part of it.
                    let cut = framing == .crlf ? 1 : 0
                    if pending.isEmpty {
                        frames.append(.line(Array(bytes[start..<(segmentEnd - cut)])))
                    } else {
                        pending.append(contentsOf: bytes[start..<segmentEnd])
                        pending.removeLast(cut)
                        if pending.capacity <= 64 * 1024 {
                            // Keep a small buffer for the next line.
                            frames.append(.line(pending))
                            pending.removeAll(keepingCapacity: true)
                        } else {
                            // The megabytes of a big tree are handed over as they are, not copied.
                            var line: [UInt8] = []
                            swap(&line, &pending)
                            frames.append(.line(line))
                        }
                    }
                } else {
                    pending.append(contentsOf: bytes[start..<segmentEnd])
                }
            }
            start = segmentEnd + (end == nil ? 0 : 1)
        }
        return frames
    }

    /// Keeps `bytes[from..<to]` as part of an unfinished line, within the limit.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into frames: inout [Frame]) {
        guard !discarding else { return }
        if pending.count + (end - start) > limit {
            frames.append(.tooLong)
            pending.removeAll(keepingCapacity: false)
            discarding = true
        } else {
            pending.append(contentsOf: bytes[start..<end])
        }
    }

    /// At end of input: the final line if the peer did not terminate it with a newline
    /// (tools like `printf '{...}' | socat` often do not), otherwise nil. With CRLF framing an
    /// unterminated line is never a command (a client that left mid-line said nothing).
    mutating func finish() -> Frame? {
        defer {
            pending.removeAll()
            discarding = false
            lastWasCR = false
        }
        guard framing == .newline, !discarding, !pending.isEmpty else { return nil }
        return .line(pending)
    }
}

/// How a listener's connections are split into lines.
public enum Framing: Sendable, Hashable {
    /// LF ends a line (narratord's JSON protocol).
    case newline
    /// Only CR LF ends a line (Speech Dispatcher's SSIP).
    case crlf
}
