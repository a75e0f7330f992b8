/// An SSML document cut at the marks eSpeak NG 1.51 would lose, so that each is reported anyway.
///
/// eSpeak NG 1.51 drops, without a word, a `<mark/>` that follows a full stop when the text after
/// it starts a new sentence: `First part. <mark name="m1"/>Second part.` yields no mark event at
/// all. Orca puts a mark before every word of Say All, so each sentence's first mark went missing
/// and the reading position stalled (Speech Dispatcher has the same bug). Measured on 1.51, the
/// mark is lost when:
/// - the last character before it (skipping spaces, tabs and marks right before it) is `.`, and
///   there is no line break between the two (`.\n<mark/>` is reported);
/// - the first character after it (skipping whitespace and marks) is text that is not a lowercase
///   letter (a capital, a digit, a quote, a bracket: what eSpeak takes for a new sentence; before
///   a lowercase letter it reads the full stop as an abbreviation's and keeps the mark).
/// `!`, `?`, `:`, `;` and `,` keep their marks, so nothing is cut there.
///
/// The cure is to synthesize the document in consecutive pieces, each a complete `<speak>`
/// document with the original `<speak ...>` attributes (xml:lang and the like), and to report
/// each lost mark between two pieces, at the sample count of the audio before it: exact, where
/// eSpeak's own positions are not. A sentence end already pauses, so the pieces are no longer
/// heard than the whole (measured: about 1% more samples).
///
/// It stays narrow: marks inside sentences are left in the text for eSpeak to report (a cut there
/// would add a pause), and a cut is made only where no element other than `<speak>` is open, so
/// each piece stays well-formed. A document it cannot read with certainty (comments,
/// declarations, CDATA, unbalanced tags, anything around `<speak>`) is not cut: it is synthesized
/// whole, as before.
struct SSMLSegments: Equatable, Sendable {
    /// One piece of the document and the lost marks that come right before its audio.
    struct Segment: Equatable, Sendable {
        /// The names of the marks (as written, like eSpeak's own reports) heard where this piece begins.
        var marksBefore: [String]
        /// A complete SSML document: the original `<speak ...>` tag, this piece's body, `</speak>`.
        var text: String
    }

    var segments: [Segment]

    /// The pieces of `ssml`, or nil when it should be synthesized whole: no mark in it would be
    /// lost, or its structure does not allow a safe cut.
    init?(_ ssml: String) {
        let bytes = Array(ssml.utf8)
        guard let tokens = Self.tokenize(bytes) else { return nil }
        // The document must be exactly <speak ...> body </speak>, with only whitespace around.
        let significant = tokens.indices.filter { !Self.isBlank(tokens[$0], bytes) }
        guard let first = significant.first, let last = significant.last, first < last,
            case .speakOpen = tokens[first].kind, case .speakClose = tokens[last].kind
        else { return nil }
        let opening = String(decoding: bytes[tokens[first].range], as: UTF8.self)

        var segments = [Segment(marksBefore: [], text: "")]
        var body: [UInt8] = []
        var open: [String] = []
        var cut = false
        for index in (first + 1)..<last {
            let token = tokens[index]
            switch token.kind {
            case .speakOpen, .speakClose:
                return nil
            case .open(let name):
                open.append(name)
            case .close(let name):
                guard open.last == name else { return nil }
                open.removeLast()
            case .mark(let name):
                if open.isEmpty, Self.isLost(markAt: index, tokens, bytes) {
                    cut = true
                    if body.allSatisfy(Self.isWhitespace), segments.count > 1 {
                        // Marks in a row (or only whitespace between): one cut for them all.
                        segments[segments.count - 1].marksBefore.append(name)
                    } else {
                        segments[segments.count - 1].text = Self.document(opening, body)
                        segments.append(Segment(marksBefore: [name], text: ""))
                    }
                    body = []
                    continue
                }
            case .text, .empty:
                break
            }
            body += bytes[token.range]
        }
        guard cut, open.isEmpty else { return nil }
        segments[segments.count - 1].text = Self.document(opening, body)
        self.segments = segments
    }

    private static func document(_ opening: String, _ body: [UInt8]) -> String {
        opening + String(decoding: body, as: UTF8.self) + "</speak>"
    }

    // MARK: Reading the document

    private enum Kind: Equatable {
        case text
        case speakOpen
        case speakClose
        case mark(name: String)
        /// An opening tag of another element (its name), which must be closed before a cut.
        case open(String)
        case close(String)
        /// A self-closing element other than a mark (`<break/>`): nothing stays open.
        case empty
    }

