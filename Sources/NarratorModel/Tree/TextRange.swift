/// A run of a text field's value: where the user's selection is. Offsets count Unicode scalars
/// (code points), as AT-SPI2's Text interface counts characters, so a bridge passes its offsets
/// through unchanged.
public struct TextRange: Equatable, Sendable {
    public var location: Int
    public var length: Int

    public init(location: Int, length: Int) {
        self.location = location
        self.length = length
    }

    /// The part of `text` the range covers, cut at the text's end (an update may set a shorter
    /// value before it sets the selection again); nil when nothing of it is left.
    public func selected(in text: String) -> Substring? {
        let scalars = text.unicodeScalars
        guard length > 0, location >= 0, location < scalars.count else { return nil }
        let start = scalars.index(scalars.startIndex, offsetBy: location)
        let end = scalars.index(start, offsetBy: min(length, scalars.count - location))
        return Substring(scalars[start..<end])
    }
}
