import Glibc

/// Splits a byte stream into newline-terminated lines of at most `limit` bytes. An over-long
/// line is reported once, as soon as it passes the limit (so memory stays bounded), and its
/// remaining bytes are skipped up to the next newline; the lines after it are framed normally.
///
/// With `Framing.crlf` (Speech Dispatcher's protocol) only CR LF ends a line: a bare LF is part
/// of the line, as real SSIP clients expect (Orca's SSML holds bare LFs).
///
/// A line longer than ``pieceSize`` is kept in the pieces it was read in and handed over so: one
/// growing buffer would be copied whole each time it doubled, and a 10 MB line's last doubling
/// (with the fresh pages it touches) held the loop for milliseconds.
struct LineFramer {
    enum Frame: Equatable {
        /// A complete line without its newline.
        case line([UInt8])
        /// A complete line longer than ``LineFramer/pieceSize``, in pieces, in order.
        case pieces([[UInt8]])
        /// A line exceeded `limit`; its bytes are being discarded.
        case tooLong

        /// Bytes of a complete line; 0 for a discarded one, whose bytes are not kept.
        var lineLength: Int {
            switch self {
            case .line(let bytes): bytes.count
            case .pieces(let pieces): pieces.reduce(0) { $0 + $1.count }
            case .tooLong: 0
            }
        }
    }

    /// The size past which an unfinished line's bytes start a new piece.
    static let pieceSize = 64 << 10

    let limit: Int
    let framing: Framing
    /// The unfinished line's last piece, after the full ones in `earlier`.
    private var pending: [UInt8] = []
    private var earlier: [[UInt8]] = []
    private var earlierCount = 0
    private var discarding = false
    /// The last byte seen was a CR (CRLF framing: a line may end where the next read begins).
    private var lastWasCR = false

    init(limit: Int, framing: Framing = .newline) {
        self.limit = limit
        self.framing = framing
    }

    /// Bytes of an unfinished line currently held.
    var bufferedCount: Int { earlierCount + pending.count }

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
                if bufferedCount + segmentCount > limit {
                    frames.append(.tooLong)
                    dropPending()
                    discarding = end == nil
                } else if end != nil {
                    // CRLF framing: the line's last byte is the CR, which is not part of it.
                    let cut = framing == .crlf ? 1 : 0
                    if bufferedCount == 0 {
                        frames.append(.line(Array(bytes[start..<(segmentEnd - cut)])))
                    } else {
                        hold(bytes[start..<segmentEnd])
                        frames.append(takeLine(droppingLast: cut))
                    }
                } else {
                    hold(bytes[start..<segmentEnd])
                }
            }
            start = segmentEnd + (end == nil ? 0 : 1)
        }
        return frames
    }

    /// Keeps `bytes[from..<to]` as part of an unfinished line, within the limit.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into frames: inout [Frame]) {
        guard !discarding else { return }
        if bufferedCount + (end - start) > limit {
            frames.append(.tooLong)
            dropPending()
            discarding = true
        } else {
            hold(bytes[start..<end])
        }
    }

    /// Adds bytes to the unfinished line, filling pieces of ``pieceSize`` bytes: each is
    /// allocated once at its full size, so that none is copied as it grows.
    private mutating func hold(_ bytes: Slice<UnsafeRawBufferPointer>) {
        var rest = bytes[...]
        while !rest.isEmpty {
            if pending.count == Self.pieceSize {
                earlierCount += pending.count
                var full: [UInt8] = []
                full.reserveCapacity(Self.pieceSize)
                swap(&full, &pending)
                earlier.append(full)
            }
            let room = Self.pieceSize - pending.count
            pending.append(contentsOf: rest.prefix(room))
            rest = rest.dropFirst(room)
        }
    }

    /// The unfinished line as a frame, without its last `cut` bytes (a CRLF line's CR), leaving nothing.
    private mutating func takeLine(droppingLast cut: Int) -> Frame {
        // A full piece is set aside only when more bytes come, so the last bytes are in `pending`.
        pending.removeLast(cut)
        guard !earlier.isEmpty else {
            // Keep the small buffer for the next line.
            defer { pending.removeAll(keepingCapacity: true) }
            return .line(pending)
        }
        var pieces: [[UInt8]] = []
        swap(&pieces, &earlier)
        pieces.append(pending)
        pending = []
        earlierCount = 0
        return .pieces(pieces)
    }

    private mutating func dropPending() {
        pending.removeAll(keepingCapacity: false)
        earlier.removeAll()
        earlierCount = 0
    }

    /// At end of input: the final line if the peer did not terminate it with a newline
    /// (tools like `printf '{...}' | socat` often do not), otherwise nil. With CRLF framing an
    /// unterminated line is never a command (a client that left mid-line said nothing).
    mutating func finish() -> Frame? {
        defer {
            dropPending()
            discarding = false
            lastWasCR = false
        }
        guard framing == .newline, !discarding, bufferedCount > 0 else { return nil }
        return takeLine(droppingLast: 0)
    }
}

/// How a listener's connections are split into lines.
public enum Framing: Sendable, Hashable {
    /// LF ends a line (narratord's JSON protocol).
    case newline
    /// Only CR LF ends a line (Speech Dispatcher's SSIP).
    case crlf
}
