/// Data mode after SPEAK: lines until a line holding only ".", with dot-unstuffing (a leading
/// ".." becomes "."), joined by "\n"; bounded, so a client cannot grow the daemon's memory.
///
/// Lines are split on CRLF only, by the caller: a bare "\n" inside a line is message text
/// (Orca's SSML holds some). After `complete` or `tooLong` the reader is ready for the next message.
public struct SSIPMessageReader: Sendable {
    public enum Progress: Sendable, Hashable {
        /// The line was taken; more lines follow.
        case more
        /// The message, dot-unstuffed; empty when the client sent just "." (reply 227).
        case complete(String)
        /// The message went past `limit` bytes and was discarded.
        case tooLong(limit: Int)
    }

    /// Bytes (UTF-8) of message text kept, counting the "\n" between lines.
    public let limit: Int
    private var text = ""
    private var bytes = 0
    private var lines = 0
    private var overflowed = false

    /// `limit`: bytes of message text kept; beyond it the rest is discarded and the message reported tooLong.
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// True between the first line of a message and its final ".".
    public var isReading: Bool { lines > 0 }

    public mutating func take(_ line: String) -> Progress {
        if line.utf8.elementsEqual(".".utf8) {
            let progress: Progress = overflowed ? .tooLong(limit: limit) : .complete(text)
            self = SSIPMessageReader(limit: limit)
            return progress
        }
        // Byte-wise: the client doubled the first byte, whatever combining mark follows it.
        let content = line.utf8.starts(with: "..".utf8) ? Substring(line.unicodeScalars.dropFirst()) : Substring(line)
        let added = content.utf8.count + (lines > 0 ? 1 : 0)
        lines += 1
        guard !overflowed else { return .more }
        if added > limit - bytes {
            overflowed = true
            text = ""
            return .more
        }
        if lines > 1 { text += "\n" }
        text += content
        bytes += added
        return .more
    }
}
