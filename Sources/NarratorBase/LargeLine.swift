/// A line too large to be handled on the loop, as the pieces it was read in (none copied into
/// one): putting it together, checking it is UTF-8 and decoding it are left to another thread.
public struct LargeLine: Hashable, Sendable {
    public let pieces: [[UInt8]]
    /// Bytes in all pieces.
    public let count: Int

    public init(pieces: [[UInt8]]) {
        self.pieces = pieces
        count = pieces.reduce(0) { $0 + $1.count }
    }

    /// The line's bytes in one array (a copy as long as the line, unless it is one piece).
    public func joined() -> [UInt8] {
        guard pieces.count != 1 else { return pieces[0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for piece in pieces { bytes.append(contentsOf: piece) }
        return bytes
    }
}
