/// Cuts a job's text into the sentences Flite synthesizes one at a time, each with the UTF-8 byte
/// offset where it starts: narratord needs the offset of the sentence being heard (an `S` frame)
/// to hand the rest of a job to eSpeak NG if Flite fails, and one sentence at a time keeps the
/// first audio early (Flite analyses a whole utterance before its waveform starts).
///
/// A sentence ends after `.`, `!`, `?` or `…` (with any closing quotes or brackets after them)
/// followed by white space, at a blank line, or at the end of the text. A period does not end
/// one after a title (Mr., Dr.), an initial (J. Smith), or when a lower-case word follows. A run
/// longer than ``maximumLength`` bytes is cut at its last clause mark or space before that, so
/// that no single utterance keeps Flite analysing for long before its audio starts.
struct SentenceSplitter {
    /// One sentence: where it starts in the job's text and its bytes, trimmed of white space.
    struct Sentence: Equatable {
        let offset: Int
        let text: String
    }

    /// The longest piece given to Flite in one go, in UTF-8 bytes: about 50 words, which slt
    /// analyses in 160 ms before its first audio (measured, docs/flite-notes.md); twice that was
    /// 390 ms, too near narratord's 1 s hang bound on a loaded machine.
    static let maximumLength = 300

    /// Words after which a period is an abbreviation, not a sentence's end (lower case, inner dots removed).
    static let abbreviations: Set<String> = ["mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "mt", "vs", "eg", "ie", "cf"]

    static func split(_ text: String) -> [Sentence] {
        let scalars = Array(text.unicodeScalars)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        let bytes = Array(text.utf8)

        var sentences: [Sentence] = []
        func emit(_ start: Int, _ end: Int) {
            var start = start, end = end
            while start < end, isSpace(scalars[start]) { start += 1 }
            while end > start, isSpace(scalars[end - 1]) { end -= 1 }
            guard start < end else { return }
            for piece in cut(start, end, scalars, offsets) {
                sentences.append(Sentence(offset: offsets[piece.lowerBound], text: String(decoding: bytes[offsets[piece.lowerBound]..<offsets[piece.upperBound]], as: UTF8.self)))
            }
        }

        var start = 0
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if isTerminator(scalar) {
                var end = index + 1
                while end < scalars.count, isTerminator(scalars[end]) || isCloser(scalars[end]) { end += 1 }
                if end == scalars.count || isSpace(scalars[end]), endsSentence(at: index, runEnd: end, scalars) {
                    emit(start, end)
                    start = end
                }
                index = end
            } else if scalar == "\n", isBlankLine(after: index, scalars) {
                emit(start, index)
                start = index + 1
                index += 1
            } else {
                index += 1
            }
        }
        emit(start, scalars.count)
        return sentences
    }

    /// Whether the run of marks `index..<runEnd` ends a sentence: `!`, `?`, `…` or several
    /// periods do; a lone period does unless it follows an abbreviation or an initial, or a
    /// lower-case word comes next.
    static func endsSentence(at index: Int, runEnd: Int, _ scalars: [Unicode.Scalar]) -> Bool {
        let marks = scalars[index..<runEnd].filter { !isCloser($0) }
        guard marks.count == 1, marks[0] == "." else { return true }
        var wordStart = index
        while wordStart > 0, !isSpace(scalars[wordStart - 1]), !isOpener(scalars[wordStart - 1]) { wordStart -= 1 }
        let word = String(String.UnicodeScalarView(scalars[wordStart..<index].filter { $0 != "." })).lowercased()
        if abbreviations.contains(word) { return false }
        if word.unicodeScalars.count == 1, word.unicodeScalars.first?.properties.isAlphabetic == true { return false }
        var next = runEnd
        while next < scalars.count, isSpace(scalars[next]) { next += 1 }
        if next < scalars.count, scalars[next].properties.isLowercase { return false }
        return true
    }

    /// Cuts an over-long run into pieces of at most ``maximumLength`` bytes, after a clause mark
    /// (`,` `;` `:` or a dash) followed by a space where there is one, else at a space, else anywhere.
    static func cut(_ start: Int, _ end: Int, _ scalars: [Unicode.Scalar], _ offsets: [Int]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = start
        while offsets[end] - offsets[start] > maximumLength {
            var limit = start
            while offsets[limit + 1] - offsets[start] <= maximumLength { limit += 1 }
            var clause: Int?, space: Int?
            for position in stride(from: limit, to: start, by: -1) where isSpace(scalars[position]) {
                if space == nil { space = position }
                if [",", ";", ":", "—", "–"].contains(scalars[position - 1]) {
                    clause = position
                    break
                }
            }
            let cutAt = clause ?? space ?? limit
            pieces.append(start..<cutAt)
            start = cutAt
            while start < end, isSpace(scalars[start]) { start += 1 }
        }
        if start < end { pieces.append(start..<end) }
        return pieces
    }

    static func isTerminator(_ scalar: Unicode.Scalar) -> Bool {
        ".!?…".unicodeScalars.contains(scalar)
    }

    /// Closing quotes and brackets that belong to the sentence before them.
    static func isCloser(_ scalar: Unicode.Scalar) -> Bool {
        "\"')]}’”»".unicodeScalars.contains(scalar)
    }

    static func isOpener(_ scalar: Unicode.Scalar) -> Bool {
        "\"'([{‘“«".unicodeScalars.contains(scalar)
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    /// Whether the newline at `index` is followed, after spaces, by another: a paragraph break.
    static func isBlankLine(after index: Int, _ scalars: [Unicode.Scalar]) -> Bool {
        var next = index + 1
        while next < scalars.count, scalars[next] != "\n", isSpace(scalars[next]) { next += 1 }
        return next < scalars.count && scalars[next] == "\n"
    }
}