    private struct Token {
        let kind: Kind
        let range: Range<Int>
    }

    /// Splits the document into text and tags; nil for anything but plain elements (comments,
    /// declarations, CDATA, an unterminated tag), which are left to eSpeak whole.
    private static func tokenize(_ bytes: [UInt8]) -> [Token]? {
        var tokens: [Token] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                tokens.append(Token(kind: .text, range: start..<index))
                continue
            }
            let start = index
            var quote: UInt8?
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            guard let kind = tagKind(bytes[start..<index]) else { return nil }
            tokens.append(Token(kind: kind, range: start..<index))
        }
        return tokens
    }

    /// What the tag `<...>` is; nil for `<!...>` and `<?...>`.
    private static func tagKind(_ tag: ArraySlice<UInt8>) -> Kind? {
        let inner = Array(tag.dropFirst().dropLast())
        guard let lead = inner.first, lead != UInt8(ascii: "!"), lead != UInt8(ascii: "?") else { return nil }
        let closing = lead == UInt8(ascii: "/")
        let selfClosing = !closing && inner.last == UInt8(ascii: "/")
        let nameBytes = inner.dropFirst(closing ? 1 : 0).prefix { !isWhitespace($0) && $0 != UInt8(ascii: "/") }
        let name = String(decoding: nameBytes, as: UTF8.self)
        guard !name.isEmpty else { return nil }
        switch (name, closing, selfClosing) {
        case ("speak", false, false): return .speakOpen
        case ("speak", true, _): return .speakClose
        case ("speak", false, true): return nil
        case ("mark", false, true):
            // A mark without a name is no mark to report: left in the text, never a cut.
            return attribute("name", in: inner).map { .mark(name: $0) } ?? .empty
        case (_, true, _): return .close(name)
        case (_, false, true): return .empty
        default: return .open(name)
        }
    }

    /// The raw value of `name="..."` (or single quotes) in a tag's inside.
    private static func attribute(_ name: String, in inner: [UInt8]) -> String? {
        let key = Array(name.utf8)
        var index = 0
        while index + key.count < inner.count {
            let before = index == 0 ? UInt8(ascii: " ") : inner[index - 1]
            if isWhitespace(before), Array(inner[index..<(index + key.count)]) == key {
                var cursor = index + key.count
                while cursor < inner.count, isWhitespace(inner[cursor]) { cursor += 1 }
                if cursor < inner.count, inner[cursor] == UInt8(ascii: "=") {
                    cursor += 1
                    while cursor < inner.count, isWhitespace(inner[cursor]) { cursor += 1 }
                    guard cursor < inner.count else { return nil }
                    let quote = inner[cursor]
                    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
                    guard let end = inner[(cursor + 1)...].firstIndex(of: quote) else { return nil }
                    return String(decoding: inner[(cursor + 1)..<end], as: UTF8.self)
                }
            }
            index += 1
        }
        return nil
    }

    // MARK: Which marks eSpeak NG loses

    /// Whether eSpeak NG 1.51 would drop the mark at `index` (the rule measured above).
    private static func isLost(markAt index: Int, _ tokens: [Token], _ bytes: [UInt8]) -> Bool {
        endsSentenceBefore(index, tokens, bytes) && startsSentenceAfter(index, tokens, bytes)
    }

    /// A `.` before the mark, with only spaces, tabs and marks between (no line break).
    private static func endsSentenceBefore(_ index: Int, _ tokens: [Token], _ bytes: [UInt8]) -> Bool {
        for token in tokens[..<index].reversed() {
            switch token.kind {
            case .mark:
                continue
            case .text:
                for byte in bytes[token.range].reversed() {
                    if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
                    return byte == UInt8(ascii: ".")
                }
            default:
                return false
            }
        }
        return false
    }

    /// Text after the mark (past whitespace and marks) that does not begin with a lowercase letter.
    private static func startsSentenceAfter(_ index: Int, _ tokens: [Token], _ bytes: [UInt8]) -> Bool {
        for token in tokens[(index + 1)...] {
            switch token.kind {
            case .mark:
                continue
            case .text:
                guard let start = bytes[token.range].firstIndex(where: { !isWhitespace($0) }) else { continue }
                let character = String(decoding: bytes[start..<min(start + 4, token.range.upperBound)], as: UTF8.self).first
                return !(character?.isLowercase ?? false)
            default:
                return false
            }
        }
        return false
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private static func isBlank(_ token: Token, _ bytes: [UInt8]) -> Bool {
        token.kind == .text && bytes[token.range].allSatisfy(isWhitespace)
    }
}
