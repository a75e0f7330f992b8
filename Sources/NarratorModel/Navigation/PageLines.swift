/// A web page as laid out, for browse mode's reading by line, word and character: its stops in
/// reading order, grouped into the lines they share on screen (a link inside a paragraph is on
/// the paragraph's line, two buttons side by side are one line). Pure: made from the stops'
/// frames and words as the mirror holds them, so that no key asks the application anything.
///
/// A stop is never split: a paragraph that wraps over several rows on screen is one line here,
/// the application's own line breaks inside a text not being read.
public struct PageLines: Equatable, Sendable {
    /// One stop as a line holds it.
    public struct Piece: Equatable, Sendable {
        public var element: String
        /// What reading by character and word goes through: its name and value.
        public var text: String
        /// What reading the line says for it (narratord's words for the stop: "results, link").
        public var spoken: String
        /// Where its text starts in its line's text, in characters.
        public var start: Int

        public init(element: String, text: String, spoken: String, start: Int = 0) {
            self.element = element
            self.text = text
            self.spoken = spoken
            self.start = start
        }
    }

    public struct Line: Equatable, Sendable {
        public var pieces: [Piece]
        /// The pieces' texts, a space between two.
        public var text: [Character]
        /// The pieces' words as the line is said.
        public var spoken: String { pieces.map(\.spoken).filter { !$0.isEmpty }.joined(separator: " ") }
    }

    /// A place in the page: a line and a character in its text.
    public struct Place: Equatable, Sendable {
        public var line: Int
        public var offset: Int

        public init(line: Int, offset: Int) {
            self.line = line
            self.offset = offset
        }
    }

    /// One stop as it is laid out: its frame on screen, nil where the page gave it none.
    public struct Stop: Equatable, Sendable {
        public var piece: Piece
        public var frame: Rect?

        public init(_ element: String, text: String, spoken: String, frame: Rect?) {
            piece = Piece(element: element, text: text, spoken: spoken)
            self.frame = frame
        }
    }

    public private(set) var lines: [Line] = []
    private var lineOf: [String: Int] = [:]

    /// The lines of `stops`, in reading order: a stop joins the line before it when its frame
    /// shares that line's row (their heights overlap by half the smaller one's or more); a stop
    /// without a frame starts a line of its own.
    public init(_ stops: [Stop]) {
        var lastFrame: Rect?
        for stop in stops {
            let sameRow = stop.frame.flatMap { frame in lastFrame.map { Self.shareARow($0, frame) } } ?? false
            if !sameRow || lines.isEmpty { lines.append(Line(pieces: [], text: [])) }
            lastFrame = stop.frame
            var piece = stop.piece
            let index = lines.count - 1
            if !lines[index].text.isEmpty, !piece.text.isEmpty { lines[index].text.append(" ") }
            piece.start = lines[index].text.count
            lines[index].text += Array(piece.text)
            lines[index].pieces.append(piece)
            lineOf[piece.element] = index
        }
    }

    static func shareARow(_ a: Rect, _ b: Rect) -> Bool {
        let overlap = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return overlap > 0 && overlap * 2 >= min(a.height, b.height)
    }

    /// Where `element` starts; nil for an element on no line.
    public func place(of element: String) -> Place? {
        guard let line = lineOf[element], let piece = lines[line].pieces.first(where: { $0.element == element }) else { return nil }
        return Place(line: line, offset: piece.start)
    }

    /// The stop holding the character at `place` (a space between two: the one before it).
    public func element(at place: Place) -> String? {
        guard lines.indices.contains(place.line) else { return nil }
        return lines[place.line].pieces.last { $0.start <= place.offset }?.element ?? lines[place.line].pieces.first?.element
    }

    // MARK: Moves (nil where there is nothing further)

    public func nextLine(from place: Place?) -> Place? {
        let line = place.map { $0.line + 1 } ?? 0
        return lines.indices.contains(line) ? Place(line: line, offset: 0) : nil
    }

    public func previousLine(from place: Place) -> Place? {
        place.line > 0 ? Place(line: place.line - 1, offset: 0) : nil
    }

    /// The next character, on to the next line's first at a line's end.
    public func nextCharacter(from place: Place) -> Place? {
        if place.offset + 1 < lines[place.line].text.count { return Place(line: place.line, offset: place.offset + 1) }
        return lines.indices.dropFirst(place.line + 1).first { !lines[$0].text.isEmpty }.map { Place(line: $0, offset: 0) }
    }

    /// The previous character, on to the previous line's last at a line's start.
    public func previousCharacter(from place: Place) -> Place? {
        if place.offset > 0 { return Place(line: place.line, offset: min(place.offset, lines[place.line].text.count) - 1) }
        return lines.indices.prefix(place.line).last { !lines[$0].text.isEmpty }.map { Place(line: $0, offset: lines[$0].text.count - 1) }
    }

    /// The next word, as Orca moves by word: from the character after the cursor, past white
    /// space, to that word's end (on the lines after at a line's last word). The cursor goes to
    /// the word's end; the word is what is said.
    public func nextWord(from place: Place) -> (place: Place, word: String)? {
        var line = place.line, index = place.offset + 1
        while lines.indices.contains(line) {
            let text = lines[line].text
            while index < text.count, text[index].isWhitespace { index += 1 }
            if index < text.count {
                let (start, end) = Self.word(around: index, in: text)
                return (Place(line: line, offset: end), String(text[start..<end]))
            }
            line += 1
            index = 0
        }
        return nil
    }

    /// The word before, as Orca moves by word: from the character before the cursor, back past
    /// white space, to that word's start (on the lines before at a line's first word).
    public func previousWord(from place: Place) -> (place: Place, word: String)? {
        var line = place.line, index = place.offset - 1
        while line >= 0 {
            let text = lines[line].text
            index = min(index, text.count - 1)
            while index >= 0, text[index].isWhitespace { index -= 1 }
            if index >= 0 {
                let (start, end) = Self.word(around: index, in: text)
                return (Place(line: line, offset: start), String(text[start..<end]))
            }
            line -= 1
            index = Int.max
        }
        return nil
    }

    /// The bounds of the word holding the character at `index` (one that is no white space).
    static func word(around index: Int, in text: [Character]) -> (start: Int, end: Int) {
        var start = index, end = index
        while start > 0, !text[start - 1].isWhitespace { start -= 1 }
        while end < text.count, !text[end].isWhitespace { end += 1 }
        return (start, end)
    }

    public func lineStart(of place: Place) -> Place { Place(line: place.line, offset: 0) }

    /// The line's last character.
    public func lineEnd(of place: Place) -> Place { Place(line: place.line, offset: max(0, lines[place.line].text.count - 1)) }

    // MARK: Words

    /// The character at `place` as said alone ("space", "period", "r"); "blank" on an empty line.
    public func character(at place: Place) -> String {
        let text = lines[place.line].text
        return text.indices.contains(place.offset) ? CharacterName.spoken(text[place.offset]) : "blank"
    }
}
